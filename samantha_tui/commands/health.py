"""`health`: the memory health report, grouped by check, with its score and what the semantic
checks said; exit 1 when a finding is an error (a conflict), as `check` does for its problems."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.basics.model import short_path
from ..core.basics.visible import visible
from ..core.views.bootstrap import BootstrapPlan, Signals, plan
from ..core.views.health import CAP, HealthReport, health_report
from ..core.views.health_findings import CHECKS, Finding
from ..core.views.meaning.analysis import analyse_if
from ..core.writing import dismissed_pairs
from ..settings import load_settings
from .common import EXIT_PROBLEMS, open_store, tree_argument
from .output import print_json

JSON_SHAPE = f"""\
--json prints one object:
  root       the tree's root folder
  score      0..100: 100 less, per check, its points per finding (at most {CAP} a check)
  errors     findings that make the exit code 1 (conflicts)
  warnings   every other finding
  semantic   {{on: true|false, reason: why off, pairs: close pairs found, dismissed: pairs
             left out because a person dismissed them}}
  findings   [{{check, severity: error|warning, paths: [...], line: number|null, message,
             fix: {{action, words, field, section}}}}], checks in this order:
             {", ".join(CHECKS)}
  notes      what the report could not look at, and why
"""


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "health",
        help="the memory health report: findings by check, each with its fix, and a score",
        epilog=JSON_SHAPE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    tree_argument(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output (below)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    tree, today = store.tree, store.today()
    settings, notes = load_settings()
    bootstrap: BootstrapPlan | None
    try:
        bootstrap = plan(tree, Signals(), today, settings.bootstrap_budget)
    except ValueError as error:  # UnknownProject: no current project to plan for
        bootstrap = None
        notes.append(f"the bootstrap budget was not checked: {error}")
    loaded = dismissed_pairs.load_for(store.root)
    if loaded.message:
        notes.append(loaded.message)
    # The catalog keeps the vectors, so a second run embeds only what changed.
    meaning = analyse_if(settings.meaning, tree.memories, store.catalog())
    report = health_report(
        tree, today, bootstrap_plan=bootstrap, meaning=meaning, dismissed=loaded.dismissed
    )
    if args.json:
        print_json(as_dict(report, str(store.root), notes))
    else:
        for line in render(report, str(store.root)):
            print(line)
        for note in notes:
            print(f"samantha-tui: {note}", file=sys.stderr)
    return EXIT_PROBLEMS if report.errors else 0


def _where(finding: Finding) -> str:
    places = [short_path(path) for path in finding.paths]
    if finding.line is not None and len(places) == 1:
        return f"{places[0]}:{finding.line}"
    shown = places[:3]
    more = f" and {len(places) - 3} more" if len(places) > 3 else ""
    return ", ".join(shown) + more


def render(report: HealthReport, root: str) -> list[str]:
    """The report as text: the score, the semantic line, then each check's findings."""
    # One line each, whatever a file name holds: a line break in one is escaped too.
    out = [f"health of {visible(root)}: {report.score}/100", visible(report.semantic.line())]
    groups = report.by_check()
    if not groups:
        out.append("no findings")
    for check, found in groups:
        out.append("")
        out.append(f"{check} ({len(found)})")
        for finding in found:
            prefix = "error: " if finding.severity.value == "error" else ""
            out.append(f"  {visible(_where(finding))}: {prefix}{visible(finding.message)}")
            out.append(f"    fix: {visible(finding.fix.words)}")
    return out


def as_dict(report: HealthReport, root: str, notes: list[str]) -> dict[str, Any]:
    """The report as the JSON shape the command's help documents."""
    return {
        "root": root,
        "score": report.score,
        "errors": report.errors,
        "warnings": len(report.findings) - report.errors,
        "semantic": {
            "on": report.semantic.on,
            "reason": report.semantic.reason,
            "pairs": report.semantic.pairs,
            "dismissed": report.semantic.dismissed,
        },
        "findings": [
            {
                "check": f.check,
                "severity": f.severity.value,
                "paths": list(f.paths),
                "line": f.line,
                "message": f.message,
                "fix": {
                    "action": f.fix.action,
                    "words": f.fix.words,
                    "field": f.fix.field,
                    "section": f.fix.section,
                },
            }
            for f in report.findings
        ],
        "notes": notes,
    }

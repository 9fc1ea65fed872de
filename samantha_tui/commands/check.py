"""`check`: every problem in the tree, one line each; exit 1 when there is an error.

Warnings (a frontmatter strict YAML refuses but samantha-llm reads, a quoted or future date, a
file name's date that differs) are printed too; they exit 1 only with `--strict`, since both
samantha-llm and samantha-tui use those memories as they are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.basics.model import Problem, Severity
from ..core.views.indexes.health import json_problems
from ..core.writing import journal
from .common import EXIT_PROBLEMS, open_store, tree_argument
from .output import print_json, say


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("check", help="list every problem in the tree; exit 1 if any")
    tree_argument(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--strict", action="store_true", help="exit 1 for warnings too")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args, say_interrupted=False)  # its problems name it
    tree = store.tree
    # An interrupted batch is a problem too: until it is recovered, no change can be made.
    problems = tree.all_problems + list(journal.problems(store.root)) + index_problems(store.root)
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if args.json:
        payload = {
            "root": str(store.root),
            "memories": len(tree.memories),
            "errors": len(errors),
            "warnings": len(problems) - len(errors),
            "problems": [
                {"path": p.path, "line": p.line, "message": p.message, "severity": p.severity.value}
                for p in problems
            ],
        }
        print_json(payload)
    else:
        for problem in problems:
            prefix = "warning: " if problem.severity is Severity.WARNING else ""
            where = f"{problem.path}:{problem.line}" if problem.line else problem.path
            say(f"{where}: {prefix}{problem.message}")
        summary = f"{len(tree.memories)} memories, {len(errors)} problems"
        if len(problems) > len(errors):
            summary += f", {len(problems) - len(errors)} warnings"
        print(summary, file=sys.stderr)
    return EXIT_PROBLEMS if errors or (args.strict and problems) else 0


def index_problems(root: Path) -> list[Problem]:
    """Each index.json samantha-llm cannot load (its worker stops on one); nothing is rewritten."""
    return json_problems(root)

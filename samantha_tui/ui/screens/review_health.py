"""The review's Health section: the health report's findings as rows, what each says, and where
`f` takes the person to fix it (ui/health.py works the report out)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.text import Text

from ...core.basics.model import Severity, short_path
from ...core.views import health_findings as h
from ...core.views import lifecycle, meaning_review
from ...core.views.health import HealthReport
from ...core.views.health_findings import Finding
from ...core.views.lifecycle import Proposal
from ...core.views.merging import MERGE
from ..visible_text import shown, visible_text
from ..widgets.memory_table import LazyRows, TableRow

if TYPE_CHECKING:
    from ..host import Host

CONFLICTS = "conflicts"
"""The review's section of possible conflicts (review.CONFLICTS; that module imports this one)."""

GOES_TO = {
    h.REVIEW: "f goes to its section of this review",
    h.MERGE: "f goes to the pair in this review",
    h.RESOLVE_CONFLICT: "f goes to the pair in this review",
    h.FORM: "f opens its fields",
    h.EDITOR: "f shows it in the list; o opens it in your editor",
    h.CRITICAL: "f shows the Critical tab",
    h.BOOTSTRAP: "f opens the bootstrap preview",
    h.INDEX: "f brings the indexes in step (shown as a plan first)",
}
"""What `f` does for each kind of fix, said under the finding."""


def finding_key(index: int) -> str:
    return f"finding:{index}"


def finding_at(report: HealthReport, key: str) -> Finding | None:
    index = key.removeprefix("finding:")
    if not index.isdigit() or int(index) >= len(report.findings):
        return None
    return report.findings[int(index)]


def rows(report: HealthReport) -> LazyRows:
    findings = report.findings
    return LazyRows([finding_key(i) for i in range(len(findings))], lambda i: _row(i, findings[i]))


def _row(index: int, finding: Finding) -> TableRow:
    error = finding.severity is Severity.ERROR
    mark = Text("✗", style="bold red") if error else Text("!", style="yellow")
    first_line = finding.message.splitlines()[0] if finding.message else finding.check
    cells = (mark, shown(first_line), shown(finding.check, style="dim"))
    return TableRow(finding_key(index), cells)


def summary(report: HealthReport | None) -> Text:
    """The section's line above its table: the score and what the semantic checks said."""
    if report is None:
        return Text("Working out the health report…", style="dim")
    text = Text.assemble(("Health ", "bold"), (f"{report.score}/100", "bold"))
    text.append(f" · {len(report.findings)} finding{'s' * (len(report.findings) != 1)} · ")
    text.append(visible_text(Text(report.semantic.line(), style="dim")))
    return text


def note(finding: Finding) -> Text:
    """The side panel: the finding in full, its files, and the fix."""
    text = Text()
    text.append(finding.check.capitalize(), style="bold")
    text.append("\n\n")
    text.append_text(shown(finding.message))
    for path in finding.paths[:12]:
        text.append("\n  ")
        text.append_text(shown(short_path(path), style="dim"))
    if len(finding.paths) > 12:
        text.append(f"\n  … and {len(finding.paths) - 12} more", style="dim")
    if finding.line is not None:
        text.append(f"\n  line {finding.line}", style="dim")
    text.append("\n\nFix: ", style="bold")
    text.append_text(shown(finding.fix.words))
    text.append(f"\n{GOES_TO.get(finding.fix.action, '')}", style="dim")
    return text


def fix_outside(app: Host, finding: Finding) -> bool:
    """Take the person to the fix that lies outside the review (the review is closed first by
    the caller when this returns True); False for a fix within the review."""
    action = finding.fix.action
    first = finding.paths[0] if finding.paths else None
    if action == h.FORM and first is not None:
        memory = app.curator.get(first)
        if memory is not None:
            app.open_form(memory.kind, memory, focus=finding.fix.field or None)
        return True
    if action == h.EDITOR and first is not None:
        app.jump_to(first)
        return True
    if action == h.CRITICAL:
        app.action_show_tab("critical")
        return True
    if action == h.BOOTSTRAP:
        app.action_open_screen("bootstrap")
        return True
    if action == h.INDEX:
        app.action_regenerate_indexes()
        return True
    return False


def section_of(
    finding: Finding, proposals: Mapping[str, Proposal]
) -> tuple[str, str | None] | None:
    """(rule, path to select) of the review section that fixes `finding`, or None when its fix
    lies outside the review."""
    action, paths = finding.fix.action, finding.paths
    if action == h.REVIEW and finding.fix.section in proposals:
        return finding.fix.section, _candidate_in(proposals[finding.fix.section], paths)
    if action == h.MERGE:
        # A merge copy or near-identical body is the Duplicates rule's; a pair alike in meaning
        # the Same meaning section's; either lists the memory that would go, paths[1].
        for rule in (lifecycle.DEDUPE, MERGE):
            if rule in proposals and _candidate_in(proposals[rule], paths[1:]) is not None:
                return rule, paths[1]
    if action == h.RESOLVE_CONFLICT and len(paths) == 2:
        return CONFLICTS, meaning_review.paths_key(*paths)
    return None


def _candidate_in(proposal: Proposal, paths: tuple[str, ...]) -> str | None:
    candidates = {c.path for c in proposal.candidates}
    return next((path for path in paths if path in candidates), None)

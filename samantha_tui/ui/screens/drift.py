"""The drift report (`i`): how each kind's index files differ from the memory files.

A panel that stays until closed, scrollable however long the report is; `r` closes it and
shows what regenerating the indexes would write (nothing is written before the person agrees).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...core.views.indexes import DriftReport
from .dismiss_once import DismissOnce
from .key_labels import hint


def report_text(report: DriftReport) -> Text:
    """Each kind's heading (drifted in yellow, up to date in green), then its findings."""
    text = Text()
    for number, kind in enumerate(report.kinds):
        head, *findings = kind.lines()
        if number:
            text.append("\n")
        text.append(head, style="bold yellow" if kind.drifted else "green")
        for finding in findings:
            text.append("\n")
            text.append("• ", style="dim")
            text.append(finding.strip())
    return text


def summary(report: DriftReport) -> str:
    drifted = sum(kind.drifted for kind in report.kinds)
    if not drifted:
        return "Every index matches the memory files."
    noun = "index needs" if drifted == 1 else "indexes need"
    return f"{drifted} {noun} updating to match the memory files."


class DriftScreen(DismissOnce, ModalScreen[None]):
    """The drift report as a panel; follows the indexes' state while it is open."""

    HELP_TITLE = "Index drift"
    HELP_PURPOSE = (
        "How each kind's index.json and index.md differ from the memory files. The indexes are "
        "shared with samantha-llm: entries known only to the index are kept unless you ask (R)."
    )
    HELP_KEYS = {"drift.regenerate": "Show what bringing the indexes in step would write"}
    BINDINGS = [
        Binding("escape,q", "close", "Close", id="drift.close"),
        Binding("r", "regenerate", "Regenerate indexes", id="drift.regenerate"),
        # A modal screen stops the app's keys: its own `?`/F1 opens the help.
        Binding("question_mark,f1", "app.help", "Keys", id="drift.help"),
    ]

    def __init__(self, report: DriftReport) -> None:
        super().__init__()
        self.report = report

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="drift-box"):
            yield Static(Text("Index drift", style="bold"), id="drift-title")
            yield Static(Text(summary(self.report)), id="drift-summary")
            yield Static(report_text(self.report), id="drift-report")
            yield Static(
                hint(
                    self,
                    ("drift.regenerate", "shows what updating them would write"),
                    ("drift.help", "keys"),
                    ("drift.close", "closes"),
                ),
                id="drift-hint",
            )

    def indexes_checked(self, report: DriftReport) -> None:
        """The indexes were compared again: show the new report in place."""
        self.report = report
        self.query_one("#drift-summary", Static).update(Text(summary(report)))
        self.query_one("#drift-report", Static).update(report_text(report))

    def action_close(self) -> None:
        self.dismiss(None)

    async def action_regenerate(self) -> None:
        self.dismiss(None)
        await self.app.run_action("regenerate_indexes")

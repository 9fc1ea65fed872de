"""The notices of this session (`N`), newest first: what a toast said, kept to be read again.

Toasts go after a few seconds and a repeat replaces its kind's toast; the log keeps each notice
once, with when it last came, its title, how grave it is and its words, as plain text.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..notices import LOG_LIMIT, Logged, NoticeLog, counted
from ..widgets.fitted_footer import FittedFooter
from .dismiss_once import DismissOnce

EMPTY = "No notices yet in this session."
SEVERITY_STYLE = {"information": "", "warning": "bold yellow", "error": "bold red"}
SEVERITY_WORD = {"information": "info", "warning": "warning", "error": "error"}


def notice_table(entries: list[Logged]) -> Table:
    """The log as a grid: time, severity, title and message; every text in as Text, so a
    bracket in a memory's name shows as typed."""
    table = Table.grid(padding=(0, 2), expand=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    for entry in entries:
        title = Text(counted(entry.title, entry.count), style="bold")
        body = Text.assemble(title, "\n" if entry.title or entry.count > 1 else "", entry.message)
        table.add_row(
            Text(entry.at.strftime("%H:%M:%S"), style="dim"),
            Text(
                SEVERITY_WORD.get(entry.severity, entry.severity),
                SEVERITY_STYLE.get(entry.severity, ""),
            ),
            body,
        )
    return table


class NoticesScreen(DismissOnce, Screen[None]):
    """Every notice of this session, newest first, scrollable; Esc closes."""

    HELP_TITLE = "Notices"
    HELP_PURPOSE = (
        "Every notice of this session, newest first: when it last came, how grave it is, its "
        f"title and its words. A repeat counts in its entry (×2). The last {LOG_LIMIT} are kept."
    )

    BINDINGS = [
        Binding("escape", "close", "Close", id="notices.close"),
    ]

    def __init__(self, log: NoticeLog) -> None:
        super().__init__()
        self.notice_log = log

    def compose(self) -> ComposeResult:
        yield Static(id="notices-head")
        with VerticalScroll(id="notices-list"):
            yield Static(id="notices-body")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.show_log()
        self.query_one("#notices-list", VerticalScroll).focus()

    def show_log(self) -> None:
        """Draw the log as it is now (the app calls it when a notice comes in)."""
        entries = self.notice_log.newest_first()
        head = Text("Notices", style="bold")
        count = len(entries)
        head.append(f"  {count} this session, newest first", style="")
        head.append(f"  ·  the last {LOG_LIMIT} are kept  ·  Esc closes", style="dim")
        self.query_one("#notices-head", Static).update(head)
        body = self.query_one("#notices-body", Static)
        body.update(notice_table(entries) if entries else Text(EMPTY, style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)

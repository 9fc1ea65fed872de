"""Every key with what it does, opened with `?` or F1."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

IN_THE_LIST = (
    ("↑ ↓  j k", "move in the list"),
    ("PgUp PgDn  Home End", "move a page, or to the first or last memory"),
    ("Space", "mark or unmark a memory (d deletes every marked one)"),
    ("Tab", "move focus between the list and the preview"),
    ("Esc", "clear the search and go back to where you were"),
    ("Ctrl+P", "every action by name (command palette)"),
)


class HelpScreen(ModalScreen[None]):
    """A modal table of keys; the app passes its own, with any overrides from the config file."""

    BINDINGS = [
        Binding("escape,question_mark,q,f1", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, listed: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self._listed = list(listed)

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 3))
        table.add_column(no_wrap=True)
        table.add_column()
        for keys, meaning in [*self._listed, *IN_THE_LIST]:
            table.add_row(Text(keys, style="bold"), Text(meaning))
        with VerticalScroll(id="help-box"):
            yield Static(Text("Keys", style="bold"), id="help-title")
            yield Static(table)
            yield Static(Text("Press Esc or ? to close", style="dim"), id="help-hint")

    def action_dismiss(self) -> None:
        self.dismiss(None)

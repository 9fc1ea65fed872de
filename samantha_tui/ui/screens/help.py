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

from .dismiss_once import DismissOnce

IN_THE_LIST = (
    ("↑ ↓  j k", "Move in the list"),
    ("PgUp PgDn", "Move a page"),
    ("Home End  g G", "First or last memory"),
    ("Space", "Mark or unmark (d deletes every marked one)"),
    ("Tab", "Between the list and the preview"),
    ("Ctrl+P", "Every action by name (command palette)"),
)


class HelpScreen(DismissOnce, ModalScreen[None]):
    """A modal table of keys; the app passes its own, with any overrides from the config file."""

    BINDINGS = [
        Binding("escape,question_mark,q,f1", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, sections: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> None:
        super().__init__()
        self._sections = [*sections, ("In the list", IN_THE_LIST)]

    @property
    def listed(self) -> list[tuple[str, str]]:
        """Every (keys, description) row shown."""
        return [row for _, rows in self._sections for row in rows]

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 3))
        table.add_column(no_wrap=True)
        table.add_column()
        for number, (title, rows) in enumerate(self._sections):
            if number:
                table.add_row("", "")
            table.add_row(Text(title.upper(), style="bold"), "")
            for keys, meaning in rows:
                table.add_row(Text(keys, style="bold"), Text(meaning))
        with VerticalScroll(id="help-box"):
            yield Static(Text("Keys", style="bold"), id="help-title")
            yield Static(table)
            yield Static(Text("Press Esc or ? to close", style="dim"), id="help-hint")

    def action_dismiss(self) -> None:
        self.dismiss(None)

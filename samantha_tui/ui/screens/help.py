"""Every key binding with what it does, opened with `?`."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS_LIST = (
    ("↑ ↓  j k", "move in the list"),
    ("PgUp PgDn  Home End", "move a page, or to the first or last memory"),
    ("Tab", "move focus between the list and the preview"),
)


class HelpScreen(ModalScreen[None]):
    """A modal table of the app's bindings, built from the bindings themselves."""

    BINDINGS = [
        Binding("escape,question_mark,q", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, bindings: list[Binding]) -> None:
        super().__init__()
        self._listed = bindings

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 3))
        table.add_column(no_wrap=True)
        table.add_column()
        for binding in self._listed:
            keys = "  ".join(binding.key_display or key for key in binding.key.split(","))
            table.add_row(Text(keys, style="bold"), Text(binding.description))
        for keys, meaning in KEYS_LIST:
            table.add_row(Text(keys, style="bold"), Text(meaning))
        with VerticalScroll(id="help-box"):
            yield Static(Text("Keys", style="bold"), id="help-title")
            yield Static(table)
            yield Static(Text("Press Esc or ? to close", style="dim"), id="help-hint")

    def action_dismiss(self) -> None:
        self.dismiss(None)

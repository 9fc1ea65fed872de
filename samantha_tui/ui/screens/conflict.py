"""The dialog for a write refused because the file changed on disk: reload, overwrite or cancel."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..visible_text import shown
from .button_choices import ButtonChoices

RELOAD = "reload"
OVERWRITE = "overwrite"
CANCEL = "cancel"


class ConflictScreen(ButtonChoices, ModalScreen[str]):
    """Says another program changed `path` since it was read; dismisses with the choice made.

    The result is RELOAD, OVERWRITE or CANCEL; `detail` lines (user text, never markup) say what
    changed. Cancel is focused: the safe choice writes nothing.
    """

    SAFE_CHOICE = CANCEL

    BINDINGS = [
        Binding("r", f"choose('{RELOAD}')", "Reload theirs", id="conflict.reload"),
        Binding("k", f"choose('{OVERWRITE}')", "Keep mine", id="conflict.keep_mine"),
        Binding("escape", f"choose('{CANCEL}')", "Cancel", id="conflict.cancel"),
        Binding("left", "switch(-1)", "Previous button", show=False, id="conflict.previous"),
        Binding("right", "switch(1)", "Next button", show=False, id="conflict.next"),
    ]

    def __init__(self, path: str, detail: Sequence[str] = ()) -> None:
        super().__init__(classes="dialog")
        self._path = path
        self._detail = list(detail)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(
                shown(f"Changed on disk: {self._path}", style="bold"), classes="dialog-title"
            )
            with VerticalScroll(classes="dialog-lines"):
                yield Static(self._explanation())
            with Horizontal(classes="dialog-buttons"):
                yield Button("Reload theirs", id=RELOAD)
                yield Button("Keep mine", id=OVERWRITE, variant="warning")
                yield Button("Cancel", id=CANCEL, variant="primary")

    def _explanation(self) -> Text:
        lines = [
            Text(
                "Another program changed this file since you opened it: your change is not saved."
            ),
            *(shown(line, style="dim") for line in self._detail),
            Text(),
            Text.assemble(
                ("  r  Reload theirs  ", "bold"), "drop your change, show the file as it is"
            ),
            Text.assemble(
                ("  k  Keep mine      ", "bold"),
                "write yours over theirs (",
                ("u", "bold"),
                " brings theirs back)",
            ),
            Text.assemble(("esc  Cancel         ", "bold"), "write nothing; your edit stays open"),
        ]
        return Text("\n").join(lines)

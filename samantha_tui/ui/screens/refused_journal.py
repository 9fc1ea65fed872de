"""The start-up notice for a journal recovery refuses (a path it may not touch, a linked folder):
it says why, offers no way to act on it, and closes with any of its keys."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from .button_choices import ButtonChoices
from .key_labels import keyed

CLOSE = "close"


class RefusedJournalScreen(ButtonChoices, ModalScreen[str]):
    """Shows why the journal in the tree is refused; dismisses with CLOSE. Finishing and rolling
    back are not offered: every file stays as it is."""

    SAFE_CHOICE = CLOSE

    BINDINGS = [
        Binding("escape,l", f"choose('{CLOSE}')", "Close", id="refused-journal.close"),
    ]

    def __init__(self, refusal: str) -> None:
        super().__init__(classes="dialog")
        self._refusal = refusal

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(
                Text("An interrupted change cannot be recovered", style="bold"),
                classes="dialog-title",
            )
            with VerticalScroll(classes="dialog-lines"):
                # The refusal quotes the journal's paths: text from the tree, never markup.
                yield Static(Text(self._refusal))
                yield Static(
                    Text(
                        "Nothing was changed; no change can be made until that folder is gone.",
                        style="dim",
                    )
                )
            with Horizontal(classes="dialog-buttons"):
                yield Button(
                    keyed(self, "refused-journal.close", "Close"), id=CLOSE, variant="primary"
                )

"""The start-up question when an earlier change was interrupted: finish it, roll it back, or later.

Asked by recovery_offer.py; nothing is written until the person chooses. Later is the
safe choice (focused): every file stays as the interruption left it, and changes are refused until
the journal is dealt with here, on the next start, or with `samantha-tui recover`.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...core.writing.journal import Journal
from ...core.writing.recovery import FINISH, ROLLBACK, Preview
from ..visible_text import shown
from .button_choices import ButtonChoices
from .key_labels import keyed

LATER = "later"
PREVIEW_LINES = 8
"""Lines of each choice's file list shown; the rest are counted."""


class RecoverScreen(ButtonChoices, ModalScreen[str]):
    """Says which change was interrupted and how far it got; dismisses with FINISH, ROLLBACK or
    LATER."""

    SAFE_CHOICE = LATER

    BINDINGS = [
        Binding("f", f"choose('{FINISH}')", "Finish", id="recover.finish"),
        Binding("r", f"choose('{ROLLBACK}')", "Roll back", id="recover.rollback"),
        Binding("escape,l", f"choose('{LATER}')", "Later", id="recover.later"),
        Binding("left", "switch(-1)", "Previous button", show=False, id="recover.previous"),
        Binding("right", "switch(1)", "Next button", show=False, id="recover.next"),
    ]

    def __init__(self, interrupted: Journal, shown: Preview | None = None) -> None:
        super().__init__(classes="dialog")
        self._interrupted = interrupted
        self._shown = shown

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(
                Text("An earlier change was interrupted", style="bold"), classes="dialog-title"
            )
            with VerticalScroll(classes="dialog-lines"):
                yield Static(self._explanation())
            with Horizontal(classes="dialog-buttons"):
                yield Button(keyed(self, "recover.finish", "Finish"), id=FINISH)
                yield Button(
                    keyed(self, "recover.rollback", "Roll back"), id=ROLLBACK, variant="warning"
                )
                yield Button(keyed(self, "recover.later", "Later"), id=LATER, variant="primary")

    def _explanation(self) -> Text:
        interrupted = self._interrupted
        lines = [
            # The plan's name holds file names: user text, never markup.
            shown(f"{interrupted.describe()}."),
            Text(f"Started {interrupted.started.replace('T', ' ')}.", style="dim"),
            Text(),
            *_touched_lines(self._shown),
            Text.assemble(("  f  Finish     ", "bold"), "do the steps that are left"),
            Text.assemble(("  r  Roll back  ", "bold"), "put every file back as it was before"),
            Text.assemble(
                ("esc  Later      ", "bold"), "touch nothing; no change can be made meanwhile"
            ),
        ]
        return Text("\n").join(lines)


def _touched_lines(shown: Preview | None) -> list[Text]:
    """What each choice would change, before its key is pressed (capped; the dialog scrolls)."""
    if shown is None:
        return []
    lines: list[Text] = []
    for heading, items in (("Finish would:", shown.finish), ("Roll back would:", shown.rollback)):
        lines.append(Text(heading, style="bold"))
        # Paths come from the tree: plain Text, never markup.
        lines += [Text(f"  {item}") for item in items[:PREVIEW_LINES]] or [Text("  nothing")]
        if len(items) > PREVIEW_LINES:
            lines.append(Text(f"  and {len(items) - PREVIEW_LINES} more", style="dim"))
        lines.append(Text())
    return lines

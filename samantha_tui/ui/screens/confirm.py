"""One confirmation modal for every destructive action, with the safe choice focused."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..visible_text import shown
from .dismiss_once import DismissOnce
from .key_labels import keyed


class ConfirmScreen(DismissOnce, ModalScreen[bool]):
    """Asks a yes/no question; dismisses with True only when the person confirms.

    `lines` name what will happen (file names, counts); they are user text, so never markup.
    With `button_only`, `y` does not confirm: only Enter on the confirm button, or a click, does
    (for what cannot be had back from any file, where a stray key must not decide).
    """

    WAITS_ON_PERSON = True
    """No busy bar shows while it asks (see work_progress.py): the app waits on the person."""

    BINDINGS = [
        Binding("escape,n", "cancel", "Cancel", id="confirm.cancel"),
        Binding("y", "confirm", "Confirm", show=False, id="confirm.yes"),
        Binding("left,right", "switch", "Switch button", show=False, id="confirm.switch"),
    ]

    def __init__(
        self,
        title: str,
        lines: Sequence[str] = (),
        confirm_label: str = "OK",
        cancel_label: str = "Cancel",
        danger: bool = False,
        button_only: bool = False,
    ) -> None:
        super().__init__(classes="dialog")
        self._title = title
        self._lines = list(lines)
        self._confirm_label = confirm_label
        self._cancel_label = cancel_label
        self._danger = danger
        self._button_only = button_only

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(shown(self._title, style="bold"), classes="dialog-title")
            more = list(self.compose_more())
            if self._lines or more:
                # One scrolling part: whatever it holds, the buttons below stay in reach.
                with VerticalScroll(classes="dialog-lines"):
                    if self._lines:
                        yield Static(shown("\n".join(self._lines), multi_line=True))
                    yield from more
            with Horizontal(classes="dialog-buttons"):
                yield Button(keyed(self, "confirm.cancel", self._cancel_label), id="cancel")
                # With `button_only`, `y` does not confirm: the button shows no key.
                confirm = (
                    Text(self._confirm_label)
                    if self._button_only
                    else keyed(self, "confirm.yes", self._confirm_label)
                )
                yield Button(
                    confirm,
                    id="confirm",
                    variant="error" if self._danger else "primary",
                )

    def compose_more(self) -> ComposeResult:
        """What a kind of confirmation shows after its lines, scrolled with them (none here)."""
        yield from ()

    def on_mount(self) -> None:
        # Keys that came in a burst may have closed it before it was mounted: nothing to focus.
        for button in self.query("#cancel").results(Button):
            button.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm")

    def action_cancel(self) -> None:
        self.dismiss(False)

    def action_confirm(self) -> None:
        if self._button_only:
            self.notify(
                f"A key alone does not do this: move to {self._confirm_label} (→) and press Enter",
                timeout=4,
            )
            return
        self.dismiss(True)

    def action_switch(self) -> None:
        buttons = list(self.query(Button).results(Button))
        if len(buttons) < 2:
            return  # closing, or not composed yet: a key from a burst that came too early
        cancel = next(b for b in buttons if b.id == "cancel")
        confirm = next(b for b in buttons if b.id == "confirm")
        (confirm if self.focused is cancel else cancel).focus()

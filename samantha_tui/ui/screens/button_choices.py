"""Dialogs whose buttons are their choices: the conflict dialog and the interrupted-change one."""

from __future__ import annotations

from textual.widgets import Button

from .dismiss_once import DismissOnce


class ButtonChoices(DismissOnce):
    """Mixed into a ModalScreen[str] (before it in the bases) whose button ids are its choices.

    The safe choice, SAFE_CHOICE, has the focus first, so Enter pressed by habit changes nothing;
    a button or a choice's key dismisses with it, and `switch` moves the focus between buttons.
    """

    SAFE_CHOICE: str
    WAITS_ON_PERSON = True
    """No busy bar shows while it asks (see work_progress.py): the app waits on the person."""

    def on_mount(self) -> None:
        self.query_one(f"#{self.SAFE_CHOICE}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or self.SAFE_CHOICE)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def action_switch(self, step: int) -> None:
        buttons = list(self.query(Button))
        focused = self.focused
        current = buttons.index(focused) if focused in buttons else 0
        buttons[(current + step) % len(buttons)].focus()

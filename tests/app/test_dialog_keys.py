"""Every key a dialog answers is shown on it: `[y] Move to trash`, `[Esc/n] Cancel`; no dialog
takes a key it does not show (the arrows and Tab only move between its buttons)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget

from samantha_tui.core.basics.sorting import SortField, SortOrder
from samantha_tui.core.views.indexes import DriftReport
from samantha_tui.ui import keys
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.drift import DriftScreen
from samantha_tui.ui.screens.export import ExportScreen
from samantha_tui.ui.screens.help import HelpPage, HelpScreen
from samantha_tui.ui.screens.recover import RecoverScreen
from samantha_tui.ui.screens.refused_journal import RefusedJournalScreen
from samantha_tui.ui.sort_menu import SortMenu

MOVING = {"left", "right", "up", "down", "tab", "shift+tab"}
"""Keys that only move the focus between a dialog's buttons or rows: not choices."""


class Interrupted:
    """What the recovery dialog reads of an interrupted journal."""

    started = "2026-06-10T14:02:00"

    def describe(self) -> str:
        return "prune: 3 files, 1 done"


DIALOGS: dict[str, Callable[[], Screen[Any]]] = {
    "confirm": lambda: ConfirmScreen("Move 2 to the trash?", ["a.md", "b.md"], "Move to trash"),
    "conflict": lambda: ConflictScreen(".ai/short-term-memory/.ai/a.md", ["Your change: x"]),
    "recover": lambda: RecoverScreen(Interrupted()),  # type: ignore[arg-type]
    "refused journal": lambda: RefusedJournalScreen("a linked folder"),
    "export": lambda: ExportScreen(Path("/tmp")),
    "sort": lambda: SortMenu("Short-term", SortOrder.natural(SortField.DATE)),
    "drift": lambda: DriftScreen(DriftReport(())),
    "help": lambda: HelpScreen(HelpPage("Keys", "", [])),
}


def visible_text(screen: Screen[Any]) -> str:
    """What the dialog's widgets draw, as plain text."""
    said = []
    for widget in screen.query(Widget):
        drawn = widget.render()
        plain = getattr(drawn, "plain", None)
        if isinstance(plain, str):
            said.append(plain)
    return "\n".join(said)


def shown_keys(text: str) -> set[str]:
    """Every key named in a `[keys]` label: `[Esc/n] Cancel` names Esc and n."""
    return {key for group in re.findall(r"\[([^\]\s]+)\]", text) for key in group.split("/")}


class Host(App[None]):
    def __init__(self, dialog: Screen[Any]) -> None:
        super().__init__()
        self.dialog = dialog

    def on_mount(self) -> None:
        self.push_screen(self.dialog)


@pytest.mark.parametrize("name", list(DIALOGS))
@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
async def test_every_key_a_dialog_takes_is_shown_on_it(name: str, size: tuple[int, int]) -> None:
    dialog = DIALOGS[name]()
    app = Host(dialog)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.screen is dialog
        shown = shown_keys(visible_text(dialog))
        hidden = [
            f"{found.id}: {keys.display(key)}"
            for found in keys.bound(dialog)
            for key in found.keys
            if key not in MOVING and keys.display(key) not in shown
        ]
        assert not hidden, f"{name} takes keys it does not show: {hidden}"


async def test_the_confirm_buttons_say_their_keys() -> None:
    dialog = ConfirmScreen("Move 2 to the trash?", ["a.md"], "Move to trash", danger=True)
    app = Host(dialog)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        labels = [str(button.label) for button in dialog.query("Button")]
        assert labels == ["[Esc/n] Cancel", "[y] Move to trash"]

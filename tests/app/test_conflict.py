"""The write-conflict dialog: each key and button dismisses with its choice; cancel is focused."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from textual.app import App
from textual.widgets import Button, Static

from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.ui.screens.conflict import (
    CANCEL,
    OVERWRITE,
    RELOAD,
    ConflictScreen,
    sets_mine_on_theirs,
)

PATH = ".ai/short-term-memory/.ai/2026-06-10-[bold]x[/].md"


def plain(renderable: object) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


class ConflictApp(App[None]):
    def __init__(self, plan: Plan | None = None) -> None:
        super().__init__()
        self.results: list[str] = []
        self.plan = plan

    def on_mount(self) -> None:
        detail = ["Changed on disk at 14:02 by another program", "[/] stays literal"]
        self.push_screen(ConflictScreen(PATH, detail, self.plan), self.results.append)


@pytest.mark.parametrize(
    ("key", "result"), [("r", RELOAD), ("k", OVERWRITE), ("escape", CANCEL), ("enter", CANCEL)]
)
async def test_each_key_dismisses_with_its_choice(key: str, result: str) -> None:
    app = ConflictApp()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        assert app.results == [result]
        assert not isinstance(app.screen, ConflictScreen)


@pytest.mark.parametrize("button", [RELOAD, OVERWRITE, CANCEL])
async def test_each_button_dismisses_with_its_choice(button: str) -> None:
    app = ConflictApp()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        await pilot.click(f"#{button}")
        await pilot.pause()
        assert app.results == [button]


async def test_cancel_is_focused_and_arrows_move_between_buttons() -> None:
    app = ConflictApp()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == CANCEL
        await pilot.press("left")
        assert app.focused.id == OVERWRITE
        await pilot.press("left", "left")
        assert app.focused.id == CANCEL
        await pilot.press("right")
        assert app.focused.id == RELOAD
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [RELOAD]


async def test_the_dialog_names_the_file_and_every_choice_literally() -> None:
    app = ConflictApp()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        text = "\n".join(plain(static.content) for static in app.screen.query(Static))
        assert f"Changed on disk: {PATH}" in text
        assert "[/] stays literal" in text
        assert "Reload theirs" in text and "Set mine on theirs" in text and "Cancel" in text
        # What k does is what the change does over their version: only its keys are set.
        assert "set the keys you changed on their version; the rest of theirs stays" in text
        assert "over theirs" not in text
        labels = [str(button.label) for button in app.screen.query(Button)]
        assert labels == ["[r] Reload theirs", "[k] Set mine on theirs", "[Esc] Cancel"]


async def test_an_undo_over_their_version_says_it_replaces_theirs() -> None:
    undo = Plan("undo x", (Operation("write", "x.md", data=b"old", expected="abc"),))
    app = ConflictApp(undo)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        text = "\n".join(plain(static.content) for static in app.screen.query(Static))
        assert "Write mine over theirs" in text
        assert "replace their version with yours (u puts their version back)" in text
        labels = [str(button.label) for button in app.screen.query(Button)]
        assert labels == ["[r] Reload theirs", "[k] Write mine over theirs", "[Esc] Cancel"]


def test_keep_mine_is_named_for_what_the_plan_does() -> None:
    edit = Operation("edit", "x.md", values={"critical": True})
    assert sets_mine_on_theirs(Plan("x: marked critical", (edit,)))
    write = Operation("write", "x.md", data=b"", expected="abc")
    assert not sets_mine_on_theirs(Plan("undo", (edit, write)))


async def test_the_binding_ids_are_stable() -> None:
    ids = {binding.id for binding in ConflictScreen.BINDINGS}
    assert {"conflict.reload", "conflict.keep_mine", "conflict.cancel"} <= ids

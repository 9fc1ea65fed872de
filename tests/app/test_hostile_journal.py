"""A journal shipped inside a tree is someone else's data: the app's start-up shows the refusal
of a crafted journal, and none of its keys changes anything. For an interrupted change, the
start-up dialog lists what each choice would touch before its buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.core.writing import journal
from samantha_tui.core.writing.recovery import preview
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.recover import PREVIEW_LINES, RecoverScreen
from samantha_tui.ui.screens.refused_journal import RefusedJournalScreen

from ..conftest import TODAY
from ..crafted_journals import CASES, tree, world
from ..interrupted_batch import batch, crash_after, root, store_of
from ..pilot import settle

__all__ = ["root", "tree"]  # the fixtures, from interrupted_batch.py and crafted_journals.py


async def test_the_app_shows_the_refusal_and_its_keys_change_nothing(tree: Path) -> None:
    CASES["rollback of an edit writes .git/config"][0](tree)
    untouched = world(tree)
    app = SamanthaApp(tree, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, RefusedJournalScreen)
        shown = " ".join(str(s.render()) for s in app.screen.query("Static"))
        assert "cannot be recovered" in shown and ".git/config" in shown
        for key in ("r", "f", "enter"):
            await pilot.press(key)
            await settle(pilot)
        assert not isinstance(app.screen, (RefusedJournalScreen, RecoverScreen))
        for key in ("r", "f"):
            await pilot.press(key)
            await settle(pilot)
    assert world(tree) == untouched


# --- what recovery would touch ------------------------------------------------------------------


async def test_the_start_up_dialog_lists_them_before_its_buttons(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_of(root)
    crash_after(monkeypatch, store, batch(store), 3)
    found = journal.pending(root)
    assert found is not None
    shown = preview(store_of(root), found)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, RecoverScreen)
        text = " ".join(str(s.render()) for s in app.screen.query("Static"))
        assert "Finish would:" in text and "Roll back would:" in text
        for line in shown.finish[:PREVIEW_LINES] + shown.rollback:
            assert line in text
        assert f"and {len(shown.finish) - PREVIEW_LINES} more" in text

"""The app's start-up question about an interrupted batch: later touches nothing, and finishing or
rolling back from it leaves exactly the after or the before tree."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from samantha_tui.core.writing import journal
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.recover import LATER, RecoverScreen

from ..conftest import TODAY
from ..interrupted_batch import (
    KEEP,
    batch,
    crash_after,
    everything,
    root,
    snapshot,
    states,
    store_of,
)
from ..pilot import settle

__all__ = ["root", "states"]  # the fixtures, from interrupted_batch.py


# --- the app's start-up question ----------------------------------------------------------------


async def test_the_app_asks_and_later_touches_nothing_then_finish_and_roll_back(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    states: tuple[dict[str, bytes], dict[str, bytes]],
) -> None:
    before, after = states
    store = store_of(root)
    crash_after(monkeypatch, store, batch(store), 3)
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    untouched = everything(root)

    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, RecoverScreen)
        shown = " ".join(str(s.render()) for s in app.screen.query("Static"))
        assert "An earlier change was interrupted" in shown and "3 of 7 steps done" in shown
        assert app.screen.focused is not None and app.screen.focused.id == LATER
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, RecoverScreen)
        app.toggle_critical_of(KEEP)
        await settle(pilot)
        assert any("interrupted" in n.message for n in app._notifications)
    assert everything(root) == untouched

    for where, key, expected in ((copy, "f", after), (root, "r", before)):
        app = SamanthaApp(where, lambda: TODAY)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press(key)
            await settle(pilot)
            assert journal.pending(where) is None
            assert app.memory_tree is not None
            # The app read the tree again once it was recovered.
            assert app.memory_tree.memories == store_of(where).tree.memories
        assert snapshot(where) == expected

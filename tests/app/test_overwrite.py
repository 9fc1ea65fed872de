"""Writing mine over theirs from the app: after a conflicting undo, `k` writes mine over their
version once, and their version stays one undo away."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.conflict import ConflictScreen
from tests.conftest import TODAY, make_tree

from ..pilot import ALPHA, memory, reindexed, settle


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return reindexed(make_tree(tmp_path / "cerebrum", {ALPHA: memory("Alpha rule")}))


async def test_in_the_app_u_then_k_writes_mine_over_theirs_once(root: Path) -> None:
    original = (root / ALPHA).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        theirs = (root / ALPHA).read_bytes().replace(b"Body of", b"Edited elsewhere:")
        (root / ALPHA).write_bytes(theirs)
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        assert app.screen.keep_label == "Write mine over theirs"
        await pilot.press("k")
        await settle(pilot)
        assert not isinstance(app.screen, ConflictScreen), "the retry conflicted again"
        assert (root / ALPHA).read_bytes() == original
        notices = [n.message for n in app._notifications]
        assert any("undone over their version" in m for m in notices)
        await pilot.press("u")  # their version is one undo away
        await settle(pilot)
        assert (root / ALPHA).read_bytes() == theirs

"""The app on odd trees: it opens on a tree without kind folders, and reports an index.json that
is not JSON, rewriting it only when the person asks."""

from __future__ import annotations

import json
from pathlib import Path

from samantha_tui.ui.app import SamanthaApp

from ..broken_index import BROKEN, broken
from ..conftest import ST, TODAY
from ..pilot import settle

__all__ = ["broken"]  # the fixture, from broken_index.py


# --- a tree of no memories -----------------------------------------------------------------------


async def test_the_app_opens_on_a_tree_without_kind_folders(tmp_path: Path) -> None:
    root = tmp_path / "cerebrum"
    (root / ".ai").mkdir(parents=True)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.is_running and len(app.table.rows) == 0
        assert "no memories yet" in app.table.empty_message
        await pilot.press("2", "7", "r")
        await settle(pilot)
        assert app.is_running
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == [".ai"]


# --- an index.json that is not JSON --------------------------------------------------------------


async def test_the_app_reports_a_broken_index_and_rewrites_it_only_on_r(broken: Path) -> None:
    app = SamanthaApp(broken, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert (broken / ST / "index.json").read_text() == BROKEN
        assert "to update (r)" in str(app.status_line.content)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert json.loads((broken / ST / "index.json").read_text())["total_memories"] == 1
        assert app.is_running

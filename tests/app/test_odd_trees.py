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


# --- warnings and no errors ----------------------------------------------------------------------


async def test_the_status_line_says_nothing_of_problems_when_none_is_an_error(
    tmp_path: Path,
) -> None:
    """The Problems tab counts the warnings; the status line counts only errors, and with none
    it says nothing rather than "0 problems" beside a tab that lists some."""
    from ..conftest import make_tree
    from ..pilot import reindexed

    # A type the format does not name: a warning, not an error.
    text = "---\ndate: 2026-06-01\ntopics: [ci]\ntype: weird\n---\n\n# Odd type\n\nA note.\n"
    root = reindexed(make_tree(tmp_path / "cerebrum", {f"{ST}/2026-06-01_a.md": text}))
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert app.memory_tree is not None and app.memory_tree.all_problems
        said = str(app.status_line.content)
        assert "problem" not in said, said

    broken = reindexed(
        make_tree(tmp_path / "other", {f"{ST}/2026-06-01_b.md": "---\ndate: [\n---\n# B\n"})
    )
    app = SamanthaApp(broken, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert "problems to fix" in str(app.status_line.content)

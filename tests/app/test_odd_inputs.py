"""The app on odd things trees from elsewhere hold: it deletes a project holding a named pipe,
starts on JSON nested a thousand deep, and leaves a broken index as it was through a change."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.core.writing import edits
from samantha_tui.core.writing.edits import toggle_critical
from samantha_tui.core.writing.trash import listing
from samantha_tui.ui.app import SamanthaApp

from ..conftest import ST, TASKS, TODAY, make_tree
from ..odd_inputs import BROKEN, DEEP, OFTEN, deep, piped, store_over
from ..pilot import settle

__all__ = ["deep", "piped"]  # the fixtures, from odd_inputs.py


# --- named pipes ---------------------------------------------------------------------------------


async def test_the_app_deletes_a_project_holding_a_pipe_and_quits(piped: Path) -> None:
    app = SamanthaApp(piped, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.change(lambda: edits.delete([app.curator.get(f"{TASKS}/proj/status.md")]))
        await settle(pilot)
        assert not (piped / TASKS / "proj").exists()
        assert len(listing(piped).entries) == 1
        await pilot.press("q")
    assert not app.is_running


# --- JSON nested too deep ------------------------------------------------------------------------


async def test_the_app_starts_on_deep_json(deep: Path) -> None:
    app = SamanthaApp(deep, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert app.is_running
        assert (deep / ST / "index.json").read_text() == DEEP


# --- a broken index is never rewritten by a change -----------------------------------------------


@pytest.mark.parametrize("name", ["deep", "list"])
async def test_a_broken_index_is_kept_by_an_app_change(tmp_path: Path, name: str) -> None:
    raw = BROKEN[name]
    root = make_tree(tmp_path / "cerebrum", {f"{ST}/a.md": OFTEN, f"{ST}/index.json": raw})
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.change(lambda: toggle_critical(app.curator.get(f"{ST}/a.md")))
        await settle(pilot)
        assert store_over(root).get(f"{ST}/a.md").critical is True
        assert (root / ST / "index.json").read_bytes() == raw

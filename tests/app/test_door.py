"""The one door, from the running app: `c` in the app and `set` from the command line leave the
very same bytes on disk."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.ui.app import SamanthaApp

from ..conftest import TODAY
from ..interrupted_batch import KEEP, root, snapshot
from ..pilot import settle

__all__ = ["root"]  # the fixture, from interrupted_batch.py


async def test_c_in_the_app_and_set_from_the_cli_leave_the_same_bytes(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli_tree = tmp_path / "cli"
    shutil.copytree(root, cli_tree)
    # The app's `c` leaves `updated:` alone, as --keep-updated does.
    marked = ["set", "--keep-updated", "--tree", str(cli_tree), str(cli_tree / KEEP)]
    assert main([*marked, "critical=true"]) == 0
    capsys.readouterr()

    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.table.select_key(KEEP)
        await settle(pilot)
        assert app.table.selected_key == KEEP
        await pilot.press("c")
        await settle(pilot)
    assert b"critical: true" in (root / KEEP).read_bytes()
    assert snapshot(root) == snapshot(cli_tree)

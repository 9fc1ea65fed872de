"""Every file samantha-llm's search reads is visible in the app: a project's files at any depth in
its preview, named before a delete, and hidden files and `.archive/` among the problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen

from ..conftest import ST, TASKS, TODAY, make_tree
from ..gateway_project import ALSO_GOES, GATEWAY, NOTE
from ..pilot import settle
from .test_app import static_text


@pytest.fixture
def gateway_root(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "t", {**GATEWAY, f"{ST}/.archive/2025-01-01_old.md": NOTE})


async def test_the_app_shows_them_and_names_them_before_a_delete(gateway_root: Path) -> None:
    app = SamanthaApp(gateway_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("3")  # tasks
        await settle(pilot)
        assert app.selected_memory().path == f"{TASKS}/gateway/status.md"
        fields = static_text(app, "#preview-fields")
        assert "docs/api/v2.md, docs/design.md, notes.md" in fields

        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert ALSO_GOES in dialog._lines
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("7")  # problems
        await settle(pilot)
        keys = [row.key.split("#")[0] for row in app.table.rows]
        assert f"{TASKS}/gateway/.scratch.md" in keys
        assert f"{ST}/.archive/2025-01-01_old.md" in keys

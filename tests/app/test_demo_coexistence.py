"""The bundled demo holds a session samantha-llm's worker finalized and marked complete, its
memories already copied into short-term memory: the app warns that deleting one of them does not
last, since the session's merge copies it again."""

from __future__ import annotations

from pathlib import Path

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen

from ..conftest import ST, TODAY
from ..demo_session import SID
from ..pilot import settle

SLIDING = f"{ST}/2026-06-14_sliding_window_lua.md"


# --- 2. the staged session, finalized -------------------------------------------------------


async def test_deleting_a_finalized_memory_warns_it_comes_back(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.table.select_key(SLIDING)
        await settle(pilot)
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert (
            f"2026-06-14_sliding_window_lua.md will come back: session {SID} is complete and not"
            " merged yet; its merge copies it again."
        ) in dialog._lines

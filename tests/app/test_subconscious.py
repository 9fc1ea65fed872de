"""Sessions awaiting `samantha-llm subconscious merge`, in the app: the delete confirmation names
the session that writes the memory again, and the review's sessions tab explains the merge."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from textual.widgets import Static

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen

from ..awaiting_merge import SID, WANTED, X, finalized
from ..conftest import TODAY
from ..pilot import settle
from .test_review_screen import open_review, show


async def test_the_delete_confirmation_names_the_session(tmp_path: Path) -> None:
    store = finalized(tmp_path)
    app = SamanthaApp(store.root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.table.select_key(X)
        await settle(pilot)
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert WANTED + "." in dialog._lines


async def test_the_sessions_tab_explains_the_merge(tmp_path: Path) -> None:
    store = finalized(tmp_path)
    app = SamanthaApp(store.root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        await show(pilot, screen, "sessions")
        console = Console(width=300, record=True, file=io.StringIO())
        console.print(screen.query_one("#review-note", Static).content)
        text = console.export_text()
        assert "What samantha-llm subconscious merge will do" in text
        assert f"the merge adds a second copy, 2026-11-28_x_{SID}.md." in text
        assert "the merge copies it in as 2026-11-28_z.md." in text

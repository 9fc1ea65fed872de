"""A pending project update on the review screen: the confidence the update was proposed with, in
words, and what it changes, a null it proposes left as it is."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from textual.widgets import Static

from samantha_tui.ui.app import SamanthaApp

from ..conftest import TODAY
from ..pending_updates import index_data, samantha_llm_index, store_with, update
from .test_review_screen import open_review, show


async def test_the_review_screen_shows_the_confidence_word_and_the_summary(
    tmp_path: Path,
) -> None:
    store = store_with(
        tmp_path,
        samantha_llm_index(index_data()),
        {
            "20260614_165930_gateway.json": update(
                "gateway", {"summary": "New", "status": None}, "low"
            )
        },
    )
    app = SamanthaApp(store.root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        await show(pilot, screen, "updates")
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(screen.query_one("#review-note", Static).content)
        note = console.export_text()
        assert "From the session of 2026-06-14, confidence low" in note
        assert "summary" in note and "New" in note
        assert "status\n  left as it is: the update proposes null" in note

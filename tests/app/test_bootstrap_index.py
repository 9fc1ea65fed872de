"""The bootstrap screen shows a project known only from an index.json the assistant reads, and
says where that index and the memory files disagree."""

from __future__ import annotations

from ..bootstrap_indexes import tasks_index
from ..conftest import TASKS, TODAY

# --- what the preview and the export show --------------------------------------------------------


async def test_the_preview_shows_an_index_only_project_and_a_detail_line(tree) -> None:
    from textual.widgets import Static

    from samantha_tui.ui.app import SamanthaApp

    from .test_bootstrap_screen import SIZE, open_screen, settle

    store = tree(
        tasks_index({"name": "Data Lake", "status": "Phase [b]1[/b]", "summary": "Parquet"})
    )
    app = SamanthaApp(store.root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        ghost = f"{TASKS}/Data Lake/status.md"
        assert screen.table.select_key(ghost)
        await settle(pilot)
        why = str(screen.query_one("#bootstrap-why", Static).render())
        assert "no file, known from index.json; 0 in all so far" in why
        assert "≠ in index.json's active list with no folder in current tasks" in why
        head = str(screen.query_one("#preview-fields", Static).render())
        assert head.startswith("Status: Phase [b]1[/b]\n\nParquet")
        keys = [row.key for row in screen.table.rows]
        detail = keys[keys.index(ghost) + 1]
        assert detail.startswith("#disagreement:")
        screen.table.select_key(detail)
        await settle(pilot)
        text = " ".join(str(screen.query_one("#preview-fields", Static).render()).split())
        assert "knows this project only from the index entry" in text
        assert "The assistant loads from the index.json files" in text

"""The benchmark's floor app: the rows it draws are on its first frame.

Nothing here times anything: the figures themselves belong to `make bench`.
"""

from __future__ import annotations

from bench.floor_app import MARKER, ROWS, FloorApp


async def test_the_floor_app_shows_its_rows_on_its_first_frame() -> None:
    from textual.widgets import DataTable

    app = FloorApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = app.query_one(DataTable)
        assert table.row_count == ROWS
        assert table.get_row_at(0)[1] == f"{MARKER} 0"
        await pilot.press("q")
    assert app.return_code == 0

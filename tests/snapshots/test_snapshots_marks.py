"""Snapshots of marks: marked rows with the count in the status line, and the bulk edit form,
at 120x36 and 80x24 on the demo tree (fixtures and helpers from test_snapshots)."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.bulk_form import BulkForm

from .test_snapshots import demo_app, settle  # noqa: F401 (fixture)

SIZES = [(120, 36), (80, 24)]


@pytest.mark.parametrize("size", SIZES, ids=["120x36", "80x24"])
def test_marked_rows_with_the_count(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def mark_three(pilot) -> None:
        await settle(pilot)
        await pilot.press("space", "down", "space", "space")
        await settle(pilot)
        assert len(pilot.app.table.marks) == 3

    assert snap_compare(demo_app, terminal_size=size, run_before=mark_three)


@pytest.mark.parametrize("size", SIZES, ids=["120x36", "80x24"])
def test_bulk_form_with_a_preview(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def bulk_form(pilot) -> None:
        await settle(pilot)
        await pilot.press("space", "space", "space", "e")
        await pilot.pause()
        form = pilot.app.screen
        assert isinstance(form, BulkForm)
        form.query_one("#bulk-importance", Select).value = "high"
        form.query_one("#bulk-topics-add", Input).value = "release"
        await pilot.pause()
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(demo_app, terminal_size=size, run_before=bulk_form)

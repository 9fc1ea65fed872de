"""Snapshots of sorting on the demo tree: a list sorted by a column with its ▲ header, and the S
chooser, each at 120x36 and 80x24."""

from __future__ import annotations

import pytest

from samantha_tui.ui.app import SamanthaApp

from .test_snapshots import demo_app, settle  # noqa: F401  (demo_app is a fixture)

SIZES = [(120, 36), (80, 24)]


@pytest.mark.parametrize("size", SIZES, ids=["120x36", "80x24"])
def test_sorted_by_title_ascending(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def sort_by_title(pilot) -> None:
        await settle(pilot)
        header = pilot.app.table._header(pilot.app.table.scrollable_content_region.width).plain
        await pilot.click("#memories", offset=(header.index("Title"), 0))
        await settle(pilot)
        assert "▲Title" in pilot.app.table._header(100).plain

    assert snap_compare(demo_app, terminal_size=size, run_before=sort_by_title)


@pytest.mark.parametrize("size", SIZES, ids=["120x36", "80x24"])
def test_the_sort_chooser(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def open_chooser(pilot) -> None:
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)

    assert snap_compare(demo_app, terminal_size=size, run_before=open_chooser)

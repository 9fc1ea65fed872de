"""Snapshots of the screens opened over the list: the bootstrap preview, the review, the stats
and the trash (their behaviour is tested beside them, in tests/app/)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from samantha_tui.core.writing import trash
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.trash import TrashScreen

from ..app.test_bootstrap_screen import open_screen
from ..app.test_review_screen import open_review
from ..app.test_stats_screen import open_stats
from ..conftest import ST, TASKS, TODAY
from ..pilot import reindexed, settle


@pytest.fixture
def reindexed_demo(demo_root: Path) -> Path:
    """The demo with its indexes regenerated."""
    return reindexed(demo_root)


def test_the_bootstrap_preview(snap_compare, reindexed_demo: Path) -> None:
    app = SamanthaApp(reindexed_demo, lambda: TODAY)

    async def open_it(pilot) -> None:
        await open_screen(pilot)
        await pilot.pause(0.05)

    assert snap_compare(app, terminal_size=(120, 34), run_before=open_it)


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_the_bootstrap_preview_shares_its_width(
    snap_compare, reindexed_demo: Path, size: tuple[int, int]
) -> None:
    """80x24: the side panel under the list, Why kept; 200x60: Why as wide as its notes."""
    app = SamanthaApp(reindexed_demo, lambda: TODAY)

    async def open_it(pilot) -> None:
        await open_screen(pilot)
        await pilot.pause(0.05)

    assert snap_compare(app, terminal_size=size, run_before=open_it)


def test_the_review_promoting_with_a_mark(snap_compare, reindexed_demo: Path) -> None:
    app = SamanthaApp(reindexed_demo, lambda: TODAY)

    async def review(pilot) -> None:
        await open_review(pilot)
        await pilot.press("right", "space")
        await settle(pilot)
        await pilot.pause(0.05)

    assert snap_compare(app, terminal_size=(120, 34), run_before=review)


def test_the_stats_screen(snap_compare, demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)

    async def open_it(pilot) -> None:
        await open_stats(pilot)
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(app, terminal_size=(120, 34), run_before=open_it)


def test_the_trash_screen(snap_compare, demo_root: Path) -> None:
    trash.put(
        demo_root, f"{ST}/2026-06-11_rich_markup_escaping.md", dt.datetime(2026, 6, 14, 9, 30)
    )
    trash.put(demo_root, f"{TASKS}/billing-export", dt.datetime(2026, 6, 15, 8, 5))
    app = SamanthaApp(demo_root, lambda: TODAY)

    async def open_it(pilot) -> None:
        await settle(pilot)
        pilot.app.push_screen(TrashScreen())
        await settle(pilot)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause(0.05)

    assert snap_compare(app, terminal_size=(120, 34), run_before=open_it)

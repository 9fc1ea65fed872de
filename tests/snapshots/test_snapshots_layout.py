"""Snapshots of the layout across terminal sizes: the main screen at 80x24, 120x36 and 240x70,
the duplicates diff and the conflict dialog at 120x36 and 80x24."""

from __future__ import annotations

import pytest
from textual.widgets import Tabs

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.batch_confirm import BatchConfirmScreen
from samantha_tui.ui.screens.review import ReviewScreen

from ..pilot import until
from .test_snapshots import demo_app, settle  # noqa: F401  (demo_app is a fixture)

SIZES = [(80, 24), (120, 36), (240, 70)]
DIALOG_SIZES = [(120, 36), (80, 24)]


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_main_screen(snap_compare, demo_app: SamanthaApp, size: tuple[int, int]) -> None:  # noqa: F811
    assert snap_compare(demo_app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", DIALOG_SIZES, ids=size_id)
def test_duplicates_diff(snap_compare, demo_app: SamanthaApp, size: tuple[int, int]) -> None:  # noqa: F811
    async def duplicates(pilot) -> None:
        await settle(pilot)
        screen = ReviewScreen()
        pilot.app.push_screen(screen)
        await settle(pilot)
        screen.query_one("#review-tabs", Tabs).active = "review-tab-dedupe"
        await settle(pilot)
        assert screen.query_one("#review-diff").display

    assert snap_compare(demo_app, terminal_size=size, run_before=duplicates)


@pytest.mark.parametrize("size", DIALOG_SIZES, ids=size_id)
def test_conflict_dialog(snap_compare, demo_app: SamanthaApp, size: tuple[int, int]) -> None:  # noqa: F811
    async def conflict(pilot) -> None:
        await settle(pilot)
        path = pilot.app.store.root / pilot.app.table.selected_key
        path.write_bytes(path.read_bytes() + b"\nAdded by another program.\n")
        await pilot.press("c")
        await settle(pilot)

    assert snap_compare(demo_app, terminal_size=size, run_before=conflict)


@pytest.mark.parametrize("size", DIALOG_SIZES, ids=size_id)
def test_batch_dialog_with_a_long_batch(
    snap_compare,
    demo_app: SamanthaApp,  # noqa: F811
    size: tuple[int, int],
) -> None:
    """Every prune, promotion and escalation: the plan scrolls, the buttons stay in view."""

    async def long_batch(pilot) -> None:
        await settle(pilot)
        pilot.app.push_screen(ReviewScreen())
        await settle(pilot)
        await pilot.press("a", "right", "a", "right", "a", "enter")
        assert await until(pilot, lambda: isinstance(pilot.app.screen, BatchConfirmScreen))
        await settle(pilot)

    assert snap_compare(demo_app, terminal_size=size, run_before=long_batch)


def test_review_tabs_at_80x24(snap_compare, demo_app: SamanthaApp) -> None:  # noqa: F811
    """All ten sections in view, their counts on the line above the list."""

    async def review(pilot) -> None:
        await settle(pilot)
        pilot.app.push_screen(ReviewScreen())
        await settle(pilot)
        await pilot.press("space")
        await settle(pilot)

    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=review)

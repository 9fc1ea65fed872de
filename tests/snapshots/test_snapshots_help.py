"""Snapshots of help on the main list and on the review screen, and of the drift panel."""

from __future__ import annotations

import pytest

from samantha_tui.ui.app import SamanthaApp

from .test_snapshots import demo_app, settle  # noqa: F401  (demo_app is a fixture)

SIZES = [(120, 36), (80, 24)]


async def quiet_settle(pilot) -> None:
    """Settled, with no toast left to be caught mid-fade."""
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_help_on_the_main_list(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    assert snap_compare(
        demo_app, press=["question_mark"], terminal_size=size, run_before=quiet_settle
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_help_on_the_review_screen(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def open_review(pilot) -> None:
        await quiet_settle(pilot)
        await pilot.press("p")
        await quiet_settle(pilot)

    assert snap_compare(demo_app, press=["f1"], terminal_size=size, run_before=open_review)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_drift_panel(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def drift(pilot) -> None:
        await quiet_settle(pilot)
        await pilot.press("i")
        await quiet_settle(pilot)

    assert snap_compare(demo_app, terminal_size=size, run_before=drift)

"""Snapshots of the progress line mid-work, at 120x36 and 80x24: a big batch on the main list and
on the trash screen. The work is an injected report from long ago, so no timing decides what is
drawn."""

from __future__ import annotations

import time

import pytest

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.messages import WorkProgress

from .test_snapshots import demo_app, settle  # noqa: F401 (demo_app is a fixture)

SIZES = [(120, 36), (80, 24)]


async def mid_batch(pilot) -> None:
    """A prune of 375 running for a while: 120 steps done."""
    await settle(pilot)
    app: SamanthaApp = pilot.app
    # Started ten seconds ago on the monotonic clock: well past the half second, every run.
    started = time.monotonic() - 10.0
    app.post_message(WorkProgress(1, started, 120, 375, "Moving {count} to the trash"))
    await pilot.pause()
    await pilot.pause(0.05)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_progress_mid_batch(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    assert snap_compare(demo_app, terminal_size=size, run_before=mid_batch)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_progress_on_the_trash_screen(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def on_trash(pilot) -> None:
        await settle(pilot)
        pilot.app.action_open_screen("trash")
        await settle(pilot)
        await mid_batch(pilot)

    assert snap_compare(demo_app, terminal_size=size, run_before=on_trash)

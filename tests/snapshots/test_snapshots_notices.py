"""Snapshots of the notices log (`N`) at two sizes, on a fixed clock, with no toast on screen."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from samantha_tui.ui import notices
from samantha_tui.ui.app import SamanthaApp

from .test_snapshots import demo_app, settle  # noqa: F401  (demo_app is a fixture)

SIZES = [(120, 36), (80, 24)]


async def with_notices(pilot) -> None:
    """A known log: a repeat counted, a warning, an error naming a markup-looking file."""
    await settle(pilot)
    app = pilot.app
    minutes = itertools.count()
    app.notices.log = notices.NoticeLog(
        lambda: dt.datetime(2026, 6, 15, 9, 30) + dt.timedelta(minutes=next(minutes))
    )
    app.notify("Reading the tree again", timeout=2)
    for _ in range(3):
        app.notify("2026-06-10_alpha_rule.md: marked critical · index updated", kind="critical")
    app.notify(
        "2 memories have no topics; the Problems tab (7) lists them",
        title="Problems",
        severity="warning",
    )
    app.notify(
        ".ai/short-term-memory/.ai/2026-06-10-[bold]x[/].md changed on disk since it was read; "
        "nothing was written. Reload it and try again.",
        title="Nothing was written",
        severity="error",
    )
    await pilot.pause()
    app.clear_notifications()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_notices_log(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    assert snap_compare(demo_app, press=["N"], terminal_size=size, run_before=with_notices)

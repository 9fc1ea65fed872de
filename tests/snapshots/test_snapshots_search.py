"""Snapshots of a search across every tab: counts on the labels, and a tab without a match."""

from __future__ import annotations

import pytest

from samantha_tui.ui.app import SamanthaApp

from . import test_snapshots as base

demo_app = base.demo_app
"""The demo tree's app at the snapshots' fixed date and home (a fixture)."""

SIZES = [(120, 36), (80, 24)]


def searched(*keys: str):
    async def run(pilot) -> None:
        await base.settle(pilot)
        await pilot.press(*keys)
        await base.settle(pilot)
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_counts_on_every_tab_while_searching(snap_compare, demo_app: SamanthaApp, size) -> None:
    assert snap_compare(demo_app, terminal_size=size, run_before=searched("slash", *"gateway"))


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_tab_without_a_match_says_where_they_are(
    snap_compare, demo_app: SamanthaApp, size
) -> None:
    keys = ("2", "slash", *"runbook")
    assert snap_compare(demo_app, terminal_size=size, run_before=searched(*keys))


def test_a_query_that_cannot_be_read_says_why_in_full_at_80x24(
    snap_compare, demo_app: SamanthaApp
) -> None:
    keys = ("slash", *"gateway foo:bar")
    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=searched(*keys))

"""Snapshots of the browser on the demo tree at a fixed date and size (SVGs in __snapshots__)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from samantha_tui.ui.app import SamanthaApp

from ..conftest import TODAY, make_tree
from ..pilot import settle as settled

SIZE = (120, 34)


async def settle(pilot) -> None:
    """Settled (tests/pilot.py), the scan landed and the preview drawn."""
    app = pilot.app
    await settled(pilot)
    while app.memory_tree is None:
        await pilot.pause(0.01)
    await pilot.wait_for_scheduled_animations()
    # The preview's Markdown mounts in an async handler: give it a moment past the idle point.
    await pilot.pause(0.05)


@pytest.fixture
def demo_app(demo_root: Path) -> SamanthaApp:
    """The demo's app; what a snapshot must not depend on is fixed in conftest."""
    return SamanthaApp(demo_root, lambda: TODAY)


@pytest.mark.parametrize("key", list("1234567"))
def test_each_tab(snap_compare, demo_app: SamanthaApp, key: str) -> None:
    assert snap_compare(demo_app, press=[key], terminal_size=SIZE, run_before=settle)


def test_markup_looking_title(snap_compare, demo_app: SamanthaApp) -> None:
    async def select_markup_title(pilot) -> None:
        await settle(pilot)
        table = pilot.app.table
        target = next(i for i, r in enumerate(table.rows) if "[bold]" in r.cells[1].plain)
        await pilot.press(*["down"] * target)
        await settle(pilot)
        assert "[bold]" in table.rows[table.cursor].cells[1].plain

    assert snap_compare(demo_app, terminal_size=SIZE, run_before=select_markup_title)


def test_help(snap_compare, demo_app: SamanthaApp) -> None:
    assert snap_compare(demo_app, press=["question_mark"], terminal_size=SIZE, run_before=settle)


def test_empty_tree(snap_compare, tmp_path: Path) -> None:
    root = make_tree(tmp_path / "empty", {})
    app = SamanthaApp(root, lambda: TODAY)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_search_with_highlights(snap_compare, demo_app: SamanthaApp) -> None:
    async def search(pilot) -> None:
        await settle(pilot)
        await pilot.press("slash", *"gateway")
        await settle(pilot)
        await pilot.pause()
        assert pilot.app.table.rows

    assert snap_compare(demo_app, terminal_size=SIZE, run_before=search)


def test_form_with_an_error(snap_compare, demo_app: SamanthaApp) -> None:
    async def bad_date(pilot) -> None:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        date = pilot.app.screen.query_one("#field-date", Input)
        date.focus()
        date.value = "2026-02-30"
        await pilot.pause()
        await pilot.press("ctrl+s")  # refused: the form stays, naming the field
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(demo_app, terminal_size=SIZE, run_before=bad_date)


def test_delete_confirmation(snap_compare, demo_app: SamanthaApp) -> None:
    async def ask(pilot) -> None:
        await settle(pilot)
        await pilot.press("space", "space", "d")
        await pilot.pause()

    assert snap_compare(demo_app, terminal_size=SIZE, run_before=ask)


def test_conflict_dialog(snap_compare, demo_app: SamanthaApp) -> None:
    async def conflict(pilot) -> None:
        await settle(pilot)
        path = pilot.app.store.root / pilot.app.table.selected_key
        path.write_bytes(path.read_bytes() + b"\nAdded by another program.\n")
        await pilot.press("c")
        await settle(pilot)

    assert snap_compare(demo_app, terminal_size=SIZE, run_before=conflict)


def test_smallest_terminal(snap_compare, demo_app: SamanthaApp) -> None:
    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=settle)


def test_delete_confirmation_at_80x24(snap_compare, demo_app: SamanthaApp) -> None:
    """Every key the dialog takes is on its buttons: `[Esc/n] Cancel`, `[y] Move to trash`."""

    async def ask(pilot) -> None:
        await settle(pilot)
        await pilot.press("space", "space", "d")
        await pilot.pause()

    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=ask)

"""Snapshots of the fix plan, the trash's empty question and the form's Title field, at the
usual size and the smallest."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from samantha_tui.core.writing import trash
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.trash import TrashScreen

from ..conftest import ST, TASKS, TODAY
from .test_snapshots import settle

SIZES = [(120, 36), (80, 24)]


def quote_a_date(root: Path) -> str:
    """Write one demo memory's date quoted, a problem `f` fixes; returns its file name."""
    path = next((root / ST).glob("*_dana_prefers_small_prs.md"))
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^date: (\S+)$", r'date: "\1"', text, count=1, flags=re.M), "utf-8")
    return path.name


@pytest.fixture
def app_at_home(demo_root: Path):

    def make() -> SamanthaApp:
        return SamanthaApp(demo_root, lambda: TODAY)

    return make


@pytest.mark.parametrize("size", SIZES)
def test_fix_plan(snap_compare, demo_root: Path, app_at_home, size: tuple[int, int]) -> None:
    name = quote_a_date(demo_root)

    async def ask(pilot) -> None:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        table = pilot.app.table
        key = next(row.key for row in table.rows if name in row.key and "quoted" in str(row.cells))
        assert table.select_key(key)
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(app_at_home(), terminal_size=size, run_before=ask)


@pytest.mark.parametrize("size", SIZES)
def test_trash_empty_question(
    snap_compare, demo_root: Path, app_at_home, size: tuple[int, int]
) -> None:
    markup = next((demo_root / ST).glob("*_rich_markup_escaping.md")).name
    trash.put(demo_root, f"{ST}/{markup}", dt.datetime(2026, 6, 14, 9, 30))
    trash.put(demo_root, f"{TASKS}/billing-export", dt.datetime(2026, 6, 15, 8, 5))

    async def ask(pilot) -> None:
        await settle(pilot)
        pilot.app.push_screen(TrashScreen())
        await settle(pilot)
        await pilot.press("E")
        await settle(pilot)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause(0.05)

    assert snap_compare(app_at_home(), terminal_size=size, run_before=ask)


@pytest.mark.parametrize("size", SIZES)
def test_form_with_the_title_field(snap_compare, app_at_home, size: tuple[int, int]) -> None:
    async def edit(pilot) -> None:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(app_at_home(), terminal_size=size, run_before=edit)

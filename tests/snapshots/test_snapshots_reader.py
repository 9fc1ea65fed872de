"""Snapshots of the reader (Enter) on the demo tree: a memory, and a project with its notes."""

from __future__ import annotations

import pytest

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.reader import ReaderScreen

from .test_snapshots import demo_app, settle  # noqa: F401 (demo_app is a fixture)

SIZES = [(120, 36), (80, 24)]


async def read(pilot, *keys: str) -> None:
    await settle(pilot)
    await pilot.press(*keys, "enter")
    await settle(pilot)
    assert isinstance(pilot.app.screen, ReaderScreen)


@pytest.mark.parametrize("size", SIZES, ids=["120x36", "80x24"])
def test_reader_on_a_memory(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def run_before(pilot) -> None:
        await read(pilot)

    assert snap_compare(demo_app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=["120x36", "80x24"])
def test_reader_on_a_project_with_notes(snap_compare, demo_app: SamanthaApp, size) -> None:  # noqa: F811
    async def run_before(pilot) -> None:
        await read(pilot, "3")
        screen = pilot.app.screen
        assert [note.name for note in screen.notes] == ["notes.md", "decisions.md"]

    assert snap_compare(demo_app, terminal_size=size, run_before=run_before)


def test_reader_at_the_end_of_a_projects_notes(snap_compare, demo_app: SamanthaApp) -> None:  # noqa: F811
    async def run_before(pilot) -> None:
        await read(pilot, "3")
        await pilot.press("end")
        await settle(pilot)

    assert snap_compare(demo_app, terminal_size=(120, 36), run_before=run_before)

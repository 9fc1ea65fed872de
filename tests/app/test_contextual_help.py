"""`?`/F1 shows the help of the screen the person is on: what it is for and the keys that work."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Input, Static

from samantha_tui.settings import Settings
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.rows import MARKERS_HINT
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.screens.memory_form import MemoryForm

from ..conftest import TODAY
from ..pilot import settle

SIZE = (120, 36)


async def open_help(pilot, key: str = "question_mark") -> HelpScreen:
    await pilot.press(key)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, HelpScreen)
    return screen


def rows(help_screen: HelpScreen) -> dict[str, str]:
    """Meaning -> keys of every row shown."""
    return {meaning: keys for keys, meaning in help_screen.listed}


def sections(help_screen: HelpScreen) -> list[str]:
    return [title for title, _ in help_screen.page.sections]


async def test_main_help_keeps_its_sections_names_the_tab_and_explains_the_markers(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        shown = await open_help(pilot)
        assert shown.page.title == "Keys · Tasks tab"
        assert "Active projects" in shown.page.purpose
        assert sections(shown) == ["Find", "Change", "Indexes", "View", "Tabs", "In the list"]
        markers = dict(shown.page.notes)["Markers in the list"]
        assert [marker for marker, _ in markers] == ["★", "!", "·", "▌"]
        assert rows(shown)["Mark or unmark (d deletes every marked one)"] == "Space"
        assert app.table.tooltip == MARKERS_HINT


@pytest.mark.parametrize(
    ("key", "title", "own", "absent"),
    [
        ("p", "Review", {"Esc": "Close", "a": "Mark every candidate of this section"}, "Delete"),
        ("b", "Bootstrap preview", {"x": "Write the plan to a file (Markdown or JSON)"}, "Search"),
        ("t", "Trash", {"r  Enter": "Restore the selected file to where it came from"}, "Edit"),
        ("s", "Stats", {"r": "Regenerate indexes", "Esc": "Close"}, "Critical"),
        ("enter", "Reader", {"n  ]": "Read the next memory of the list"}, "Delete"),
    ],
)
async def test_each_screen_lists_its_own_keys_and_only_the_app_keys_that_work_there(
    demo_root: Path, key: str, title: str, own: dict[str, str], absent: str
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        screen = app.screen
        shown = await open_help(pilot)
        assert shown.page.title == f"Keys · {title}"
        assert shown.page.purpose == type(screen).HELP_PURPOSE
        assert sections(shown) == [title, "Everywhere"]
        mine = dict(shown.page.sections)[title]
        for keys, meaning in own.items():
            assert (keys, meaning) in mine
        everywhere = {meaning for _, meaning in dict(shown.page.sections)["Everywhere"]}
        # Keys that act on the main list's selection are off above it: not offered here.
        assert absent not in everywhere and absent not in {m for _, m in mine}
        assert "Quit" in everywhere
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_a_key_changed_in_the_settings_shows_as_changed_in_every_help(
    demo_root: Path, tmp_path: Path
) -> None:
    settings = Settings(
        path=tmp_path / "config.toml",
        watch=False,
        keys={"view.trash": "T", "index.drift": "I", "list.mark": "m"},
    )
    app = SamanthaApp(demo_root, lambda: TODAY, settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = await open_help(pilot)
        assert rows(shown)["Trash"] == "T"
        # The list's own keys are rebound too, and the help shows the key that works.
        assert rows(shown)["Mark or unmark (d deletes every marked one)"] == "m"
        await pilot.press("escape")
        selected = app.table.selected_key
        await pilot.press("space")
        await pilot.pause()
        assert app.table.marked_keys == []
        await pilot.press("m")
        await pilot.pause()
        assert app.table.marked_keys == [selected]
        await pilot.press("T")
        await settle(pilot)
        shown = await open_help(pilot, "f1")
        assert shown.page.title == "Keys · Trash"
        assert rows(shown)["Index drift"] == "I"
        assert "i" not in {keys for keys, _ in shown.listed}
        await pilot.press("escape")
        await pilot.press("I")  # the key the help shows is the key that works
        await settle(pilot)
        assert type(app.screen).__name__ == "DriftScreen"


async def test_f1_in_the_form_shows_its_help_and_closes_back_to_the_input(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemoryForm)
        topics = form.query_one("#field-topics", Input)
        topics.focus()
        await pilot.press("end", "question_mark")  # `?` types in a field
        await pilot.pause()
        assert topics.value.endswith("?")
        assert app.screen is form
        shown = await open_help(pilot, "f1")
        assert shown.page.title == "Keys · Memory form"
        assert rows(shown)["Save the changes"] == "Ctrl+S"
        everywhere = dict(shown.page.sections)["Everywhere"]
        assert [meaning for _, meaning in everywhere] == ["Quit"]  # the app's keys are off
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is form
        assert topics.value.endswith("?")


async def test_the_bootstrap_help_explains_the_markers_of_its_list(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        shown = await open_help(pilot)
        markers = dict(dict(shown.page.notes)["Markers in the list"])
        assert markers["≠"] == "The index and the file disagree (the preview says where)"
        assert set(markers) == {"✗", "≠", "·"}
        console = Console(width=120, record=True, file=io.StringIO())
        for static in shown.query(Static):
            console.print(static.content)
        text = console.export_text()
        assert "MARKERS IN THE LIST" in text
        assert "≠" in text and "The index and the file disagree" in text

"""Sorting in the app: the S chooser, header clicks, each tab's order, searches, and restarts."""

from __future__ import annotations

import json
import os
from pathlib import Path

from textual.widgets import OptionList, Tabs

from samantha_tui.core.basics.sorting import KEYS, SortField
from samantha_tui.demo import write_demo
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.sort_menu import SortMenu

from ..conftest import TODAY
from ..pilot import settle


def header(app: SamanthaApp) -> str:
    return app.table._header(app.table.scrollable_content_region.width).plain


def column_x(app: SamanthaApp, title: str) -> int:
    """The x of a column's first cell in a row of the list."""
    return header(app).index(title)


def listed(app: SamanthaApp, field: SortField) -> list:
    return [KEYS[field](app.memory_for(row.key)) for row in app.table.rows]


def state(path: Path | None = None) -> dict:
    return json.loads(Path(path or os.environ["SAMANTHA_TUI_STATE"]).read_text("utf-8"))


async def test_s_opens_the_chooser_on_the_current_order_and_picks_another(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert "▼Date" in header(app)  # short-term: newest first
        await pilot.press("S")
        await settle(pilot)
        assert isinstance(app.screen, SortMenu)
        options = app.screen.query_one(OptionList)
        assert options.get_option_at_index(options.highlighted).id == "date"
        # Down to importance (date, updated, title, importance), then Enter.
        await pilot.press("down", "down", "down", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, SortMenu)
        ranks = listed(app, SortField.IMPORTANCE)
        present = [r for r in ranks if r is not None]
        assert present == sorted(present, reverse=True) and len(set(present)) > 1
        assert ranks[: len(present)] == present
        assert "▼Importance" in header(app) and "▼Date" not in header(app)


async def test_the_current_field_again_flips_and_esc_leaves_it(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        newest = listed(app, SortField.DATE)
        await pilot.press("S", "enter")
        await settle(pilot)
        oldest = listed(app, SortField.DATE)
        dated = [d for d in newest if d is not None]
        assert oldest[: len(dated)] == sorted(dated)
        assert "▲Date" in header(app)
        await pilot.press("S", "down", "escape")
        await settle(pilot)
        assert listed(app, SortField.DATE) == oldest


async def test_clicking_a_header_sorts_and_clicking_again_flips(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        x = column_x(app, "Title")
        await pilot.click("#memories", offset=(x, 0))
        await settle(pilot)
        titles = [app.memory_for(r.key).title.casefold() for r in app.table.rows]
        assert titles == sorted(titles)
        assert "▲Title" in header(app)
        await pilot.click("#memories", offset=(x, 0))
        await settle(pilot)
        titles = [app.memory_for(r.key).title.casefold() for r in app.table.rows]
        assert titles == sorted(titles, reverse=True)
        assert "▼Title" in header(app)
        # The marker column sorts nothing: the order stays.
        before = [r.key for r in app.table.rows]
        await pilot.click("#memories", offset=(1, 0))
        await settle(pilot)
        assert [r.key for r in app.table.rows] == before


async def test_each_tab_keeps_its_own_order(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.click("#memories", offset=(column_x(app, "Refs"), 0))
        await settle(pilot)
        short_refs = [r.key for r in app.table.rows]
        await pilot.press("2")
        await settle(pilot)
        long_default = [r.key for r in app.table.rows]
        assert long_default == sorted(long_default)  # long-term: folder order, untouched
        await pilot.press("S", "home", "down", "down", "enter")  # title
        await settle(pilot)
        titles = [app.memory_for(r.key).title.casefold() for r in app.table.rows]
        assert titles == sorted(titles)
        assert [r.key for r in app.table.rows] != long_default
        await pilot.press("1")
        await settle(pilot)
        assert [r.key for r in app.table.rows] == short_refs
        assert "▼Refs" in header(app)


async def test_a_search_stays_best_first_until_an_order_is_picked(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"gateway")
        await settle(pilot)
        best_first = [r.key for r in app.table.rows]
        assert len(best_first) > 2
        assert "▼" not in header(app) and "▲" not in header(app)
        await pilot.press("enter")  # to the list
        await pilot.press("S", "down", "down", "enter")  # title, A to Z
        await settle(pilot)
        keys = [r.key for r in app.table.rows]
        assert sorted(keys) == sorted(best_first)
        titles = [app.memory_for(k).title.casefold() for k in keys]
        assert titles == sorted(titles)
        assert "▲Title" in header(app)
        await pilot.press("escape")  # the search ends; the tab keeps the order picked in it
        await settle(pilot)
        titles = [app.memory_for(r.key).title.casefold() for r in app.table.rows]
        assert titles == sorted(titles) and len(titles) > len(keys)
        # A new search is best first again.
        await pilot.press("slash", *"gateway")
        await settle(pilot)
        assert [r.key for r in app.table.rows] == best_first


async def test_problems_are_not_sorted(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        before = [r.key for r in app.table.rows]
        await pilot.press("S")
        await settle(pilot)
        assert not isinstance(app.screen, SortMenu)
        assert [r.key for r in app.table.rows] == before


async def test_a_restart_keeps_the_tab_the_theme_and_each_sort(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.click("#memories", offset=(column_x(app, "Refs"), 0))
        await pilot.press("2", "S", "home", "down", "down", "enter")
        await settle(pilot)
        app.theme = "nord"  # what picking it in the theme palette does
        await settle(pilot)
        long_order = [r.key for r in app.table.rows]
    saved = state()
    assert saved["last_tabs"] == [{"tree": str(demo_root.resolve()), "tab": "long-term"}]
    assert saved["theme"] == "nord" and "last_tab" not in saved
    assert saved["sort"]["short-term"] == {"field": "references", "descending": True}
    assert saved["sort"]["long-term"] == {"field": "title", "descending": False}

    again = SamanthaApp(demo_root, lambda: TODAY)
    async with again.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert again.query_one(Tabs).active == "long-term"
        assert again.theme == "nord"
        assert [r.key for r in again.table.rows] == long_order
        await pilot.press("1")
        await settle(pilot)
        refs = listed(again, SortField.REFERENCES)
        assert refs == sorted(refs, reverse=True) and "▼Refs" in header(again)


async def test_a_damaged_state_file_is_one_warning_and_the_defaults(demo_root: Path) -> None:
    Path(os.environ["SAMANTHA_TUI_STATE"]).write_text("{not json", "utf-8")
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        warnings = [n for n in app._notifications if n.title == "State"]
        assert len(warnings) == 1 and "not valid JSON" in warnings[0].message
        assert app.query_one(Tabs).active == "short-term"
        await pilot.press("3")
        await settle(pilot)
    # Rewritten whole once something changed.
    assert state()["last_tabs"] == [{"tree": str(demo_root.resolve()), "tab": "tasks"}]


async def test_a_settings_theme_changed_since_the_pick_wins(demo_root: Path, tmp_path) -> None:
    from samantha_tui.settings import Settings

    Path(os.environ["SAMANTHA_TUI_STATE"]).write_text(
        json.dumps({"theme": "nord", "theme_setting": "gruvbox"}), "utf-8"
    )
    app = SamanthaApp(demo_root, lambda: TODAY, Settings(theme="dracula", watch=False))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert app.theme == "dracula"
    kept = SamanthaApp(demo_root, lambda: TODAY, Settings(theme="gruvbox", watch=False))
    Path(os.environ["SAMANTHA_TUI_STATE"]).write_text(
        json.dumps({"theme": "nord", "theme_setting": "gruvbox"}), "utf-8"
    )
    async with kept.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert kept.theme == "nord"


async def tab_on_opening(root: Path, press: str | None = None) -> str:
    """The tab `root` opens on; then `press` (a tab's number), and quit."""
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        opened = app.query_one(Tabs).active
        if press:
            await pilot.press(press)
            await settle(pilot)
    return opened


async def test_each_tree_opens_on_its_own_last_tab(tmp_path: Path) -> None:
    first = write_demo(tmp_path / "first", TODAY)
    second = write_demo(tmp_path / "second", TODAY)
    assert await tab_on_opening(first, "2") == "short-term"
    assert await tab_on_opening(second) == "short-term", "another tree: not the first's tab"
    assert await tab_on_opening(second, "3") == "short-term"
    # A link to a tree is the tree.
    (tmp_path / "link").symlink_to(first)
    assert await tab_on_opening(tmp_path / "link") == "long-term"
    assert await tab_on_opening(second) == "tasks"
    assert [entry["tab"] for entry in state()["last_tabs"]] == ["long-term", "tasks"]


async def test_an_old_state_file_still_loads(tmp_path: Path) -> None:
    """Written before tabs were kept per tree: its one tab is the tab of a tree with none,
    until a tree has its own; its theme and sorts are kept."""
    first = write_demo(tmp_path / "first", TODAY)
    second = write_demo(tmp_path / "second", TODAY)
    old = {
        "version": 1,
        "last_tab": "tasks",
        "theme": "nord",
        "theme_setting": None,
        "sort": {"long-term": {"field": "title", "descending": False}},
    }
    Path(os.environ["SAMANTHA_TUI_STATE"]).write_text(json.dumps(old), "utf-8")
    app = SamanthaApp(first, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not [n for n in app._notifications if n.title == "State"]
        assert app.query_one(Tabs).active == "tasks" and app.theme == "nord"
        await pilot.press("2")
        await settle(pilot)
        assert "▲Title" in header(app)
    assert await tab_on_opening(second) == "short-term"
    saved = state()
    assert "last_tab" not in saved and saved["theme"] == "nord"
    assert saved["sort"] == old["sort"]

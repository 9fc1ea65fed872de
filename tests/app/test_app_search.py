"""Pilot tests of finding things in the app: `/` search, the jump palette, help, settings, size."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from textual.app import SystemCommand
from textual.widgets import Tabs

from samantha_tui.core.basics.model import Kind
from samantha_tui.ui import keys
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.rows import MATCH_STYLE
from samantha_tui.ui.screens.help import HelpScreen

from ..conftest import TODAY
from ..pilot import settle


def count_text(app: SamanthaApp) -> str:
    return str(app.query_one("#search-count").render())


async def test_slash_filters_the_tab_with_highlights_and_a_count(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        total = len(app.memory_tree.of_kind(Kind.SHORT_TERM))
        await pilot.press("j", "j")
        before = app.table.selected_key
        await pilot.press("slash", *"gateway")
        await settle(pilot)
        keys_shown = [row.key for row in app.table.rows]
        assert keys_shown and len(keys_shown) < total
        assert all(app.curator.get(k).kind is Kind.SHORT_TERM for k in keys_shown)
        assert all("gateway" in app.curator.get(k).title.lower() for k in keys_shown[:2])
        assert count_text(app) == f"{len(keys_shown)} of {total}"
        title = app.table.rows[0].cells[1]
        marked = [
            title.plain[s.start : s.end].lower() for s in title.spans if s.style == MATCH_STYLE
        ]
        assert "gateway" in marked

        await pilot.press("escape")
        await settle(pilot)
        assert not app.search_bar.display
        assert len(app.table.rows) == total
        assert app.table.selected_key == before


async def test_field_filters_work_and_a_bad_query_says_why(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"importance:high")
        await settle(pilot)
        assert app.table.rows
        assert all(app.curator.get(r.key).importance == "high" for r in app.table.rows)
        shown = len(app.table.rows)
        await pilot.press(*["backspace"] * 4)  # "importance:" waits for its value
        await settle(pilot)
        assert "importance" in error_text(app)
        assert len(app.table.rows) == shown, "a query being typed keeps the last good results"


def error_text(app: SamanthaApp) -> str:
    shown = app.query_one("#search-error")
    return str(shown.render()) if shown.display else ""


async def test_a_refused_importance_the_demo_holds_is_found(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"importance:urgent")
        await settle(pilot)
        assert error_text(app) == ""
        found = [app.curator.get(row.key) for row in app.table.rows]
        assert [m.written_importance for m in found] == ["urgent"]
        assert count_text(app) == f"1 of {len(app.memory_tree.of_kind(Kind.SHORT_TERM))}"


async def test_a_query_error_shows_whole_under_the_box_and_goes_with_it(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"importance:urgnt")
        await settle(pilot)
        error = app.query_one("#search-error")
        assert error_text(app).startswith("'importance:urgnt': no memory has that importance")
        assert error_text(app).endswith("(or one the memories hold: urgent)")
        assert error.size.height >= 2, "wrapped to the pane, never cut at the count's edge"
        assert error.outer_size.width == app.search_bar.size.width
        await pilot.press(*["backspace"] * len("importance:urgnt"))
        await settle(pilot)
        assert error_text(app) == "", "an empty box has nothing wrong"
        await pilot.press(*"foo:bar")
        await settle(pilot)
        assert error_text(app).startswith("unknown field 'foo'")
        await pilot.press(*["backspace"] * len("foo:bar"), *"gateway")
        await settle(pilot)
        assert error_text(app) == ""
        assert len(app.table.rows) and count_text(app).endswith(" of 53")


async def test_the_critical_tab_searches_the_critical_memories_of_every_kind(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("6", "slash", *"rule")
        await settle(pilot)
        found = [app.curator.get(row.key) for row in app.table.rows]
        assert found and all(m.critical for m in found)
        assert {m.kind for m in found} == {Kind.SHORT_TERM, Kind.LONG_TERM}
        assert len(found) < app.curator.search_index.search("rule").total
        await pilot.press("backspace", "backspace", "backspace", "backspace", *"working")
        await settle(pilot)
        assert {app.curator.get(row.key).kind for row in app.table.rows} == {Kind.LONG_TERM}
        assert count_text(app).endswith(f"of {len(app.memory_tree.critical)}")


async def test_a_search_follows_changes_to_the_tree(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"importance:high", "enter")
        await settle(pilot)
        first = app.table.selected_key
        await pilot.press("minus")
        await settle(pilot)
        assert first not in [row.key for row in app.table.rows]


async def test_jump_to_opens_the_memorys_tab_with_the_cursor_on_it(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        runbook = app.memory_tree.of_kind(Kind.PROCEDURAL)[-1]
        app.jump_to(runbook.path)
        await settle(pilot)
        assert app.query_one(Tabs).active == "procedural"
        assert app.table.selected_key == runbook.path


async def test_ctrl_k_jumps_from_the_palette(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        runbook = app.memory_tree.of_kind(Kind.PROCEDURAL)[0]
        await pilot.press("ctrl+k")
        await pilot.pause()
        await pilot.press(*runbook.title)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.query_one(Tabs).active == "procedural"
        assert app.table.selected_key == runbook.path


async def test_every_palette_command_is_namespaced_and_unique(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)):
        commands: list[SystemCommand] = list(app.get_system_commands(app.screen))
    titles = [command.title for command in commands]
    assert len(titles) == len(set(titles))
    assert all(t.split(":")[0] in {"memory", "index", "view", "theme", "app"} for t in titles)
    assert {"memory: toggle critical", "index: regenerate", "theme: change"} <= set(titles)


def test_every_binding_has_an_id_and_a_description() -> None:
    ids = [key.id for key in keys.APP_KEYS]
    assert len(ids) == len(set(ids))
    assert all(key.description for key in keys.APP_KEYS)


async def test_key_overrides_from_the_settings_file_work_and_show_on_help(
    demo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[watch]\nenabled = false\n[keys]\n"memory.toggle_critical" = "x"\n"nope.nothing" = "z"\n'
    )
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert any("nope.nothing" in n.message for n in app._notifications)
        path = app.table.selected_key
        await pilot.press("x")
        await settle(pilot)
        assert b"critical: true" in (demo_root / path).read_bytes()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert ("x", "Critical") in app.screen.listed


async def test_a_broken_settings_file_gives_a_message_and_the_defaults(
    demo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('theme = "no-such-theme"\n[index\n')
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    app = SamanthaApp(demo_root, lambda: TODAY)
    # A file that cannot be read gives the defaults, which watch; this test must not.
    assert app.settings.watch
    app.settings = dataclasses.replace(app.settings, watch=False)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert any(str(config) in n.message for n in app._notifications)
        assert app.memory_tree is not None and app.table.rows


async def test_80x24_is_usable_and_resizing_never_crashes(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.table.size.width >= 40 and app.table.size.height >= 10
        assert app.preview.size.width >= 20
        for size in ((40, 12), (200, 60), (80, 24), (20, 6), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
        await pilot.press("j", "slash", *"gate", "escape")
        await settle(pilot)
        assert app.table.rows


async def test_a_palette_command_acts_on_the_main_list(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        path = app.table.selected_key
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"memory: toggle critical")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert b"critical: true" in (demo_root / path).read_bytes()

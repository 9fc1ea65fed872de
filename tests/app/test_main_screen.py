"""The main screen: the app's default screen holds the list, its keys and the session's start."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from samantha_tui.ui import keys
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.screens.main import MainScreen
from samantha_tui.ui.screens.memory_form import MemoryForm

from ..conftest import TODAY
from ..pilot import settle, until


def test_the_main_screens_keys_and_the_apps_split_the_table_once() -> None:
    on_screen = {binding.id for binding in MainScreen.BINDINGS}
    on_app = {binding.id for binding in SamanthaApp.BINDINGS}
    assert on_screen and on_app and not on_screen & on_app
    assert on_screen | on_app == keys.known_ids()
    assert {"search.focus", "memory.edit", "memory.toggle_critical", "tab.critical"} <= on_screen
    assert {"memory.undo", "view.bootstrap", "app.help", "app.quit"} <= on_app
    # The screen's keys run the app's actions: the app keeps the session they act on.
    assert all(binding.action.startswith("app.") for binding in MainScreen.BINDINGS)


async def test_the_default_screen_is_the_main_screen_with_the_list(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        main = app.screen_stack[0]
        assert isinstance(main, MainScreen) and app.main is main and app.screen is main
        assert app.table in main.query("#memories") and app.preview in main.query("#preview")
        assert app.focused is app.table and app.table.selected_key is not None
        # Its keys act from the list: `c` marks the selected memory critical.
        path = app.table.selected_key
        assert path is not None and not app.curator.get(path).critical
        await pilot.press("c")
        await settle(pilot)
        assert app.curator.get(path).critical


async def test_the_main_screens_keys_do_nothing_over_a_form(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        path = app.table.selected_key
        await pilot.press("e")
        assert await until(pilot, lambda: isinstance(app.screen, MemoryForm))
        shown = {active.binding.id for active in app.screen.active_bindings.values()}
        assert not shown & {binding.id for binding in MainScreen.BINDINGS}
        assert app.focused is not None
        app.screen.set_focus(None)  # no field to type into: the key goes to the bindings
        await pilot.press("c", "2")
        await settle(pilot)
        assert isinstance(app.screen, MemoryForm) and app.current_tab == "short-term"
        assert path is not None and not app.curator.get(path).critical


async def test_help_lists_the_screens_keys_and_the_apps_by_section(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        # By section, each in the table's order: as when the app bound every key itself.
        expected: dict[str, list[str]] = {}
        for key in keys.APP_KEYS:
            expected.setdefault(keys.section(key.id), []).append(key.description)
        listed = {section: [meaning for _, meaning in rows] for section, rows in app._help_rows()}
        assert list(listed) == list(expected) and listed == expected


def test_the_host_and_the_parts_never_import_the_main_screen() -> None:
    code = (
        "import sys\n"
        "import samantha_tui.ui.host, samantha_tui.ui.searching, samantha_tui.ui.marking\n"
        "import samantha_tui.ui.editing, samantha_tui.ui.sort_order, samantha_tui.ui.key_burst\n"
        "print('samantha_tui.ui.screens.main' in sys.modules)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert found.strip() == "False"

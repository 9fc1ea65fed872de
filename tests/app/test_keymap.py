"""Every binding of every screen and widget has a stable id that the settings file can remap,
and a remapped key is the one help and the footer show and the one that works."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Static
from textual.widgets._footer import FooterKey

import samantha_tui.ui
from samantha_tui.settings import Settings, load_settings
from samantha_tui.ui import keys
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.export import ExportScreen
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.screens.reader import ReaderScreen
from samantha_tui.ui.screens.trash import TrashScreen

from ..conftest import TODAY
from ..pilot import settle

ID = re.compile(r"[a-z][a-z-]*(\.[a-z][a-z_-]*)+")
"""`list.up`, `tab.short-term`, `export.cancel`: what a person writes in `[keys]`."""


def our_classes() -> list[type[DOMNode]]:
    """Every screen, widget and app class of the package, found through Textual's DOMNode."""
    for module in pkgutil.walk_packages(samantha_tui.ui.__path__, "samantha_tui.ui."):
        importlib.import_module(module.name)
    found: list[type[DOMNode]] = []
    pending = list(DOMNode.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("samantha_tui.") and cls not in found:
            found.append(cls)
    return found


def declared_bindings() -> list[tuple[type[DOMNode], Binding | tuple[str, ...]]]:
    return [(cls, binding) for cls in our_classes() for binding in vars(cls).get("BINDINGS", ())]


def test_the_walk_finds_the_screens_and_widgets() -> None:
    names = {cls.__name__ for cls, _ in declared_bindings()}
    assert {"SamanthaApp", "MemoryTable", "ReaderScreen", "HelpScreen", "SortMenu"} <= names
    assert len(declared_bindings()) >= 90


def test_every_binding_has_an_id_a_description_and_no_other_has_its_id() -> None:
    seen: dict[str, str] = {}
    for cls, binding in declared_bindings():
        where = f"{cls.__qualname__} {binding!r}"
        assert isinstance(binding, Binding), f"{where}: a tuple can carry no id"
        assert binding.id and ID.fullmatch(binding.id), where
        assert binding.description, where
        assert binding.id not in seen, f"{binding.id} is bound in {seen.get(binding.id)} too"
        seen[binding.id] = cls.__qualname__


def test_every_binding_id_is_one_the_app_takes_from_the_settings() -> None:
    ids = {binding.id for _, binding in declared_bindings() if isinstance(binding, Binding)}
    assert ids == keys.every_binding_id()
    assert keys.known_ids() < ids


@pytest.mark.parametrize("quoted", [True, False])
def test_every_binding_id_reads_from_the_keys_table(tmp_path: Path, quoted: bool) -> None:
    ids = sorted(keys.every_binding_id())
    lines = [f'"{i}" = "ctrl+f12"' if quoted else f'{i} = "ctrl+f12"' for i in ids]
    path = tmp_path / "config.toml"
    path.write_text("[keys]\n" + "\n".join(lines) + "\n", encoding="utf-8")
    settings, messages = load_settings({"SAMANTHA_TUI_CONFIG": str(path)})
    assert messages == []
    assert dict(settings.keys) == dict.fromkeys(ids, "ctrl+f12")


def test_textual_rebinds_every_binding_by_its_id() -> None:
    for cls, binding in declared_bindings():
        assert isinstance(binding, Binding) and binding.id
        table = cls._merged_bindings
        assert table is not None
        table = table.copy()
        table.apply_keymap({binding.id: "ctrl+f12"})
        on_new_key = [b for b in table.key_to_bindings.get("ctrl+f12", []) if b.id == binding.id]
        # One Binding per key it was written with ("plus,equals_sign"), all for one action.
        assert {b.action for b in on_new_key} == {binding.action}, binding.id
        elsewhere = [
            key
            for key, found in table.key_to_bindings.items()
            if key != "ctrl+f12" and any(b.id == binding.id for b in found)
        ]
        assert elsewhere == [], f"{binding.id} still runs on {elsewhere}"


def footer_keys(app: SamanthaApp) -> dict[str, str]:
    """Description -> key as the footer of the current screen draws it."""
    return {w.description: w.key_display for w in app.screen.query(FooterKey)}


async def test_remapping_every_id_to_its_own_keys_gives_no_notice(demo_root: Path) -> None:
    every = {b.id: b.key for _, b in declared_bindings() if isinstance(b, Binding) and b.id}
    wrong = {"nope.nothing": "z", "reader.nowhere": "w"}
    settings = Settings(path=Path("config.toml"), watch=False, keys={**every, **wrong})
    app = SamanthaApp(demo_root, lambda: TODAY, settings=settings)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        said = [n.message for n in app._notifications if n.title == "Settings"]
        assert said == [
            "config.toml: no action has the id nope.nothing, reader.nowhere; "
            "the ids are listed in the README (Settings)"
        ]


async def test_a_remapped_key_shows_in_help_and_the_footer_and_works(demo_root: Path) -> None:
    settings = Settings(
        path=Path("config.toml"),
        watch=False,
        keys={
            "memory.toggle_critical": "x",
            "reader.next": "w",
            "list.down": "ctrl+n",
            "help.close": "z,question_mark",
        },
    )
    app = SamanthaApp(demo_root, lambda: TODAY, settings=settings)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        # Only that x, Critical's now, was Export's on the bootstrap preview (see below).
        assert [n.message for n in app._notifications if n.title == "Settings"] == [
            "config.toml: on the bootstrap preview, x is Critical (memory.toggle_critical), so "
            "Export (bootstrap.export) has no key there: give it one under [keys]"
        ]
        # The main list: the app's key and the list's own.
        assert footer_keys(app)["Critical"] == "x"
        first = app.table.selected_key
        await pilot.press("j")
        await pilot.pause()
        assert app.table.selected_key == first, "j no longer moves down: ctrl+n does"
        await pilot.press("ctrl+n")
        await pilot.pause()
        path = app.table.selected_key
        assert path != first
        await pilot.press("c")
        await settle(pilot)
        assert b"critical: true" not in (demo_root / path).read_bytes()
        await pilot.press("x")
        await settle(pilot)
        assert b"critical: true" in (demo_root / path).read_bytes()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        listed = app.screen.listed
        assert ("x", "Critical") in listed and ("c", "Critical") not in listed
        assert ("Ctrl+N", "Down the list") in listed
        await pilot.press("question_mark")
        await pilot.pause()
        # A screen's key: the reader's footer, its help, and the key itself.
        await pilot.press("enter")
        await settle(pilot)
        reader = app.screen
        assert isinstance(reader, ReaderScreen)
        assert footer_keys(app)["Next"] == "w"
        await pilot.press("n")
        await settle(pilot)
        assert reader.path == path
        await pilot.press("w")
        await settle(pilot)
        assert reader.path != path
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        meanings = {meaning: shown for shown, meaning in app.screen.listed}
        assert meanings["Read the next memory of the list"] == "w"
        hint = app.screen.query_one("#help-hint", Static).render()
        assert str(hint) == "[z/?] closes"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen), "Esc no longer closes the help: z does"
        await pilot.press("z")
        await pilot.pause()
        assert app.screen is reader


# --- the bootstrap preview, where the app's keys act too ------------------------------------------

LOADER = ".ai/short-term-memory/.ai/2026-04-22_gateway_config_loader.md"


def settings_notices(app: SamanthaApp) -> list[str]:
    return [n.message for n in app._notifications if n.title == "Settings"]


async def open_bootstrap(pilot) -> BootstrapScreen:
    await settle(pilot)
    await pilot.press("b")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, BootstrapScreen)
    assert screen.table.select_key(LOADER)
    await settle(pilot)
    return screen


def critical(root: Path) -> bool:
    return b"\ncritical: true\n" in (root / LOADER).read_bytes()


async def test_critical_moved_to_x_moves_on_the_bootstrap_preview_too(demo_root: Path) -> None:
    settings = Settings(path=Path("config.toml"), watch=False, keys={"memory.toggle_critical": "x"})
    app = SamanthaApp(demo_root, lambda: TODAY, settings=settings)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_bootstrap(pilot)
        # The clash is said once, when the settings are read: x is Critical, Export lost it.
        assert settings_notices(app) == [
            "config.toml: on the bootstrap preview, x is Critical (memory.toggle_critical), so "
            "Export (bootstrap.export) has no key there: give it one under [keys]"
        ]
        assert footer_keys(app)["Critical"] == "x" and "Export" not in footer_keys(app)
        # c no longer marks critical there, as it no longer does on the list.
        await pilot.press("c")
        await settle(pilot)
        assert not critical(demo_root) and not app.curator.can_undo
        # x marks it, and does not export as well.
        await pilot.press("x")
        await settle(pilot)
        assert critical(demo_root)
        assert app.screen is screen, "no export dialog"
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        meanings = {meaning: shown for shown, meaning in app.screen.listed}
        assert meanings["Mark or unmark the selected memory as read every session"] == "x"
        assert meanings["Write the plan to a file (Markdown or JSON)"] == "no key"


async def test_an_app_key_moved_onto_a_bootstrap_key_does_what_the_keymap_says(
    demo_root: Path,
) -> None:
    settings = Settings(path=Path("config.toml"), watch=False, keys={"view.trash": "x"})
    app = SamanthaApp(demo_root, lambda: TODAY, settings=settings)
    async with app.run_test(size=(160, 40)) as pilot:
        await open_bootstrap(pilot)
        assert settings_notices(app) == [
            "config.toml: on the bootstrap preview, x is Trash (view.trash), so "
            "Export (bootstrap.export) has no key there: give it one under [keys]"
        ]
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, TrashScreen), "x opens the trash, as the keymap says"


async def test_a_key_given_to_another_action_on_the_list_stops_marking_critical(
    demo_root: Path,
) -> None:
    settings = Settings(
        path=Path("config.toml"),
        watch=False,
        keys={"memory.edit": "c", "bootstrap.export": "e"},
    )
    app = SamanthaApp(demo_root, lambda: TODAY, settings=settings)
    async with app.run_test(size=(160, 40)) as pilot:
        await open_bootstrap(pilot)
        assert settings_notices(app) == [
            "config.toml: on the bootstrap preview, c is Edit fields on the list (memory.edit),"
            " so Critical (bootstrap.toggle_critical) has no key there: give it one under [keys]"
        ]
        await pilot.press("c")
        await settle(pilot)
        assert not critical(demo_root) and not app.curator.can_undo
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen), "the screen's own remap works"


def test_the_screen_s_named_key_wins_over_the_app_s_and_the_clash_is_said() -> None:
    found = keys.screen_keys(BootstrapScreen, {"bootstrap.export": "u"})
    assert found.keys["bootstrap.export"] == ("u",)
    assert found.clashes == (keys.Clash("u", "memory.undo", "bootstrap.export"),)
    (line,) = keys.clash_lines(BootstrapScreen, found, {"bootstrap.export": "u"})
    assert (
        line == "u is Export (bootstrap.export), so Undo (memory.undo) has no key there: "
        "give it one under [keys]"
    )


def test_no_keymap_leaves_the_bootstrap_keys_as_written() -> None:
    found = keys.screen_keys(BootstrapScreen, {})
    assert found.clashes == ()
    assert found.keys == {
        "bootstrap.close": ("escape",),
        "bootstrap.toggle_critical": ("c",),
        "bootstrap.raise_importance": ("plus", "equals_sign"),
        "bootstrap.lower_importance": ("minus",),
        "bootstrap.export": ("x",),
    }

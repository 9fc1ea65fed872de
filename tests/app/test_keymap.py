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
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.screens.reader import ReaderScreen

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
        assert not [n for n in app._notifications if n.title == "Settings"]
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
        assert str(hint) == "Press z or ? to close"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen), "Esc no longer closes the help: z does"
        await pilot.press("z")
        await pilot.pause()
        assert app.screen is reader

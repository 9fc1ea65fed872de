"""ctrl+p finds a command by its name, by another word for it and by what it does."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import SystemCommand
from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from samantha_tui.ui import keys
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.jump import ALIAS_SCORE, NAME_RANK, command_score

from ..conftest import TODAY
from ..pilot import settle, until


def test_a_name_holding_the_query_ranks_first_then_aliases_then_loose_names_then_help() -> None:
    held = command_score("quit", "app: quit", 0.1, (), "")
    alias = command_score("exit", "app: quit", 0.0, ("exit",), "")
    loose = command_score("exit", "index: remove entries tied to no file", 2.2, (), "")
    by_help = command_score("as you type", "view: search", 0.0, (), "Filter the list as you type")
    assert held > NAME_RANK > alias == ALIAS_SCORE > loose > by_help > 0
    assert command_score("nothing", "app: quit", 0.0, ("exit",), "Quit") == 0.0
    assert command_score("   ", "app: quit", 0.0, ("exit",), "Quit") == 0.0


def test_every_palette_command_has_unique_aliases_worth_typing() -> None:
    for key in keys.APP_KEYS:
        assert all(alias == alias.lower() and alias.strip() for alias in key.aliases), key.id


async def listed(pilot, query: str) -> list[str]:
    """The names the palette lists for `query`, best first."""
    pilot.app.screen.query_one(Input).value = query
    await settle(pilot)  # the palette's search is a worker
    commands = pilot.app.screen.query_one(CommandList)
    return [str(commands.get_option_at_index(i).hit.text) for i in range(commands.option_count)]


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("filter", "view: search this tab"),
        ("quit", "app: quit"),
        ("exit", "app: quit"),
        ("help", "view: keys"),
        ("find", "view: search this tab"),
        ("discard", "memory: delete"),
        ("star", "memory: toggle critical"),
        ("revert", "memory: undo"),
    ],
)
async def test_the_palette_finds_a_command_by_name_alias_or_help(
    demo_root: Path, query: str, first: str
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        found = await listed(pilot, query)
        assert found and found[0] == first, found


async def test_choosing_quit_from_the_palette_quits(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert (await listed(pilot, "exit"))[0] == "app: quit"
        await pilot.press("enter")
        assert await until(pilot, lambda: app.return_code is not None)
    assert app.return_code == 0


async def test_textuals_own_commands_are_kept_in_the_apps_namespaces(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)):
        commands: list[SystemCommand] = list(app.get_system_commands(app.screen))
    titles = [command.title for command in commands]
    assert {"theme: change", "app: quit", "view: keys panel", "app: screenshot"} <= set(titles)
    assert not {"Theme", "Quit", "Keys"} & set(titles)

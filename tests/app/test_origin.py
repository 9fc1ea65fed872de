"""Where a memory came from, in the app: one line in the preview and the reader, and `w` going to
the original of a merge copy or picking among the other memories of its session."""

from __future__ import annotations

import json
from pathlib import Path

from textual.command import CommandList, CommandPalette
from textual.widgets import Static

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.reader import ReaderScreen

from ..conftest import ST, TODAY, make_tree
from ..pilot import memory, settle

SID = "20261128_140000"
SESSION = f".ai/subconscious/.ai/sessions/{SID}/status.json"
ORIGINAL = f"{ST}/2026-06-01_retry_rule.md"
COPY = f"{ST}/2026-06-01_retry_rule_{SID}.md"
A, B, C = (f"{ST}/2026-06-0{n}_session_{name}.md" for n, name in ((2, "a"), (3, "b"), (4, "c")))
PLAIN = f"{ST}/2026-06-05_plain.md"
LINE = (
    "From session 2026-11-28 14:00 · complete, awaiting merge · project gateway · 2 other memories"
)


def generated(title: str, session: str = SID, project: str = "gateway") -> str:
    return memory(title, f"type: session-analysis\nsession_id: {session}\nproject: {project}\n")


def origin_tree(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    """A merge copy beside its original, and three memories of one session awaiting merge."""
    files = {
        ORIGINAL: memory("Retry rule"),
        COPY: memory("Retry rule"),
        A: generated("Session A"),
        B: generated("Session B"),
        C: generated("Session C"),
        PLAIN: memory("Plain note"),
        SESSION: json.dumps({"status": "complete", "session_id": SID}),
        **(extra or {}),
    }
    return make_tree(tmp_path / "cerebrum", files)


def line_of(app: SamanthaApp, selector: str) -> str | None:
    """The origin line as drawn (None while hidden)."""
    static = app.screen.query_one(selector, Static)
    return str(static.content) if static.display else None


def drawn(app: SamanthaApp, selector: str) -> str:
    """The origin line's first row of cells, as the terminal gets it."""
    return app.screen.query_one(selector, Static).render_line(0).text.strip()


async def select(pilot, path: str) -> None:
    pilot.app.jump_to(path)
    await settle(pilot)
    assert pilot.app.table.selected_key == path


async def test_the_preview_and_the_reader_say_where_a_memory_came_from(tmp_path: Path) -> None:
    app = SamanthaApp(origin_tree(tmp_path), lambda: TODAY)
    async with app.run_test(size=(160, 36)) as pilot:
        await settle(pilot)
        await select(pilot, PLAIN)
        assert line_of(app, "#preview-origin") is None
        await select(pilot, A)
        assert line_of(app, "#preview-origin") == LINE
        # Another program deletes one of the session's memories: the line of the one on show,
        # the same record, follows.
        (app.store.root / B).unlink()
        app.curator.absorb([B])
        app.show_tree((B,))
        await settle(pilot)
        assert app.table.selected_key == A
        assert line_of(app, "#preview-origin") == LINE.replace("2 other memories", "1 other memory")
        await select(pilot, COPY)
        assert line_of(app, "#preview-origin") == "Merge copy of 2026-06-01_retry_rule.md"

        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReaderScreen)
        assert line_of(app, "#reader-origin") == "Merge copy of 2026-06-01_retry_rule.md"
        await pilot.press("n")  # the next row of the list: the plain note, with no origin
        await settle(pilot)
        assert app.screen.memory is not None and app.screen.memory.path != COPY
        assert line_of(app, "#reader-origin") is None

        # Narrow, the line keeps to one row and ends in an ellipsis.
        await pilot.press("escape")
        await select(pilot, A)
        await pilot.resize_terminal(80, 30)
        await settle(pilot)
        row = drawn(app, "#preview-origin")
        assert row.startswith("From session 2026-11-28 14:00") and row.endswith("…")


async def test_w_goes_to_the_original_from_the_list_and_from_the_reader(tmp_path: Path) -> None:
    app = SamanthaApp(origin_tree(tmp_path), lambda: TODAY)
    async with app.run_test(size=(160, 36)) as pilot:
        await settle(pilot)
        await select(pilot, COPY)
        await pilot.press("w")
        await settle(pilot)
        assert app.table.selected_key == ORIGINAL

        await select(pilot, COPY)
        await pilot.press("enter", "w")
        await settle(pilot)
        assert isinstance(app.screen, ReaderScreen) and app.screen.memory is not None
        assert app.screen.memory.path == ORIGINAL
        await pilot.press("escape")
        await settle(pilot)
        assert app.table.selected_key == ORIGINAL

        # With no origin, `w` says so and goes nowhere.
        await pilot.press("w")
        await settle(pilot)
        assert app.table.selected_key == ORIGINAL
        said = [n.message for n in app._notifications]
        assert said[-1] == (
            "2026-06-01_retry_rule.md names no session and is no merge copy: "
            "it has no origin to go to"
        )


def listed(app: SamanthaApp) -> list[str]:
    commands = app.screen.query_one(CommandList)
    return [str(commands.get_option_at_index(i).hit.text) for i in range(commands.option_count)]


async def test_w_on_a_session_memory_picks_among_the_others(tmp_path: Path) -> None:
    app = SamanthaApp(origin_tree(tmp_path), lambda: TODAY)
    async with app.run_test(size=(160, 36)) as pilot:
        await settle(pilot)
        await select(pilot, A)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert sorted(listed(app)) == ["Session B", "Session C"]
        chosen = listed(app)[1]
        await pilot.press("down", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, CommandPalette)
        assert app.table.selected_key == {"Session B": B, "Session C": C}[chosen]


async def test_a_hostile_session_id_project_and_title_show_escaped(tmp_path: Path) -> None:
    hostile = '"[bold]\\e]0;pwned\\a[/]"'
    extra = {
        f"{ST}/2026-06-06_hostile_one.md": generated("One", hostile, '"[red]p[/]"'),
        f"{ST}/2026-06-07_hostile_two.md": generated("[b]Two[/b] \x1b[2J", hostile),
    }
    app = SamanthaApp(origin_tree(tmp_path, extra), lambda: TODAY)
    async with app.run_test(size=(200, 36)) as pilot:
        await settle(pilot)
        await select(pilot, f"{ST}/2026-06-06_hostile_one.md")
        assert line_of(app, "#preview-origin") == (
            "From session [bold]\\x1b]0;pwned\\x07[/] · gone · project [red]p[/] · 1 other memory"
        )
        row = drawn(app, "#preview-origin")
        assert "\x1b" not in row and "[bold]\\x1b]0;pwned\\x07[/]" in row
        await pilot.press("w")
        await settle(pilot)
        assert listed(app) == ["[b]Two[/b] \\x1b[2J"]
        prompt = app.screen.query_one(CommandList).get_option_at_index(0).prompt
        assert "\x1b" not in prompt.plain and prompt.plain.startswith("[b]Two[/b] \\x1b[2J")

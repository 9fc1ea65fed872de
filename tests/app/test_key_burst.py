"""Keys that arrive together: after `/` every one lands in the search box, and after a search the
cursor is on the best match.

The keys are sent as a terminal sends a paste or `tmux send-keys` (all at once, through the
driver, nothing awaited between them): Pilot.press waits for the app to go idle after each key,
which hides exactly the race these tests are about.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from bench.generate import generate
from samantha_tui.ui.app import SamanthaApp

from ..conftest import TODAY, make_tree
from ..pilot import ALPHA, BETA, memory, reindexed, settle
from .test_key_mashing import mash, snapshot


def burst(text: str) -> list[str]:
    """The keys of `text` as the mashing test names them (`/` and letters)."""
    return list(text)


async def test_a_burst_after_slash_is_typed_into_the_box_and_runs_no_command(
    demo_root: Path,
) -> None:
    before = snapshot(demo_root)
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await mash(pilot, burst("/critical"))
        await settle(pilot)
        assert app.search_bar.input.value == "critical"
        assert app.focused is app.search_bar.input
        assert len(app.screen_stack) == 1, f"a screen opened: {app.screen!r}"
        assert not app.curator.can_undo, "a command ran"
    assert snapshot(demo_root) == before


async def test_a_burst_while_a_big_tree_is_still_loading_lands_in_the_box(tmp_path: Path) -> None:
    root = generate(tmp_path / "big", 2000, TODAY)
    before = snapshot(root)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        # No settling first: the scan is still running (or its list still being drawn).
        await mash(pilot, burst("/crit"))
        await mash(pilot, burst("ical"))
        await settle(pilot)
        assert app.memory_tree is not None
        assert app.search_bar.input.value == "critical"
        assert len(app.screen_stack) == 1, f"a screen opened: {app.screen!r}"
        assert not app.curator.can_undo, "a command ran"
    assert snapshot(root) == before


async def test_a_key_before_slash_still_acts_on_the_list(tmp_path: Path) -> None:
    """Holding the keys after `/` must not reorder the ones before it: `j/x` moves down once."""
    root = make_tree(tmp_path / "cerebrum", {ALPHA: memory("Alpha rule"), BETA: memory("Beta")})
    app = SamanthaApp(reindexed(root), lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        first = app.table.selected_key
        await mash(pilot, ["j", "slash", "x"])
        await settle(pilot)
        assert app.search_bar.input.value == "x"
        assert app._before_search != first, "j ran before the search opened"


async def test_a_new_query_puts_the_cursor_on_the_best_match_and_enter_goes_there(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press(*"jjjjjjj")
        before = app.table.selected_key
        await pilot.press("slash", *"gateway")
        await settle(pilot)
        keys = [row.key for row in app.table.rows]
        assert len(keys) > 1
        assert app.table.selected_key == keys[0] != before
        await pilot.press("j")  # in the box, `j` is typed: the query changes, back to the best
        await settle(pilot)
        assert app.table.selected_key == app.table.rows[0].key
        await pilot.press("backspace", "enter")
        await settle(pilot)
        assert app.focused is app.table
        assert app.table.selected_key == keys[0]
        await pilot.press("j")  # on the list, moving is kept when the same query runs again
        moved = app.table.selected_key
        app.search_again()
        await settle(pilot)
        assert app.table.selected_key == moved == keys[1]


async def test_clearing_the_query_goes_back_to_the_memory_selected_before(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j")
        before = app.table.selected_key
        await pilot.press("slash", *"ci")
        await settle(pilot)
        assert app.table.selected_key != before
        await pilot.press("backspace", "backspace")
        await settle(pilot)
        assert app.search_bar.display, "the box stays open"
        assert app.table.selected_key == before


async def test_enter_in_a_burst_waits_for_the_results_so_the_next_key_acts_on_the_best(
    demo_root: Path,
) -> None:
    """`/gateway` Enter `c` sent at once: `c` marks the best match, not the row selected before."""
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j", "j", "j")
        before = app.table.selected_key
        await mash(pilot, [*burst("/gateway"), "enter", "c"])
        await settle(pilot)
        best = app.table.rows[0].key
        assert best != before
        assert app.search_bar.input.value == "gateway"
        assert app.focused is app.table
        assert app.curator.get(best).critical is True
        assert app.curator.get(before).critical is not True


async def test_escape_in_a_burst_reaches_the_list_before_the_keys_after_it(
    demo_root: Path,
) -> None:
    before = snapshot(demo_root)
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await mash(pilot, [*burst("/ab"), "escape", "j", "slash", *"cd"])
        await settle(pilot)
        assert isinstance(app.focused, Input)
        assert app.search_bar.input.value == "cd"
        assert not app.curator.can_undo
    assert snapshot(demo_root) == before


async def test_keys_typed_into_a_box_are_never_held(demo_root: Path) -> None:
    """`/` inside a query, and Enter in another screen's field, run no focus-moving binding of the
    app: nothing would come back to release the keys behind them, which then waited seconds."""
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await mash(pilot, ["a", "slash", "b"])
        await pilot.pause()
        assert not app.holding_keys
        assert app.search_bar.input.value == "a/b"
        await pilot.press("escape", "escape")
        await settle(pilot)
        await pilot.press("b")  # the bootstrap preview, whose fields are plain inputs
        await settle(pilot)
        field = next(iter(app.screen.query(Input)))
        field.focus()
        await pilot.pause()
        await mash(pilot, ["x", "enter", "y"])
        await pilot.pause()
        assert not app.holding_keys


async def test_backspaces_then_letters_in_one_burst_edit_the_box_in_order(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await mash(pilot, burst("/rety"))
        await settle(pilot)
        # The box's backspace acts on the way back to the app; the letters after it must wait.
        await mash(pilot, ["backspace"] * 4 + burst("gatway") + ["left", "backspace", "e"])
        await settle(pilot)
        assert app.search_bar.input.value == "gatwey"
        assert app.focused is app.search_bar.input
        assert len(app.screen_stack) == 1, f"a screen opened: {app.screen!r}"


async def test_tab_in_a_burst_sends_the_letters_after_it_to_the_next_field(
    demo_root: Path,
) -> None:
    """`abc`, Tab, `def` typed at once into a new memory's form, then edits: as if typed
    slowly (the letters after Tab went into the field Tab left, and after backspace were
    typed before it deleted)."""
    from samantha_tui.ui.screens.memory_form import MemoryForm

    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemoryForm)
        first = app.focused
        assert isinstance(first, Input)
        # Back with shift+tab, End (a field taken by Tab has its text selected), then more.
        await mash(pilot, [*"abc", "tab", *"def", "shift+tab", "end", *"gh"])
        await settle(pilot)
        second = form.focus_chain[form.focus_chain.index(first) + 1]
        assert isinstance(second, Input), second
        assert first.value == "abcgh"
        assert second.value == "def"
        # A field's own editing keys act before the letters after them, as in the search box.
        await mash(pilot, ["backspace", "backspace", "left", "backspace", *"xy", "end", "z"])
        await settle(pilot)
        assert first.value == "axycz"

"""Pilot tests of marks in the app: `c`, `+`, `-`, `e` and delete act on every marked memory as
one change `u` undoes, `Esc` clears marks after a search, marks stay with their tab, `ctrl+a`."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Select
from textual.widgets._footer import FooterKey

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.messages import Changed
from samantha_tui.ui.screens.bulk_form import BulkForm
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.memory_form import DiscardQuestion, MemoryForm

from ..conftest import LT, ST, TODAY, make_tree
from ..pilot import index_check, memory, reindexed, settle

A = f"{ST}/2026-06-10_alpha_rule.md"
B = f"{ST}/2026-06-09_beta_note.md"
C = f"{ST}/2026-06-08_gamma_note.md"
L = f"{LT}/2026-05-01_lasting.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    tree_root = make_tree(
        tmp_path / "cerebrum",
        {
            A: memory("Alpha rule", "importance: medium\n"),
            B: memory("Beta note", "critical: true\n"),
            C: memory("Gamma note"),
            L: memory("Lasting"),
        },
    )
    return reindexed(tree_root)


def _files(root: Path) -> dict[str, bytes]:
    return {p: (root / p).read_bytes() for p in (A, B, C, L)}


def _status(app: SamanthaApp) -> str:
    return str(app.status_line.render())


def _footer(app: SamanthaApp) -> dict[str, str]:
    return {w.description: w.key_display for w in app.screen.query(FooterKey)}


async def _mark_three(pilot) -> None:
    await settle(pilot)
    await pilot.press("space", "space", "space")
    await settle(pilot)


async def test_c_on_three_marked_asks_naming_them_then_one_undo_puts_every_byte_back(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(root)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await _mark_three(pilot)
        assert app.table.marked_keys == [A, B, C]
        assert "3 marked: c + - e d act on them" in _status(app)
        await pilot.press("c")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog._title == "Mark 2 memories critical?", (
            "Beta is critical already: two are written"
        )
        assert any("alpha_rule" in line for line in dialog._lines)
        await pilot.press("y")
        await settle(pilot)
        assert b"critical: true\n" in (root / A).read_bytes()
        assert b"critical: true\n" in (root / C).read_bytes()
        assert (root / B).read_bytes() == before[B]
        assert index_check(root, capsys) == 0
        assert any("1 memory already critical" in n.message for n in app._notifications)
        assert app.table.marked_keys == [A, B, C], "marks stay for the next key"

        await pilot.press("u")
        await settle(pilot)
        assert _files(root) == before
        assert not app.curator.can_undo, "the three files were one change"
        assert index_check(root, capsys) == 0


async def test_c_when_all_marked_are_critical_unmarks_all(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("down", "space")  # only Beta, critical already
        await settle(pilot)
        await pilot.press("c")  # one file: no question
        await settle(pilot)
        assert b"critical" not in (root / B).read_bytes()
        assert any("critical removed on 1 memory" in n.message for n in app._notifications)


async def test_plus_and_minus_step_each_marked_and_name_those_left_alone(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await _mark_three(pilot)
        await pilot.press("plus")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert b"importance: high\n" in (root / A).read_bytes()
        assert b"importance: low\n" in (root / B).read_bytes()
        assert b"importance: low\n" in (root / C).read_bytes()
        # Beta and Gamma are at the bottom of the scale: one file is written, no question,
        # and the notice names the two left alone.
        await pilot.press("minus")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert b"importance: medium\n" in (root / A).read_bytes()
        assert b"importance: low\n" in (root / B).read_bytes()
        notices = [n.message for n in app._notifications]
        assert any("importance lowered on 1 memory" in m and "already at low" in m for m in notices)


async def test_delete_acts_on_marks_a_search_hides(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("space", "space")  # Alpha and Beta
        await pilot.press("slash", *"gamma", "enter")
        await settle(pilot)
        assert [r.key for r in app.table.rows] == [C]
        assert "2 marked, 2 hidden by the search" in _status(app)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "2 memories" in app.screen._title
        await pilot.press("y")
        await settle(pilot)
        assert not (root / A).exists() and not (root / B).exists() and (root / C).exists()


async def test_escape_clears_the_search_first_then_the_marks(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("space")
        await pilot.press("slash", *"beta", "enter")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not app.search_bar.display, "the first Esc clears the search"
        assert app.table.marked_keys == [A], "and keeps the marks"
        await pilot.press("escape")
        await settle(pilot)
        assert app.table.marks == frozenset()
        assert "marked" not in _status(app)


async def test_escape_in_the_preview_goes_back_to_the_list_before_clearing_marks(
    root: Path,
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("space")
        app.preview.focus()
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is app.table
        assert app.table.marked_keys == [A], "the first Esc only leaves the preview"
        await pilot.press("escape")
        await settle(pilot)
        assert app.table.marks == frozenset()
        assert "1 mark cleared" in [n.message for n in app._notifications]


async def test_the_footer_offers_esc_to_unmark_exactly_while_esc_would(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Unmark" not in _footer(app)
        await pilot.press("space", "space")
        await settle(pilot)
        assert _footer(app)["Unmark"] == "Esc"
        await pilot.press("2")
        await settle(pilot)
        assert "Unmark" not in _footer(app), "no marks on this tab"
        await pilot.press("1", "slash", *"gamma")
        await settle(pilot)
        assert "Unmark" not in _footer(app), "Esc clears the search first"
        await pilot.press("escape")
        await settle(pilot)
        assert not app.search_bar.display and app.table.marked_keys == [A, B]
        assert _footer(app)["Unmark"] == "Esc"
        app.preview.focus()
        await settle(pilot)
        assert "Unmark" not in _footer(app), "Esc goes back to the list first"
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is app.table and app.table.marked_keys == [A, B]
        await pilot.press("escape")
        await settle(pilot)
        assert app.table.marks == frozenset()
        assert "Unmark" not in _footer(app) and "marked" not in _status(app)
        assert "2 marks cleared" in [n.message for n in app._notifications]


async def test_marks_stay_with_their_tab_and_a_vanished_memory_drops_its_mark(
    root: Path,
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("space", "space")
        await pilot.press("2")
        await settle(pilot)
        assert app.table.marks == frozenset(), "the long-term tab has marks of its own"
        await pilot.press("space")
        await pilot.press("1")
        await settle(pilot)
        assert app.table.marked_keys == [A, B]
        # Beta goes while the list shows the long-term tab: coming back, its mark is gone.
        await pilot.press("2")
        await settle(pilot)
        (root / B).unlink()
        outcome = app.curator.absorb([B])
        app.post_message(Changed(outcome, notice=False))
        await settle(pilot)
        assert app.table.marked_keys == [L]
        await pilot.press("1")
        await settle(pilot)
        assert app.table.marked_keys == [A]


async def test_the_status_line_speaks_only_of_the_marks_of_the_tab_shown(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("space", "space")
        await settle(pilot)
        assert "2 marked" in _status(app)
        await pilot.press("2")
        await settle(pilot)
        assert "marked" not in _status(app), "the keys here act on the selected memory"
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        assert "2 marked" in _status(app), "Esc on another tab leaves these marks alone"


async def test_emptying_the_search_box_says_no_mark_is_hidden_any_more(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("space", "space")
        await pilot.press("slash", *"gamma")
        await settle(pilot)
        assert "2 marked, 2 hidden by the search" in _status(app)
        await pilot.press(*["backspace"] * len("gamma"))
        await settle(pilot)
        assert "2 marked: c + - e d act on them" in _status(app)
        assert "hidden" not in _status(app)


async def test_ctrl_a_marks_the_visible_rows_then_unmarks_them(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"note", "enter")
        await settle(pilot)
        assert {r.key for r in app.table.rows} == {B, C}
        await pilot.press("ctrl+a")
        await settle(pilot)
        assert app.table.marks == {B, C}
        await pilot.press("ctrl+a")
        await settle(pilot)
        assert app.table.marks == frozenset()


async def _open_bulk_form(pilot) -> BulkForm:
    await _mark_three(pilot)
    await pilot.press("e")
    await pilot.pause()
    form = pilot.app.screen
    assert isinstance(form, BulkForm)
    return form


async def test_the_bulk_form_previews_then_saves_one_undoable_change(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(root)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        form = await _open_bulk_form(pilot)
        assert "Edit 3 marked memories" in str(form.query_one("#form-head").render())
        assert app.open_forms() == [form], "app keys rest while it is open"
        assert not app.form_allows("undo")
        form.query_one("#bulk-importance", Select).value = "high"
        form.query_one("#bulk-topics-add", Input).value = "release"
        await pilot.pause()
        preview = str(form.query_one("#bulk-preview").render())
        assert "Will change 3 of 3 files" in preview
        assert "2026-06-10_alpha_rule.md: importance high; topics +release" in preview
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen._title == "Save these fields to 3 memories?"
        await pilot.press("y")
        await settle(pilot)
        for path in (A, B, C):
            text = (root / path).read_text()
            assert "topics: [ci, release]\n" in text and "importance: high\n" in text
        assert index_check(root, capsys) == 0
        await pilot.press("u")
        await settle(pilot)
        assert _files(root) == before
        assert not app.curator.can_undo


async def test_escape_on_a_bulk_form_with_input_asks_first(root: Path) -> None:
    before = _files(root)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        form = await _open_bulk_form(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, BulkForm), "nothing typed: Esc closes at once"
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        form.query_one("#bulk-updated", Input).value = "2026-13-01"
        await pilot.pause()
        assert "not a date" in str(form.query_one("#error-updated").render())
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DiscardQuestion)
        await pilot.press("escape")  # keep editing
        await pilot.pause()
        assert app.screen is form
        await pilot.press("ctrl+s")  # refused: the date is not a day
        await pilot.pause()
        assert app.screen is form
        assert _files(root) == before


async def test_e_with_no_marks_still_opens_the_single_form(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, MemoryForm)

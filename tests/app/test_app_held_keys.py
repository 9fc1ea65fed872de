"""Holding a key on the list: the preview follows every row at once, and lays out only the body of
the row the keys stop on; the list keeps only the rows it drew last."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.widgets import memory_table, preview
from samantha_tui.ui.widgets.markdown_body import MarkdownBody
from samantha_tui.ui.widgets.memory_table import MADE_ROWS_KEPT, LazyRows, TableRow

from ..conftest import ST, TODAY, make_tree
from ..pilot import settle
from ..waiting import tap

SIZE = (120, 30)
MEMORIES = 600


def many_notes(root: Path) -> Path:
    files = {
        f"{ST}/2026-05-{1 + n % 28:02d}_note_{n:03d}.md": (
            f"---\ndate: 2026-05-{1 + n % 28:02d}\ntopics: [t{n % 7}]\nimportance: low\n---\n\n"
            f"# Note {n:03d}\n\nThe body of note {n:03d}.\n"
        )
        for n in range(MEMORIES)
    }
    return make_tree(root, files)


def record_bodies(app: SamanthaApp) -> list[str]:
    """The Markdown source of every body the preview draws from now on, in order."""
    body = app.query_one("#preview-body", MarkdownBody)
    drawn: list[str] = []
    show = body.show

    def recording(markdown: str) -> None:
        if markdown != body.source:
            drawn.append(markdown)
        show(markdown)

    body.show = recording  # type: ignore[method-assign]
    return drawn


def body_line(app: SamanthaApp) -> str:
    """The body sentence of the memory under the list's cursor."""
    memory = app.selected_memory()
    assert memory is not None
    return memory.body.strip().splitlines()[-1]


async def test_a_held_page_down_lays_out_only_the_body_of_the_row_it_stops_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Paced as the pilot presses (each key once the app is idle), the keys count as held only
    # with a wider window than a terminal's key repeat needs.
    monkeypatch.setattr(memory_table, "HELD_WITHIN", 5.0)
    monkeypatch.setattr(preview, "BODY_PAUSE", 2.0)
    app = SamanthaApp(many_notes(tmp_path / "t"), lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        drawn = record_bodies(app)
        body = app.query_one("#preview-body", MarkdownBody)
        await tap(pilot, "pagedown")
        first = body_line(app)
        assert body.display and first in body.source, "the first key shows the body at once"
        for _ in range(19):
            await tap(pilot, "pagedown")
            # The fields follow at once; the body is hidden, never one of a row passed.
            assert app.preview.shown is app.selected_memory()
            assert not body.display
        assert app.preview.body_pending
        await settle(pilot)
        last = body_line(app)
        assert 19 * 10 < app.table.cursor < MEMORIES - 1
        assert app.preview.shown is app.selected_memory()
        assert body.display and last in body.source
        assert len(drawn) == 2, "only the first row's body and the last one's"
        assert first in drawn[0] and last in drawn[1]


async def test_keys_that_queue_show_the_last_row_with_its_body_once_they_stop(
    tmp_path: Path,
) -> None:
    app = SamanthaApp(many_notes(tmp_path / "t"), lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        drawn = record_bodies(app)
        body = app.query_one("#preview-body", MarkdownBody)
        # All at once, as a terminal's key repeat delivers them to an app still busy drawing.
        for _ in range(20):
            app._driver.send_message(page_down(app))
        await pilot.pause()
        while app.table.cursor == 0:
            await pilot.pause(0.02)
        await settle(pilot)
        last = body_line(app)
        assert app.preview.shown is app.selected_memory()
        assert body.display and last in body.source
        assert 0 < app.table.cursor < MEMORIES - 1
        assert drawn and all(last in source for source in drawn), (
            "no row passed while the keys queued had its body laid out"
        )


async def test_a_single_key_shows_the_body_at_once(tmp_path: Path) -> None:
    app = SamanthaApp(many_notes(tmp_path / "t"), lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause(memory_table.HELD_WITHIN)
        await pilot.press("down")
        body = app.query_one("#preview-body", MarkdownBody)
        assert not app.preview.body_pending
        assert body.display and body_line(app) in body.source


async def test_a_message_in_the_preview_drops_a_body_waiting_for_the_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memory_table, "HELD_WITHIN", 5.0)
    monkeypatch.setattr(preview, "BODY_PAUSE", 0.3)
    app = SamanthaApp(many_notes(tmp_path / "t"), lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await tap(pilot, "down", "down")
        assert app.preview.body_pending
        app.preview.show_message("Nothing here")
        assert not app.preview.body_pending
        await pilot.pause(0.4)
        assert not app.query_one("#preview-body", MarkdownBody).display
        assert app.preview.shown is None


def test_lazy_rows_keep_only_the_rows_made_last() -> None:
    made: list[int] = []

    def make(index: int) -> TableRow:
        made.append(index)
        return TableRow(str(index), ())

    rows = LazyRows([str(n) for n in range(MADE_ROWS_KEPT * 3)], make)
    first = rows[0]
    assert rows[0] is first and made == [0], "a row drawn again is not made again"
    for index in range(1, MADE_ROWS_KEPT + 1):
        rows[index]
    recent = rows[MADE_ROWS_KEPT]
    assert rows[MADE_ROWS_KEPT] is recent
    rows[0]
    assert made.count(0) == 2, "the row drawn longest ago was let go and is made again"
    assert rows[0].key == "0" and len(rows) == MADE_ROWS_KEPT * 3


def page_down(app: SamanthaApp) -> events.Key:
    """A PgDn as the terminal driver delivers it."""
    key = events.Key("pagedown", None)
    key.set_sender(app)
    return key

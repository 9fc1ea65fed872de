"""The memory list widget: marks (toggle, survive refreshes, dropped keys), select_key, painting."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult

from samantha_tui.ui.widgets.memory_table import Column, LazyRows, MemoryTable, TableRow

COLUMNS = (Column("", 2), Column("Title"), Column("Refs", 4, "right"))


def rows(*keys: str) -> list[TableRow]:
    return [TableRow(key, (Text(""), Text(f"title {key}"), Text("1"))) for key in keys]


class TableApp(App[None]):
    def __init__(self, keys: tuple[str, ...]) -> None:
        super().__init__()
        self.keys = keys
        self.counts: list[int] = []

    def compose(self) -> ComposeResult:
        yield MemoryTable(COLUMNS)

    def on_mount(self) -> None:
        self.table.set_rows(rows(*self.keys))
        self.table.focus()

    @property
    def table(self) -> MemoryTable:
        return self.query_one(MemoryTable)

    @on(MemoryTable.MarksChanged)
    def _marks_changed(self, message: MemoryTable.MarksChanged) -> None:
        self.counts.append(message.count)


def painted(table: MemoryTable, y: int) -> str:
    return table.render_line(y).text


async def test_space_marks_the_row_and_moves_down() -> None:
    app = TableApp(("a", "b", "c", "d"))
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.press("space", "down", "space")
        await pilot.pause()
        assert app.table.marked_keys == ["a", "c"]
        assert app.table.selected_key == "d"
        assert app.counts == [1, 2]
        await pilot.press("up", "space")
        await pilot.pause()
        assert app.table.marked_keys == ["a"]
        assert app.counts[-1] == 1


async def test_marking_the_last_row_keeps_the_cursor_there() -> None:
    app = TableApp(("a", "b"))
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.press("end", "space")
        await pilot.pause()
        assert app.table.marked_keys == ["b"]
        assert app.table.selected_key == "b"
        # Under the cursor the mark still shows.
        assert painted(app.table, 2).startswith(MemoryTable.MARK)


async def test_space_on_an_empty_table_does_nothing() -> None:
    app = TableApp(())
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        assert app.table.marked_keys == [] and app.counts == []


async def test_marked_keys_follow_row_order_not_marking_order() -> None:
    app = TableApp(("a", "b", "c"))
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.press("end", "space", "home", "space")
        assert app.table.marked_keys == ["a", "c"]
        app.table.set_rows(rows("c", "b", "a"))
        assert app.table.marked_keys == ["c", "a"]


async def test_marks_survive_set_rows_while_their_keys_remain() -> None:
    app = TableApp(("a", "b", "c"))
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.press("space", "space")
        await pilot.pause()
        app.counts.clear()
        app.table.set_rows(rows("x", "b", "a", "y"))
        await pilot.pause()
        assert app.table.marked_keys == ["b", "a"]
        assert app.counts == [], "nothing was dropped, so no message"
        app.table.set_rows(rows("x", "a"))
        await pilot.pause()
        assert app.table.marked_keys == ["a"]
        assert app.counts == [1]
        app.table.set_rows(rows("b"))
        await pilot.pause()
        assert app.table.marked_keys == []
        assert app.counts == [1, 0]
        # A key that comes back later does not bring its old mark with it.
        app.table.set_rows(rows("a", "b"))
        assert app.table.marked_keys == []


async def test_clear_marks() -> None:
    app = TableApp(("a", "b", "c"))
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.press("space", "space")
        app.table.clear_marks()
        await pilot.pause()
        assert app.table.marked_keys == []
        assert app.counts == [1, 2, 0]
        app.table.clear_marks()
        await pilot.pause()
        assert app.counts == [1, 2, 0], "clearing nothing says nothing"


async def test_select_key_moves_the_cursor_only_to_a_present_key() -> None:
    keys = tuple(f"k{i:03}" for i in range(200))
    app = TableApp(keys)
    async with app.run_test(size=(60, 10)) as pilot:
        assert app.table.select_key("k150") is True
        await pilot.pause()
        assert app.table.cursor == 150 and app.table.selected_key == "k150"
        # The row is scrolled into view, so it is painted.
        visible = [painted(app.table, y) for y in range(1, app.table.size.height)]
        assert any("title k150" in line for line in visible)
        assert app.table.select_key("missing") is False
        assert app.table.selected_key == "k150"


async def test_a_marked_row_shows_a_gutter_mark_and_the_marked_style() -> None:
    app = TableApp(("a", "b"))
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        header, marked, plain = (painted(app.table, y) for y in range(3))
        assert header.startswith("    Title")
        assert marked.startswith(MemoryTable.MARK + "   title a")
        assert plain.startswith("    title b")
        assert len(marked) == len(plain) == 40
        assert marked.rstrip().endswith("1") and plain.rstrip().endswith("1")
        # Off the cursor, a marked row carries the marked style from its gutter to its last cell.
        marked_style = app.table.get_component_rich_style("memory-table--marked")
        segments = list(app.table.render_line(1))
        assert marked_style.bgcolor is not None
        assert all(s.style.bgcolor == marked_style.bgcolor for s in segments if s.text.strip())
        assert segments[0].text.startswith(MemoryTable.MARK)
        assert all(s.style.bgcolor != marked_style.bgcolor for s in app.table.render_line(2))


async def test_lazy_rows_are_made_only_when_drawn() -> None:
    made: list[int] = []

    def make(index: int) -> TableRow:
        made.append(index)
        return rows(f"k{index}")[0]

    keys = [f"k{i}" for i in range(10_000)]
    app = TableApp(())
    async with app.run_test(size=(60, 12)) as pilot:
        app.table.set_rows(LazyRows(keys, make), select="k5000")
        await pilot.pause()
        assert app.table.selected_key == "k5000"
        assert 0 < len(made) <= 30, "a screenful or two is made, never the whole list"
        assert "title k5000" in "".join(painted(app.table, y) for y in range(1, 12))
        drawn = len(made)
        app.table.refresh()
        await pilot.pause()
        assert len(made) == drawn, "a row once made is kept"
        await pilot.press("space")
        assert app.table.marked_keys == ["k5000"]
        assert len(made) <= drawn + 12, "marking makes at most the rows it shows"


async def test_toggle_all_marks_marks_every_row_then_none() -> None:
    app = TableApp(("a", "b", "c"))
    async with app.run_test() as pilot:
        app.table.toggle_all_marks()
        await pilot.pause()
        assert app.table.marked_keys == ["a", "b", "c"]
        app.table.toggle_all_marks()
        await pilot.pause()
        assert app.table.marked_keys == []
        assert app.counts[-2:] == [3, 0]


class SlowPreviewApp(TableApp):
    """Handles each highlight slowly, as the preview does with a long memory."""

    def __init__(self, keys: tuple[str, ...]) -> None:
        super().__init__(keys)
        self.shown: list[str | None] = []

    @on(MemoryTable.Highlighted)
    async def _highlighted(self, message: MemoryTable.Highlighted) -> None:
        await asyncio.sleep(0.05)
        self.shown.append(message.key)


async def test_a_held_key_shows_the_row_it_stopped_on_not_every_row_passed() -> None:
    keys = tuple(f"k{i}" for i in range(40))
    app = SlowPreviewApp(keys)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.shown.clear()
        for _ in range(20):
            app.post_message(events.Key("down", None))
        await pilot.pause(1.5)
        assert app.table.selected_key == "k20"
        assert app.shown[-1] == "k20"
        assert len(app.shown) < 20  # superseded highlights were dropped, not shown one by one


def test_only_a_later_highlight_of_the_same_table_replaces_one() -> None:
    first, second = MemoryTable(COLUMNS), MemoryTable(COLUMNS)
    highlighted = MemoryTable.Highlighted(first, "a")
    assert highlighted.can_replace(MemoryTable.Highlighted(first, "b"))
    assert not highlighted.can_replace(MemoryTable.Highlighted(second, "b"))
    assert not highlighted.can_replace(MemoryTable.MarksChanged(first, 1))

"""A row's line drawn straight from its cells is the line the Text path draws, cell for cell:
cut with an ellipsis, padded, justified, styled by its cell, its spans, the mark and the cursor."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.style import Style
from rich.text import Span, Text
from textual.app import App, ComposeResult
from textual.strip import Strip

from samantha_tui.ui.widgets.memory_table import Column, MemoryTable, TableRow

from ..tiers import examples

STYLES = ["", "bold", "dim", "bold red", "yellow", "italic", "bold underline"]
CHARS = "abcXYZ 0123…★·!—\x1b\u202e日本語é"


def cells_of(draw, count: int) -> tuple[Text, ...]:
    cells = []
    for _ in range(count):
        plain = draw(st.text(alphabet=CHARS, max_size=40))
        text = Text(plain, style=draw(st.sampled_from(STYLES)))
        for _ in range(draw(st.integers(0, 3))):
            start = draw(st.integers(0, len(plain)))
            end = draw(st.integers(start, len(plain)))
            text.spans.append(Span(start, end, draw(st.sampled_from(STYLES[1:]))))
        cells.append(text)
    return tuple(cells)


@st.composite
def rows(draw) -> tuple[tuple[Column, ...], tuple[Text, ...], bool, bool, int]:
    columns = (
        Column("", draw(st.integers(1, 3))),
        Column("Title"),
        Column("Date", draw(st.integers(2, 12))),
        Column("Refs", draw(st.integers(2, 5)), "right"),
    )
    cells = cells_of(draw, draw(st.integers(0, 4)))
    return columns, cells, draw(st.booleans()), draw(st.booleans()), draw(st.integers(8, 90))


def by_cell(strip: Strip) -> list[tuple[str, Style | None]]:
    return [(char, segment.style) for segment in strip for char in segment.text]


class Lists(App[None]):
    def compose(self) -> ComposeResult:
        yield MemoryTable(id="table")


async def test_rows_drawn_from_cells_match_the_text_path() -> None:
    app = Lists()
    async with app.run_test(size=(100, 10)):
        table = app.query_one(MemoryTable)

        @settings(max_examples=examples(300), deadline=None)
        @given(rows())
        def check(example) -> None:
            columns, cells, marked, cursor, width = example
            table.columns = columns
            placed = table.laid_out(width)
            base = table.rich_style
            over = []
            if marked:
                over.append(table.get_component_rich_style("memory-table--marked"))
            if cursor:
                over.append(table.get_component_rich_style("memory-table--cursor"))
            line = table._line(cells, width, table.MARK if marked else " ", placed)
            for style in over:
                line.stylize(style)
            expected = table._strip(line, width, base)
            gutter = table.MARK if marked else " "
            drawn = table._row_strip(cells, width, base, placed, gutter, over)
            assert by_cell(drawn) == by_cell(expected)
            assert drawn.cell_length == expected.cell_length == width

        check()


async def test_a_row_on_screen_shows_its_cells_cut_to_their_columns() -> None:
    app = Lists()
    async with app.run_test(size=(40, 6)) as pilot:
        table = app.query_one(MemoryTable)
        columns = (Column("", 2), Column("Title"), Column("Refs", 4, "right"))
        long_title = Text("A title far longer than the column it sits in", style="bold")
        table.set_rows([TableRow("a", (Text("★"), long_title, Text("12")))], columns=columns)
        await pilot.pause()
        line = table.render_line(1).text
        assert line.startswith(" ★  A title")
        assert line.rstrip().endswith("…   12")
        assert len(line) == table.scrollable_content_region.width


async def test_a_row_strip_is_freed_by_its_last_reference_not_by_a_full_collection() -> None:
    app = Lists()
    async with app.run_test(size=(40, 6)) as pilot:
        table = app.query_one(MemoryTable)
        columns = (Column("", 2), Column("Title"), Column("Refs", 4, "right"))
        table.set_rows([TableRow("a", (Text("★"), Text("A title"), Text("12")))], columns=columns)
        await pilot.pause()
        width, base, placed = table._paint_now()
        strip = table._row_strip(table.rows[0].cells, width, base, placed, " ", [])
        assert strip.cell_length == width
        # Only this name and getrefcount's argument: the strip does not hold itself in a cache.
        assert sys.getrefcount(strip) == 2

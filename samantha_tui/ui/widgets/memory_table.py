"""A list of memories that renders only the rows on screen (Line API), so it scales to big trees.

Rows can be marked (`space`) to act on several at once; a mark is drawn in a one-cell gutter left of
the first column, so it shows without colour too.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import overload

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..visible_text import visible_text

HELD_WITHIN = 0.1
"""Seconds: a move by key this soon after the one before is part of a held key (a terminal's
key repeat sends one every 30-40 ms) or of keys typed ahead of the app."""

TITLE_ROOM = 35
"""Cells the flexible column (the title) should get: narrower, the other columns give way."""


@dataclass(frozen=True)
class Column:
    title: str
    width: int | None = None
    """Cells wide; None for the one column that takes the remaining width."""
    justify: str = "left"
    sort: str | None = None
    """The sort field a click on its header picks (a core.sorting field id); None: not sortable."""
    squeeze: int = 0
    """When the flexible column gets less than TITLE_ROOM, columns give way in this order
    (1 first): each becomes its `narrow` form, or goes. 0: never."""
    narrow: Column | None = None
    """What the column becomes when it gives way (None: it goes)."""
    cell: int | None = None
    """Which of a row's cells it shows; None: the cell at the column's own place."""


@dataclass(frozen=True)
class Placed:
    """A column as it is drawn at one width: the row cell it shows, and its width."""

    column: Column
    cell: int
    width: int


def lay_out(columns: Sequence[Column], width: int) -> list[Placed]:
    """The columns drawn in `width` cells: the flexible one gets what the others leave, and the
    others give way (by `squeeze`) while that is less than TITLE_ROOM."""
    chosen = [(i if c.cell is None else c.cell, c) for i, c in enumerate(columns)]

    def free() -> int:
        return width - sum(c.width or 0 for _, c in chosen) - max(len(chosen) - 1, 0)

    ranks = {c.squeeze for c in columns} | {c.narrow.squeeze for c in columns if c.narrow}
    for rank in sorted(ranks - {0}):
        if free() >= TITLE_ROOM:
            break
        given_way: list[tuple[int, Column]] = []
        for at, column in chosen:
            if column.squeeze != rank:
                given_way.append((at, column))
            elif column.narrow is not None:
                narrow = column.narrow
                given_way.append((at if narrow.cell is None else narrow.cell, narrow))
        chosen = given_way
    room = max(free(), 4)
    return [Placed(c, at, room if c.width is None else c.width) for at, c in chosen]


def _spanned(placed: list[Placed], span: int) -> list[Placed]:
    """The columns of a row that is one cell from column `span` on: that column, as wide as
    it and every column after it (with the spaces between them)."""
    rest = placed[span:]
    width = sum(p.width for p in rest) + len(rest) - 1
    return [*placed[:span], Placed(rest[0].column, rest[0].cell, width)]


_NO_CELL = Text()


def _cell_segments(
    cell: Text,
    column: Placed,
    style_of: Callable[[tuple[Style | str, ...]], Style],
    segments: list[Segment],
) -> None:
    """Append one cell's segments, cut to its column with an ellipsis and padded to its width as
    `Text.truncate` and `pad_left`/`pad_right` would, each piece styled as `Text.render` would
    (the cell's style, then its spans in order)."""
    width = column.width
    plain = cell.plain
    spans = cell.spans
    if cell_len(plain) > width:
        plain = set_cell_size(plain, width - 1) + "…"
        end = len(plain)
        spans = [Span(a, min(b, end), style) for a, b, style in spans if a < end]
    pad = width - cell_len(plain)
    if pad > 0 and column.column.justify == "right":
        plain = " " * pad + plain
        spans = [Span(a + pad, b + pad, style) for a, b, style in spans]
    elif pad > 0:
        plain += " " * pad
    own: tuple[Style | str, ...] = (cell.style,) if cell.style else ()
    if not spans:
        segments.append(Segment(plain, style_of(own)))
        return
    cuts = sorted({0, len(plain), *(a for a, _, _ in spans), *(b for _, b, _ in spans)})
    for start, stop in itertools.pairwise(cuts):
        if start >= stop or stop > len(plain):
            continue
        active = tuple(style for a, b, style in spans if a <= start and b >= stop)
        segments.append(Segment(plain[start:stop], style_of(own + active)))


@dataclass(frozen=True)
class TableRow:
    key: str
    """What selecting the row means (a memory's path); stable across refreshes."""
    cells: tuple[Text, ...]
    span: int | None = None
    """From this column on (as drawn), the row is one cell across the rest of the line: the
    cell of that column, cut only at the line's end (a note under a row, its other cells empty)."""


MADE_ROWS_KEPT = 256
"""Rows a LazyRows keeps once made: screens of a tall terminal, so paging back and forth makes
little twice, while holding PgDn through 70,000 rows keeps no more than this. Each kept row is
about twenty objects every full garbage collection walks: 1,024 of them were a fifth of that
walk while PgDn was held, and making a row again costs about 25 µs."""


class LazyRows(Sequence[TableRow]):
    """Rows whose keys are known up front and whose cells are made when a row is first drawn.

    A search over 10,000 memories can match 7,000; building rich Text cells for all of them on
    every keystroke took most of a second, for the thirty rows a screen shows. Only the rows drawn
    last are kept (MADE_ROWS_KEPT): keeping every row ever drawn grew the heap each full garbage
    collection walks by a page of rows per PgDn, until one took a second at 100,000 memories.
    """

    def __init__(self, keys: Sequence[str], make: Callable[[int], TableRow]) -> None:
        self.keys = list(keys)
        self._make = make
        self._made: OrderedDict[int, TableRow] = OrderedDict()

    def __len__(self) -> int:
        return len(self.keys)

    @overload
    def __getitem__(self, index: int) -> TableRow: ...
    @overload
    def __getitem__(self, index: slice) -> list[TableRow]: ...
    def __getitem__(self, index: int | slice) -> TableRow | list[TableRow]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self.keys)
        if not 0 <= index < len(self.keys):
            raise IndexError(index)
        row = self._made.get(index)
        if row is None:
            row = self._made[index] = self._make(index)
            if len(self._made) > MADE_ROWS_KEPT:
                self._made.popitem(last=False)
        else:
            self._made.move_to_end(index)
        return row


class MemoryTable(ScrollView, can_focus=True):
    """Rows of Text cells with a cursor; user text arrives as Text, so it is never markup."""

    BINDINGS = [
        Binding("up,k", "cursor_up", "Up", show=False, id="list.up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="list.down"),
        Binding("pageup", "page_up", "Page up", show=False, id="list.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="list.page_down"),
        Binding("home,g", "first", "First", show=False, id="list.first"),
        Binding("end,G", "last", "Last", show=False, id="list.last"),
        Binding("space", "toggle_mark", "Mark", show=False, id="list.mark"),
        Binding("ctrl+a", "toggle_all_marks", "Mark all", show=False, id="list.mark_all"),
    ]

    COMPONENT_CLASSES = {
        "memory-table--header",
        "memory-table--cursor",
        "memory-table--cursor-blurred",
        "memory-table--empty",
        "memory-table--marked",
    }

    DEFAULT_CSS = """
    MemoryTable { background: $surface; overflow-x: hidden; }
    MemoryTable > .memory-table--header { text-style: bold; color: $text-muted; }
    MemoryTable > .memory-table--cursor { background: $accent 60%; text-style: bold; }
    MemoryTable > .memory-table--cursor-blurred { background: $accent 25%; }
    MemoryTable > .memory-table--empty { color: $text-muted; text-style: italic; }
    MemoryTable > .memory-table--marked { background: $secondary 35%; }
    """

    MARK = "▌"
    """Drawn in the gutter of a marked row."""

    cursor: reactive[int] = reactive(0, always_update=True, init=False)

    class Highlighted(Message):
        """The cursor moved to another row (key is None when the table is empty).

        `held`: a key moved it right after another move by key (see HELD_WITHIN), so more are
        likely on their way; what shows the row can leave its costly parts until they stop."""

        def __init__(self, table: MemoryTable, key: str | None, held: bool = False) -> None:
            super().__init__()
            self.table = table
            self.key = key
            self.held = held

        @property
        def control(self) -> MemoryTable:
            return self.table

        def can_replace(self, message: Message) -> bool:
            # A held key moves the cursor faster than a preview renders: only the row it stopped
            # on needs showing, not every row it passed.
            return isinstance(message, MemoryTable.Highlighted) and message.table is self.table

    class HeaderClicked(Message):
        """A column's header was clicked; the app decides what sorting by it means."""

        def __init__(self, table: MemoryTable, column: Column) -> None:
            super().__init__()
            self.table = table
            self.column = column

        @property
        def control(self) -> MemoryTable:
            return self.table

    class Resized(Message):
        """The table's size changed: a list whose columns depend on its width (the bootstrap
        preview's) lays them out again. Posted once the new size is known, which a screen's own
        resize comes before when a breakpoint rearranges its panes."""

        def __init__(self, table: MemoryTable) -> None:
            super().__init__()
            self.table = table

        @property
        def control(self) -> MemoryTable:
            return self.table

    class MarksChanged(Message):
        """Rows were marked or unmarked (by a key, clear_marks, or set_rows dropping keys)."""

        def __init__(self, table: MemoryTable, count: int) -> None:
            super().__init__()
            self.table = table
            self.count = count

        @property
        def control(self) -> MemoryTable:
            return self.table

    def __init__(
        self,
        columns: Sequence[Column] = (),
        *,
        id: str | None = None,
        classes: str | None = None,
        keep_hidden_marks: bool = False,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.keep_hidden_marks = keep_hidden_marks
        """Keep the marks of keys the rows no longer show (a search hides them for a while);
        the owner drops those whose item is gone (see `keep_marks`)."""
        self.columns: tuple[Column, ...] = tuple(columns)
        self.rows: Sequence[TableRow] = []
        self._keys: list[str] = []
        self.empty_message = ""
        self._marks: set[str] = set()
        self.sort_indicator: tuple[str, bool] | None = None
        """(sort field, descending) the rows are in: its column's header shows ▲ or ▼."""
        self._last_key_move = float("-inf")
        self._moving_held = False
        self._paint: tuple[int, Style, list[Placed]] | None = None

    # --- data ------------------------------------------------------------------------------------

    @property
    def selected_key(self) -> str | None:
        return self._keys[self.cursor] if self._keys else None

    def set_rows(
        self,
        rows: Sequence[TableRow],
        columns: Sequence[Column] | None = None,
        select: str | None = None,
        empty_message: str = "",
    ) -> None:
        """Replace every row, keeping the cursor on `select` (or the same index) when it can.

        LazyRows are kept as they are (only the visible rows are ever made); anything else is
        copied into a list.
        """
        if columns is not None:
            self.columns = tuple(columns)
        self.rows = rows if isinstance(rows, LazyRows) else list(rows)
        self._keys = rows.keys if isinstance(rows, LazyRows) else [row.key for row in self.rows]
        self.empty_message = empty_message
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows) + 1)
        if self._marks and self.keep_hidden_marks:
            # The marks stay; how many the rows hide may have changed (a search).
            self.post_message(self.MarksChanged(self, len(self._marks)))
        elif self._marks:
            # One C-level pass, and only while something is marked.
            kept = self._marks.intersection(self._keys)
            if kept != self._marks:
                self._marks = kept
                self.post_message(self.MarksChanged(self, len(kept)))
        index = self._index_of(select) if select is not None else None
        if index is None:
            index = min(self.cursor, max(len(self.rows) - 1, 0))
        self.cursor = index
        # The new virtual size is laid out on the next refresh; until then scrolling far down
        # would be clamped to the old list's length.
        self.call_after_refresh(self._scroll_to_cursor)
        self.refresh()

    def _index_of(self, key: str) -> int | None:
        try:
            return self._keys.index(key)
        except ValueError:
            return None

    def select_key(self, key: str) -> bool:
        """Move the cursor to the row with `key`; False (cursor unmoved) when there is none."""
        index = self._index_of(key)
        if index is None:
            return False
        self.cursor = index
        return True

    # --- marks -----------------------------------------------------------------------------------

    @property
    def marked_keys(self) -> list[str]:
        """The keys of the marked rows, in row order."""
        if not self._marks:
            return []
        return [key for key in self._keys if key in self._marks]

    @property
    def marks(self) -> frozenset[str]:
        """Every marked key, shown or (with keep_hidden_marks) hidden by the rows."""
        return frozenset(self._marks)

    @property
    def hidden_marks(self) -> int:
        """How many marked keys the rows do not show."""
        return len(self._marks.difference(self._keys)) if self._marks else 0

    def set_marks(self, keys: frozenset[str] | set[str]) -> None:
        """Mark exactly these keys (a tab's marks brought back)."""
        if set(keys) != self._marks:
            self._marks = set(keys)
            self.refresh()
            self.post_message(self.MarksChanged(self, len(self._marks)))

    def keep_marks(self, keep: Callable[[str], bool]) -> None:
        """Drop the marks of hidden keys for which `keep` says no (their item has gone)."""
        shown = set(self._keys)
        gone = {key for key in self._marks if key not in shown and not keep(key)}
        if gone:
            self._marks -= gone
            self.refresh()
            self.post_message(self.MarksChanged(self, len(self._marks)))

    def action_toggle_all_marks(self) -> None:
        self.toggle_all_marks()

    def toggle_all_marks(self) -> None:
        """Mark every row, or unmark them when every row is marked already; marks of keys the
        rows do not show stay as they are."""
        every = set(self._keys)
        if every <= self._marks:
            self._marks -= every
        else:
            self._marks |= every
        self.refresh()
        self.post_message(self.MarksChanged(self, len(self._marks)))

    def clear_marks(self) -> None:
        """Unmark every row."""
        if self._marks:
            self._marks = set()
            self.refresh()
            self.post_message(self.MarksChanged(self, 0))

    def action_toggle_mark(self) -> None:
        if not self.rows:
            return
        key = self._keys[self.cursor]
        if key in self._marks:
            self._marks.remove(key)
        else:
            self._marks.add(key)
        self.post_message(self.MarksChanged(self, len(self._marks)))
        # Moving on makes marking a run of rows one key per row; the watcher repaints.
        self._move_by_key(self.cursor + 1)

    # --- cursor ----------------------------------------------------------------------------------

    @property
    def _page(self) -> int:
        return max(self.size.height - 1, 1)

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self.rows) - 1)) if self.rows else 0

    def watch_cursor(self, value: int) -> None:
        self._scroll_to_cursor()
        self.refresh()
        self.post_message(self.Highlighted(self, self.selected_key, held=self._moving_held))

    def _move_by_key(self, index: int) -> None:
        """Move the cursor for a key, noting whether it came right after the key before."""
        now = time.monotonic()
        self._moving_held = now - self._last_key_move < HELD_WITHIN
        self._last_key_move = now
        try:
            self.cursor = index
        finally:
            self._moving_held = False

    def _scroll_to_cursor(self) -> None:
        value = self.cursor
        if value < self.scroll_y:
            self.scroll_to(y=value, animate=False, immediate=True)
        elif value >= self.scroll_y + self._page:
            self.scroll_to(y=value - self._page + 1, animate=False, immediate=True)

    def action_cursor_up(self) -> None:
        self._move_by_key(self.cursor - 1)

    def action_cursor_down(self) -> None:
        self._move_by_key(self.cursor + 1)

    def action_page_up(self) -> None:
        self._move_by_key(self.cursor - self._page)

    def action_page_down(self) -> None:
        self._move_by_key(self.cursor + self._page)

    def action_first(self) -> None:
        self._move_by_key(0)

    def action_last(self) -> None:
        self._move_by_key(len(self.rows) - 1)

    def show_sort(self, field: str | None, descending: bool = False) -> None:
        """Mark the header of the column sorted by `field` (None: no column is)."""
        self.sort_indicator = None if field is None else (field, descending)
        self.refresh()

    def column_at(self, x: int) -> Column | None:
        """The column under cell `x` of a row, as laid out at this width (None in the gutter past
        the last column). A narrowed column answers with its narrow form, which sorts alike."""
        start = len(self.MARK)
        for placed in self.laid_out():
            if start - 1 <= x < start + placed.width:
                return placed.column
            start += placed.width + 1
        return None

    def on_click(self, event: events.Click) -> None:
        if event.y == 0:
            column = self.column_at(event.x)
            if column is not None:
                self.post_message(self.HeaderClicked(self, column))
            return
        row = int(self.scroll_y) + event.y - 1
        if 0 <= row < len(self.rows):
            self.cursor = row

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows) + 1)
        self.post_message(self.Resized(self))

    # --- painting --------------------------------------------------------------------------------

    def laid_out(self, width: int | None = None) -> list[Placed]:
        """The columns as drawn at this width (the table's own when None), after the gutter."""
        if width is None:
            width = self.scrollable_content_region.width
        return lay_out(self.columns, width - len(self.MARK))

    def _line(
        self,
        cells: Sequence[Text],
        width: int,
        gutter: str = " ",
        placed_columns: list[Placed] | None = None,
    ) -> Text:
        line = Text(gutter, no_wrap=True, end="")
        if placed_columns is None:
            placed_columns = self.laid_out(width)
        for index, placed in enumerate(placed_columns):
            column, cell_width, at = placed.column, placed.width, placed.cell
            if index:
                line.append(" ")
            # Each cell's control characters show as escapes: every list of the app passes here.
            cell = visible_text(cells[at]).copy() if at < len(cells) else Text()
            cell.no_wrap = True
            cell.truncate(cell_width, overflow="ellipsis")
            if column.justify == "right":
                cell.pad_left(cell_width - cell.cell_len)
            else:
                cell.pad_right(cell_width - cell.cell_len)
            line.append_text(cell)
        return line

    def _header(self, width: int) -> Text:
        line = self._line(self._titles(width), width)
        if self.sort_indicator is None:
            return line
        field, descending = self.sort_indicator
        # The arrow takes the cell just left of the column (the gutter or the space between
        # columns), so no column gives up width for it and a title is never cut for it.
        start = 0
        for placed in self.laid_out(width):
            if placed.column.sort == field:
                arrow = "▼" if descending else "▲"
                return line[:start] + Text(arrow, style="bold") + line[start + 1 :]
            start += placed.width + 1
        return line

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every line of one paint shares, worked out once for all of them rather than for
        # each line: the widget's style alone cost a fifth of a row's drawing.
        self._paint = self._paint_now()
        try:
            return super().render_lines(crop)
        finally:
            self._paint = None

    def _paint_now(self) -> tuple[int, Style, list[Placed]]:
        # Inside the vertical scrollbar, so no row is ever wider than what shows.
        width = self.scrollable_content_region.width
        return width, self.rich_style, self.laid_out(width)

    def render_line(self, y: int) -> Strip:
        width, base, placed = self._paint or self._paint_now()
        if y == 0:
            header = self._header(width)
            header.stylize(self.get_component_rich_style("memory-table--header"))
            return self._strip(header, width, base)
        if not self.rows:
            if y == 2 and self.empty_message:
                message = Text("  " + self.empty_message, no_wrap=True, end="")
                message.stylize(self.get_component_rich_style("memory-table--empty"))
                return self._strip(message, width, base)
            return Strip.blank(width, base)
        index = int(self.scroll_y) + y - 1
        if index >= len(self.rows):
            return Strip.blank(width, base)
        key = self._keys[index]
        over: list[Style] = []
        if key in self._marks:
            over.append(self.get_component_rich_style("memory-table--marked"))
        if index == self.cursor:
            name = "memory-table--cursor" if self.has_focus else "memory-table--cursor-blurred"
            over.append(self.get_component_rich_style(name))
        gutter = self.MARK if key in self._marks else " "
        row = self.rows[index]
        if row.span is not None and row.span < len(placed):
            placed = _spanned(placed, row.span)
        return self._row_strip(row.cells, width, base, placed, gutter, over)

    def _row_strip(
        self,
        cells: Sequence[Text],
        width: int,
        base: Style,
        placed: list[Placed],
        gutter: str,
        over: list[Style],
    ) -> Strip:
        """A row's line as segments, made straight from its cells: what `_line` and `_strip`
        draw (each cell cut and padded to its column, the line's styles over the cells'), without
        building a Text of the line and rendering it, which cost most of a frame while PgDn was
        held (every row on the screen new each frame)."""
        get_style = self.app.console.get_style
        combined: dict[tuple[Style | str, ...], Style] = {}

        def style_of(styles: tuple[Style | str, ...]) -> Style:
            style = combined.get(styles)
            if style is None:
                parts = [get_style(s, default=Style.null()) for s in styles]
                style = combined[styles] = base + Style.combine([Style.null(), *parts, *over])
            return style

        between = style_of(())
        segments = [Segment(gutter, between)]
        for number, column in enumerate(placed):
            if number:
                segments.append(Segment(" ", between))
            at = column.cell
            cell = visible_text(cells[at]) if at < len(cells) else _NO_CELL
            _cell_segments(cell, column, style_of, segments)
        strip = Strip(segments)
        # A strip already `width` long is returned as it is: `crop_extend` would keep it in its
        # own cache, a cycle only a full collection frees, for every row drawn.
        return strip if strip.cell_length == width else strip.crop_extend(0, width, base)

    def _titles(self, width: int) -> list[Text]:
        # Indexed by cell, as a row's cells are: a narrow column's title sits at its cell.
        placed = self.laid_out(width)
        titles = [Text()] * (max((p.cell for p in placed), default=-1) + 1)
        for p in placed:
            titles[p.cell] = Text(p.column.title)
        return titles

    def _strip(self, text: Text, width: int, base: Style) -> Strip:
        segments = [s for s in text.render(self.app.console) if s.text != "\n"]
        strip = Strip(Segment.apply_style(segments, base), text.cell_len)
        return strip.crop_extend(0, width, base)

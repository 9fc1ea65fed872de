"""A long text shown as plain lines, drawing only the rows on screen (Textual's Line API).

Textual's Markdown widget makes a widget per block: a 60,000-character body took 45 s to lay out
on a loaded two-core machine. The reader shows a body that long with this instead, folded at the
width of the pane, so opening a 1 MB memory costs what a screenful costs.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..visible_text import visible_lines

TAB = 4


class PlainLines(ScrollView, can_focus=True):
    """Text as lines folded to the width, control characters shown as escapes, never markup."""

    DEFAULT_CSS = "PlainLines { height: 1fr; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[str] = []
        self._rows: list[tuple[int, int]] = []
        """(line, start offset) of each row on screen at the current width."""
        self._width = 0

    def set_text(self, text: str) -> None:
        """Show `text` from its first line."""
        shown = visible_lines(text).replace("\r\n", "\n").expandtabs(TAB)
        self._lines = shown.split("\n")
        self._width = 0
        self._fold()
        self.scroll_home(animate=False)

    @property
    def row_count(self) -> int:
        return len(self._rows)

    def _fold(self) -> None:
        width = self.scrollable_content_region.width
        if width == self._width or width < 2:
            # Not laid out yet (just shown): folding at one column would make a row per
            # character; on_resize folds once the width is known.
            return
        self._width = width
        self._rows = [
            (index, start)
            for index, line in enumerate(self._lines)
            for start in (range(0, len(line), width) if len(line) > width else (0,))
        ]
        self.virtual_size = Size(width, len(self._rows))
        self.refresh()

    def on_resize(self) -> None:
        self._fold()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        style = self.rich_style
        row = int(self.scroll_y) + y
        if row >= len(self._rows):
            return Strip.blank(width, style)
        index, start = self._rows[row]
        piece = self._lines[index][start : start + self._width]
        return Strip([Segment(piece, style)]).crop_extend(0, width, style)

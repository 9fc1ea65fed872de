"""Two versions of a memory side by side, line against line, with the lines that differ marked."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..core.basics.model import Memory
from .visible_text import shown
from .wrapping import Wrapped

KEPT_SIGN, KEPT_STYLE = "●", "green"
TRASHED_SIGN, TRASHED_STYLE = "✗", "bold red"
"""The copy that stays reads as the safe one; the copy going to the trash as the one to check.
The signs tell them apart without colour too."""


@dataclass(frozen=True)
class Side:
    header: str
    sign: str
    style: str
    legend: str


@dataclass(frozen=True)
class Sides:
    left: Side
    right: Side


KEEP_AND_TRASH = Sides(
    Side("kept", KEPT_SIGN, KEPT_STYLE, "only in the copy kept"),
    Side("goes to the trash", TRASHED_SIGN, TRASHED_STYLE, "only in the copy going to the trash"),
)
"""A duplicate: one copy stays, the other goes."""
ONE_OR_TWO = Sides(
    Side("1", "1", "cyan", "only in 1"),
    Side("2", "2", "magenta", "only in 2"),
)
"""A possible conflict: neither is chosen yet; `1` or `2` picks which stands."""


def legend(sides: Sides = KEEP_AND_TRASH) -> Text:
    """The line above the two columns that says what each mark means."""
    return Text.assemble(
        (f"{sides.left.sign} ", sides.left.style),
        f"{sides.left.legend}   ",
        (f"{sides.right.sign} ", sides.right.style),
        sides.right.legend,
    )


SIDE_MIN = 32
"""Columns each side needs (its sign included) for two columns side by side; narrower, the two
copies are stacked, as a unified diff."""
GUTTER = 3
"""Columns between the two sides."""


def side_by_side(kept: Memory, dropped: Memory, sides: Sides = KEEP_AND_TRASH) -> Diff:
    """The two bodies line against line (difflib) under a legend, lines that differ marked with
    their side's sign (● on the kept side and ✗ on the side going to the trash, for a
    duplicate): in two columns that share the width they are drawn in, or, where each would be
    narrower than SIDE_MIN, one under the other as a unified diff."""
    return Diff(kept.body.splitlines(), dropped.body.splitlines(), sides)


class Diff:
    """Two texts compared, laid out for the width they are drawn in."""

    def __init__(self, left: list[str], right: list[str], sides: Sides) -> None:
        self.left = left
        self.right = right
        self.sides = sides
        matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
        self.opcodes = matcher.get_opcodes()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield legend(self.sides)
        if (options.max_width - GUTTER) // 2 >= SIDE_MIN:
            yield self.columns()
        else:
            yield self.unified()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(SIDE_MIN, options.max_width)

    def columns(self) -> Table:
        sides = self.sides
        table = Table(box=None, expand=True, padding=0, show_edge=False, collapse_padding=True)
        # The note above names both files; the headers only say which side is which.
        table.add_column(width=2, no_wrap=True)
        table.add_column(Text(sides.left.header, style=sides.left.style), ratio=1)
        table.add_column(width=GUTTER, no_wrap=True)
        table.add_column(width=2, no_wrap=True)
        table.add_column(Text(sides.right.header, style=sides.right.style), ratio=1)
        for tag, i1, i2, j1, j2 in self.opcodes:
            lefts, rights = self.left[i1:i2], self.right[j1:j2]
            for n in range(max(len(lefts), len(rights))):
                left = _diff_cells(lefts, n, tag, sides.left)
                table.add_row(*left, Text(""), *_diff_cells(rights, n, tag, sides.right))
        return table

    def unified(self) -> Table:
        """Each line once where the two agree; where they differ, the left's lines, then the
        right's, each under its side's sign."""
        sides = self.sides
        table = Table.grid(expand=True)
        table.add_column(width=2, no_wrap=True)
        table.add_column(ratio=1)
        for tag, i1, i2, j1, j2 in self.opcodes:
            if tag == "equal":
                for line in self.left[i1:i2]:
                    table.add_row(*_diff_cells([line], 0, tag, sides.left))
                continue
            for line in self.left[i1:i2]:
                table.add_row(*_diff_cells([line], 0, tag, sides.left))
            for line in self.right[j1:j2]:
                table.add_row(*_diff_cells([line], 0, tag, sides.right))
        return table


def _diff_cells(lines: list[str], n: int, tag: str, side: Side) -> tuple[Text, Text | Wrapped]:
    """A line's sign and its text, folded at words (a long path or name at its separators)
    under its first line, clear of the signs."""
    if n >= len(lines):
        return Text(""), Text("")
    if tag == "equal":
        return Text(""), Wrapped(shown(lines[n]))
    return Text(f"{side.sign} ", style=side.style), Wrapped(shown(lines[n], style=side.style))

"""Two versions of a memory side by side, line against line, with the lines that differ marked."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

from ..core.basics.model import Memory
from .visible_text import shown

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


def side_by_side(kept: Memory, dropped: Memory, sides: Sides = KEEP_AND_TRASH) -> Table:
    """The two bodies in two columns, line against line (difflib), under a legend; lines that
    differ are marked with their side's sign (● on the kept side and ✗ on the side going to the
    trash, for a duplicate)."""
    left, right = kept.body.splitlines(), dropped.body.splitlines()
    table = Table(
        box=None,
        expand=True,
        padding=(0, 1),
        show_edge=False,
        title=legend(sides),
        title_justify="left",
        title_style="",
    )
    # The note above names both files; the headers only say which side is which.
    table.add_column(Text(sides.left.header, style=sides.left.style), ratio=1, overflow="fold")
    table.add_column(Text(sides.right.header, style=sides.right.style), ratio=1, overflow="fold")
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        lefts, rights = left[i1:i2], right[j1:j2]
        for n in range(max(len(lefts), len(rights))):
            table.add_row(
                _diff_cell(lefts, n, tag, sides.left.sign, sides.left.style),
                _diff_cell(rights, n, tag, sides.right.sign, sides.right.style),
            )
    return table


def _diff_cell(lines: list[str], n: int, tag: str, sign: str, style: str) -> Text:
    if n >= len(lines):
        return Text("")
    if tag == "equal":
        return shown(f"  {lines[n]}")
    return shown(f"{sign} {lines[n]}", style=style)

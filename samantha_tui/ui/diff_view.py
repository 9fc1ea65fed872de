"""Two versions of a memory side by side, line against line, with the lines that differ marked."""

from __future__ import annotations

import difflib

from rich.table import Table
from rich.text import Text

from ..core.model import Memory
from .visible_text import shown


def side_by_side(kept: Memory, dropped: Memory) -> Table:
    """The two bodies in two columns, line against line (difflib); lines that differ are marked
    `-` on the kept side and `+` on the other, and coloured."""
    left, right = kept.body.splitlines(), dropped.body.splitlines()
    table = Table(box=None, expand=True, padding=(0, 1), show_edge=False)
    # The note above names both files; the headers only say which side is which.
    table.add_column(Text("kept"), ratio=1, overflow="fold")
    table.add_column(Text("to the trash"), ratio=1, overflow="fold")
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        lefts, rights = left[i1:i2], right[j1:j2]
        for n in range(max(len(lefts), len(rights))):
            table.add_row(
                _diff_cell(lefts, n, tag, "-", "red"), _diff_cell(rights, n, tag, "+", "green")
            )
    return table


def _diff_cell(lines: list[str], n: int, tag: str, sign: str, colour: str) -> Text:
    if n >= len(lines):
        return Text("")
    if tag == "equal":
        return shown(f"  {lines[n]}")
    return shown(f"{sign} {lines[n]}", style=f"bold {colour}")

"""Two versions of a memory side by side, line against line, with the lines that differ marked."""

from __future__ import annotations

import difflib

from rich.table import Table
from rich.text import Text

from ..core.basics.model import Memory
from .visible_text import shown

KEPT_SIGN, KEPT_STYLE = "●", "green"
TRASHED_SIGN, TRASHED_STYLE = "✗", "bold red"
"""The copy that stays reads as the safe one; the copy going to the trash as the one to check.
The signs tell them apart without colour too."""


def legend() -> Text:
    """The line above the two columns that says what each mark means."""
    return Text.assemble(
        (f"{KEPT_SIGN} ", KEPT_STYLE),
        "only in the copy kept   ",
        (f"{TRASHED_SIGN} ", TRASHED_STYLE),
        "only in the copy going to the trash",
    )


def side_by_side(kept: Memory, dropped: Memory) -> Table:
    """The two bodies in two columns, line against line (difflib), under a legend; lines that
    differ are marked ● on the kept side and ✗ on the side going to the trash."""
    left, right = kept.body.splitlines(), dropped.body.splitlines()
    table = Table(
        box=None,
        expand=True,
        padding=(0, 1),
        show_edge=False,
        title=legend(),
        title_justify="left",
        title_style="",
    )
    # The note above names both files; the headers only say which side is which.
    table.add_column(Text("kept", style=KEPT_STYLE), ratio=1, overflow="fold")
    table.add_column(Text("goes to the trash", style=TRASHED_STYLE), ratio=1, overflow="fold")
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        lefts, rights = left[i1:i2], right[j1:j2]
        for n in range(max(len(lefts), len(rights))):
            table.add_row(
                _diff_cell(lefts, n, tag, KEPT_SIGN, KEPT_STYLE),
                _diff_cell(rights, n, tag, TRASHED_SIGN, TRASHED_STYLE),
            )
    return table


def _diff_cell(lines: list[str], n: int, tag: str, sign: str, style: str) -> Text:
    if n >= len(lines):
        return Text("")
    if tag == "equal":
        return shown(f"  {lines[n]}")
    return shown(f"{sign} {lines[n]}", style=style)

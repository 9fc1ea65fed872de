"""The bootstrap preview's columns share the list's width: Why grows with it, the title keeps
its share, and Why goes only where neither would have room to read."""

from __future__ import annotations

from samantha_tui.ui.bootstrap_rows import (
    FIXED,
    NARROW_COLUMNS,
    TITLE_MIN,
    TITLE_SHARE,
    WHY_MIN,
    plan_columns,
)
from samantha_tui.ui.widgets.memory_table import lay_out


def widths(width: int, why_wanted: int) -> dict[str, int]:
    return {p.column.title: p.width for p in lay_out(plan_columns(width, why_wanted), width)}


def test_why_is_as_wide_as_its_longest_note_where_the_title_keeps_its_share() -> None:
    # 200 columns: the list is about 116 cells inside its scrollbar.
    assert widths(116, 45) == {"": 2, "Title": 53, "Why": 45, "Tokens": 6, "Total": 6}
    assert widths(116, 12)["Why"] == 12, "no wider than the notes"
    assert widths(116, 1)["Why"] == len("Why"), "never narrower than its header"


def test_a_long_note_is_cut_where_the_title_would_get_too_little() -> None:
    # 80 columns, the side panel under the list: 77 cells.
    got = widths(77, 70)
    title = max(TITLE_MIN, round((77 - FIXED) * TITLE_SHARE))
    assert got["Title"] == title and got["Why"] == 77 - FIXED - title
    # Wider lists give the title at least its share of what the two share.
    got = widths(200, 150)
    assert got["Title"] == round((200 - FIXED) * TITLE_SHARE)
    assert got["Title"] + got["Why"] == 200 - FIXED


def test_why_goes_only_when_neither_would_have_room() -> None:
    assert widths(FIXED + TITLE_MIN + WHY_MIN, 40)["Why"] == WHY_MIN
    assert plan_columns(FIXED + TITLE_MIN + WHY_MIN - 1, 40) == NARROW_COLUMNS
    assert plan_columns(FIXED + TITLE_MIN + WHY_MIN - 1, 5) != NARROW_COLUMNS, "a short note fits"

"""Sorting memories: each field's key, stability, missing values last in both directions."""

from __future__ import annotations

import datetime as dt
import itertools

from hypothesis import given
from hypothesis import strategies as st

from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.basics.sorting import (
    KEYS,
    SortField,
    SortOrder,
    as_day,
    sort_memories,
    updated_day,
)
from samantha_tui.ui import rows


def memory(path: str, **fields) -> Memory:
    frontmatter = fields.pop("frontmatter", {})
    fields.setdefault("title", path)
    return Memory(kind=Kind.SHORT_TERM, path=path, frontmatter=frontmatter, **fields)


def paths(memories: list[Memory]) -> list[str]:
    return [m.path for m in memories]


def test_dates_newest_first_and_undated_last_in_both_directions() -> None:
    items = [
        memory("a", date=dt.date(2026, 1, 2)),
        memory("none1"),
        memory("b", date=dt.date(2026, 3, 1)),
        memory("none2"),
        memory("c", date=dt.date(2025, 12, 31)),
    ]
    down = sort_memories(items, SortOrder(SortField.DATE, True))
    up = sort_memories(items, SortOrder(SortField.DATE, False))
    assert paths(down) == ["b", "a", "c", "none1", "none2"]
    assert paths(up) == ["c", "a", "b", "none1", "none2"]


def test_equal_values_keep_their_input_order_in_both_directions() -> None:
    items = [memory(p, importance="high") for p in ("x", "a", "m")] + [
        memory("low", importance="low")
    ]
    assert paths(sort_memories(items, SortOrder(SortField.IMPORTANCE, True))) == [
        "x",
        "a",
        "m",
        "low",
    ]
    assert paths(sort_memories(items, SortOrder(SortField.IMPORTANCE, False))) == [
        "low",
        "x",
        "a",
        "m",
    ]


def test_importance_ranks_words_and_puts_unknown_last() -> None:
    items = [
        memory("odd", importance=None, frontmatter={"importance": "urgent"}),
        memory("low", importance="low"),
        memory("high", importance="high"),
        memory("medium", importance="medium"),
    ]
    order = SortOrder(SortField.IMPORTANCE, True)
    assert paths(sort_memories(items, order)) == ["high", "medium", "low", "odd"]


def test_titles_ignore_case_and_references_count() -> None:
    items = [
        memory("1", title="beta", reference_count=3),
        memory("2", title="Alpha", reference_count=10),
        memory("3", title="alpha", reference_count=0),
    ]
    assert paths(sort_memories(items, SortOrder(SortField.TITLE, False))) == ["2", "3", "1"]
    assert paths(sort_memories(items, SortOrder(SortField.REFERENCES, True))) == ["2", "1", "3"]


def test_updated_reads_updated_then_last_updated_then_the_date() -> None:
    assert updated_day(memory("a", frontmatter={"updated": dt.date(2026, 2, 15)})) == dt.date(
        2026, 2, 15
    )
    # samantha-llm's generator writes an ISO timestamp; a quoted date is text to the parser.
    stamp = memory("b", frontmatter={"last_updated": "2026-02-05T12:00:00"})
    assert updated_day(stamp) == dt.date(2026, 2, 5)
    assert updated_day(memory("c", frontmatter={"updated": "2026-03-01"})) == dt.date(2026, 3, 1)
    dated = memory("d", date=dt.date(2026, 1, 1), frontmatter={"updated": "soon"})
    assert updated_day(dated) == dt.date(2026, 1, 1)
    assert updated_day(memory("e")) is None
    assert as_day(dt.datetime(2026, 4, 1, 9, 30)) == dt.date(2026, 4, 1)
    assert as_day("2026-02-30") is None


def test_picking_the_same_field_flips_and_another_starts_natural() -> None:
    order = SortOrder(SortField.DATE, True)
    assert order.picked(SortField.DATE) == SortOrder(SortField.DATE, False)
    assert order.picked(SortField.TITLE) == SortOrder(SortField.TITLE, False)
    assert order.picked(SortField.REFERENCES) == SortOrder(SortField.REFERENCES, True)
    assert order.describe() == "Date ▼ (newest first)"


def test_the_app_default_keeps_the_old_order() -> None:
    items = [
        memory("s/2026-06-14_a.md", date=dt.date(2026, 6, 14)),
        memory("s/2026-06-14_b.md", date=dt.date(2026, 6, 14)),
        memory("s/undated_a.md"),
        memory("s/undated_b.md"),
        memory("s/2026-01-01.md", date=dt.date(2026, 1, 1)),
    ]
    old = sorted(items, key=lambda m: (m.date.toordinal() if m.date else 0, m.path), reverse=True)
    assert paths(rows.sort_memories(Kind.SHORT_TERM, items)) == paths(old)
    assert paths(rows.sort_memories(Kind.LONG_TERM, items)) == sorted(paths(items))


_days = st.one_of(st.none(), st.dates(dt.date(2020, 1, 1), dt.date(2030, 12, 31)))
_memories = st.lists(
    st.builds(
        lambda i, day, imp, refs, title, upd: memory(
            f"m{i}",
            date=day,
            importance=imp,
            reference_count=refs,
            title=title,
            frontmatter={"updated": upd} if upd else {},
        ),
        st.integers(0, 10**6),
        _days,
        st.sampled_from([None, "low", "medium", "high"]),
        st.integers(0, 20),
        st.text(max_size=8),
        _days,
    ),
    max_size=40,
    unique_by=lambda m: m.path,
)


@given(_memories, st.sampled_from(list(SortField)), st.booleans())
def test_a_sort_is_an_ordered_permutation_with_missing_values_last(
    memories: list[Memory], field: SortField, descending: bool
) -> None:
    result = sort_memories(memories, SortOrder(field, descending))
    assert sorted(paths(result)) == sorted(paths(memories))
    keys = [KEYS[field](m) for m in result]
    present = [k for k in keys if k is not None]
    assert keys[: len(present)] == present  # every missing value after every present one
    assert present == sorted(present, reverse=descending)
    # Stable: memories with equal keys keep their input order.
    position = {m.path: i for i, m in enumerate(memories)}
    for before, after in itertools.pairwise(result):
        if KEYS[field](before) == KEYS[field](after):
            assert position[before.path] < position[after.path]

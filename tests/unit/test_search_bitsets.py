"""The bitsets the query path works on: slots in and out unchanged, and postings that cross
from slots to a bitset (or back) as memories come and go answer as a fresh index does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from samantha_tui.core.views.search import SPARSE, SearchIndex, bitset, flags_of, slots_of, union_of

from ..conftest import TODAY
from ..tiers import examples
from .test_search import mem

SLOTS = st.sets(st.integers(min_value=0, max_value=5000), max_size=400)


@given(SLOTS)
def test_slots_go_into_a_bitset_and_come_back_out_in_order(slots: set[int]) -> None:
    bits = bitset(sorted(slots))
    assert bits.bit_count() == len(slots)
    assert slots_of(bits) == sorted(slots)
    flags = flags_of(bits, 5001)
    assert len(flags) == 5001
    assert [slot for slot, flag in enumerate(flags) if flag] == sorted(slots)


@given(st.lists(SLOTS, max_size=6), st.integers(min_value=0, max_value=6))
def test_a_union_of_slots_and_bitsets_holds_every_slot_once(
    groups: list[set[int]], cut: int
) -> None:
    postings = [bitset(g) if i < cut else tuple(sorted(g)) for i, g in enumerate(groups)]
    assert slots_of(union_of(postings)) == sorted(set().union(*groups))


def answers(index: SearchIndex, query: str) -> list[tuple[str, float, tuple]]:
    result = index.search(query, None)
    return [(hit.path, hit.score, hit.title_spans) for hit in result.hits]


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(min_value=0, max_value=2 * SPARSE + 10), st.data())
def test_updates_across_the_sparse_limit_answer_as_a_fresh_build(count: int, data) -> None:
    memories = [mem(f"m{i}", f"gateway note {i}", body="retry budget") for i in range(count)]
    index = SearchIndex.build(memories[: count // 2], TODAY)
    for memory in memories[count // 2 :]:
        index.updated(memory)
    gone = data.draw(st.sets(st.integers(min_value=0, max_value=max(count - 1, 0)), max_size=count))
    for i in gone:
        index.removed(memories[i].path)
    fresh = SearchIndex.build([m for i, m in enumerate(memories) if i not in gone], TODAY)
    for query in ("gateway", "gatway", "retry budget", "note 3", '"gateway note"', "-retry"):
        assert answers(index, query) == answers(fresh, query)
        assert index.search(query).total == fresh.search(query).total

"""A filter only takes memories away: what it lets through is ranked as the unfiltered query
ranks it (the same hits, scores, spans and order), whatever the words and the limit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from samantha_tui.core.model import Kind
from samantha_tui.core.search import SearchIndex

from .conftest import TODAY
from .test_search_store_properties import LIMITS, SETTINGS, STEMS, queries, records

FILTERS = {
    "importance:high": lambda m: str(m.importance).casefold() == "high",
    "-critical": lambda m: not m.critical,
    "kind:short": lambda m: m.kind is Kind.SHORT_TERM,
    "-type:decision": lambda m: str(m.type).casefold() != "decision",
}


@SETTINGS
@given(records(STEMS), queries(), st.sampled_from(sorted(FILTERS)), LIMITS)
def test_a_filter_keeps_the_unfiltered_ranking_of_what_it_lets_through(
    memories, text, extra, limit
) -> None:
    index = SearchIndex.build(memories, TODAY)
    by_path = {m.path: m for m in memories}
    unfiltered = index.search(text)
    assert unfiltered.error is None
    kept = [hit for hit in unfiltered.hits if FILTERS[extra](by_path[hit.path])]
    filtered = index.search(f"{text} {extra}", limit)
    assert filtered.total == len(kept)
    assert list(filtered.hits) == kept[:limit]

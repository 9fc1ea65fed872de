"""Shortcuts of the ranking change nothing: a limit shows the first hits of the whole ranking, and
a filter only takes memories away, ranking what it lets through as the unfiltered query does (the
same hits, scores, spans and order), whatever the words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.search import SearchIndex

from ..conftest import TODAY
from .test_search import mem
from .test_search_store_properties import LIMITS, SETTINGS, STEMS, WORDS, queries, records

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


_WORDS = st.lists(st.sampled_from(WORDS), min_size=2, max_size=4)


@SETTINGS
@given(records(STEMS), _WORDS, st.sampled_from([1, 2, 3, 5]))
def test_a_limit_shows_the_first_hits_of_the_whole_ranking(memories, words, limit) -> None:
    index = SearchIndex.build(memories, TODAY)
    text = " ".join(word.casefold() for word in words)
    whole = index.search(text)
    shown = index.search(text, limit)
    assert shown.total == whole.total
    assert shown.hits == whole.hits[:limit]


def test_a_memory_with_fewer_head_matches_still_outranks_weaker_ones_with_more() -> None:
    # Both words in the topics score 51.0; one word in the title and one in the body 55.2: the
    # memory the query matched outside the body by fewer words must still come first.
    both_in_topics = mem("m1", "Other", topics=("alpha", "beta"))
    title_and_body = mem("m2", "Alpha", body="beta")
    only_body = mem("m3", "Third", body="alpha beta")
    index = SearchIndex.build([both_in_topics, title_and_body, only_body], TODAY)
    whole = index.search("alpha beta")
    assert [(hit.path, hit.score) for hit in whole.hits] == [
        (title_and_body.path, 55.2),
        (both_in_topics.path, 51.0),
        (only_body.path, 25.5),
    ]
    for limit in (1, 2):
        assert index.search("alpha beta", limit).hits == whole.hits[:limit]

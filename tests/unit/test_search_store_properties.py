"""The search tables answer every query exactly as an in-memory SearchIndex of the same records,
and tables kept in step change by change hold what a rebuild would write."""

from __future__ import annotations

import datetime as dt
import functools
import sqlite3
from array import array

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.views.search import SCOPES, SearchIndex
from samantha_tui.core.views.search_store import SearchStore

from ..conftest import TODAY
from ..tiers import examples

WORDS = (
    "gateway", "config", "loader", "retry", "budget", "kafka", "cli", "ci", "decision", "deploy",
    "staging", "straße", "İstanbul", "x1234", "note", "auth", "token", "tokens", "ab",
)  # fmt: skip
PROJECTS = ("atlas", "mobile-sync", None)
TYPES = ("decision", "learning", "runbook", None)

_words = st.lists(st.sampled_from(WORDS), min_size=0, max_size=5)
# Made once: a strategy made inside a draw is checked anew every time, which costs more than the
# draw itself.
_kinds = st.sampled_from(list(Kind))
_days = st.one_of(st.none(), st.integers(min_value=-5, max_value=800))
_body = st.lists(st.sampled_from(WORDS), max_size=12)
_importance = st.sampled_from(("high", "medium", "low", None))
_references = st.integers(min_value=0, max_value=12)
_projects = st.sampled_from(PROJECTS)
_topics = st.lists(st.sampled_from(WORDS), max_size=3)
_types = st.sampled_from(TYPES)


@functools.cache
def _stem_lists(stems: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(stems, min_size=0, max_size=12, unique=True)


@st.composite
def records(draw: st.DrawFn, stems: st.SearchStrategy[str]) -> list[Memory]:
    chosen = draw(_stem_lists(stems))
    return [record(draw, stem) for stem in chosen]


def record(draw: st.DrawFn, stem: str) -> Memory:
    kind = draw(_kinds)
    title = " ".join(draw(_words)) or stem
    days = draw(_days)
    return Memory(
        kind=kind,
        path=f"{kind.folder}/{stem}.md",
        title=title.title() if draw(st.booleans()) else title,
        body=" ".join(draw(_body)),
        date=TODAY - dt.timedelta(days=days) if days is not None else None,
        importance=draw(_importance),
        critical=draw(st.booleans()),
        reference_count=draw(_references),
        project=draw(_projects),
        topics=tuple(draw(_topics)),
        type=draw(_types),
    )


STEMS = st.sampled_from([f"2026-01-{n:02d}_{w}" for n, w in enumerate(WORDS, start=1)] + ["\udcff"])


def _typo(word: str, at: int) -> str:
    at %= len(word)
    return word[:at] + word[at + 1 :] if len(word) > 4 else word + "s"


@st.composite
def queries(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        word = draw(st.sampled_from(WORDS)).casefold()
        shape = draw(st.integers(min_value=0, max_value=5))
        if shape == 1:
            word = word[: draw(st.integers(min_value=1, max_value=len(word)))]
        elif shape == 2:
            word = _typo(word, draw(st.integers(min_value=0, max_value=9)))
        elif shape == 3:
            word = f'"{word} {draw(st.sampled_from(WORDS))}"'
        elif shape == 4:
            word = "-" + word
        parts.append(word)
    filters = (
        "importance:high", "-type:decision", "topic:ci", "project:atlas", "kind:short",
        "kind:proc", "critical", "-critical", "refs:>=5", "age:<30d", "age:>=1y", "date:2026-01",
        "date:>=2025", "tag:kafka",
    )  # fmt: skip
    parts += draw(st.lists(st.sampled_from(filters), max_size=2))
    return " ".join(draw(st.permutations(parts)))


def _store(memories: list[Memory]) -> SearchStore:
    store = SearchStore.open(sqlite3.connect(":memory:"), TODAY)
    store.sync(memories)
    return store


LIMITS = st.sampled_from([None, 0, 1, 2, 5])
SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(records(STEMS), st.lists(queries(), min_size=1, max_size=4), LIMITS)
def test_the_store_answers_as_the_in_memory_index(memories, texts, limit) -> None:
    index = SearchIndex.build(memories, TODAY)
    store = _store(memories)
    for text in texts:
        assert store.search(text, limit) == index.search(text, limit), text


@SETTINGS
@given(records(STEMS), queries(), LIMITS)
def test_a_split_search_of_the_store_is_the_in_memory_one(memories, text, limit) -> None:
    index = SearchIndex.build(memories, TODAY)
    store = _store(memories)
    among = {m.path for m in memories[::2]} | {"nowhere.md"}
    expected = index.search_split(text, SCOPES, limit, among)
    assert store.search_split(text, SCOPES, limit, among) == expected


def _contents(db: sqlite3.Connection) -> dict[str, object]:
    """The tables with every id replaced by its record's path: what a change must leave."""
    paths = dict(db.execute("SELECT id, path FROM search_docs"))
    store = SearchStore(db, TODAY)

    def named(blob: bytes) -> frozenset[bytes]:
        return frozenset(paths[i] for i in array("I", blob))

    return {
        "docs": {row[1]: row[2:] for row in db.execute("SELECT * FROM search_docs")},
        "postings": {
            (f, t): named(ids) for f, t, ids in db.execute("SELECT * FROM search_postings")
        },
        "facets": {(f, v): named(ids) for f, v, ids in db.execute("SELECT * FROM search_facets")},
        "order": [paths[i] for i in store._order_ids()],
        "meta": {
            key: value
            for key, value in db.execute("SELECT * FROM search_meta")
            if key not in ("order", "fingerprint")
        },
    }


@SETTINGS
@given(records(STEMS), records(STEMS), st.lists(queries(), min_size=1, max_size=3), LIMITS)
def test_changes_kept_in_step_equal_a_rebuild(before, after, texts, limit) -> None:
    # Records of the same path in both sets are changes; only before's are removals.
    kept = _store(before)
    kept.apply(after, [m.path for m in before if m.path not in {a.path for a in after}])
    fresh = _store(after)
    assert _contents(kept._db) == _contents(fresh._db)
    index = SearchIndex.build(after, TODAY)
    for text in texts:
        assert kept.search(text, limit) == index.search(text, limit), text


@SETTINGS
@given(records(STEMS), records(STEMS), queries())
def test_a_sync_brings_any_tables_to_the_records(before, after, text) -> None:
    store = _store(before)
    store.sync(after)
    assert store.search(text) == SearchIndex.build(after, TODAY).search(text)
    assert _contents(store._db) == _contents(_store(after)._db)

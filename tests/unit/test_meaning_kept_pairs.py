"""The pairs of a tree state are kept while what they are read from is the same: a change of
a memory's metadata brings only their digests up to date; a change of its words, date or
project compares again."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from samantha_tui.core.views.meaning import pairs
from samantha_tui.core.views.meaning.analysis import analyse
from samantha_tui.core.views.meaning.kept_pairs import KeptPairs

from .test_meaning_pairs import MEMORIES, NPM, PNPM


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the pair pass ran."""
    ran: list[int] = []
    real = pairs.similar_pairs

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        ran.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("samantha_tui.core.views.meaning.kept_pairs.similar_pairs", counted)
    return ran


def _at(memories: tuple, path: str, **changes: object) -> tuple:
    return tuple(dataclasses.replace(m, **changes) if m.path == path else m for m in memories)


def test_a_new_digest_alone_keeps_the_pairs_and_carries_the_new_digest(
    passes: list[int],
) -> None:
    first = analyse(MEMORIES)
    assert isinstance(first, tuple) and first and len(passes) == 1
    # `c` on one memory: a new file (critical: true), its words the same.
    marked = _at(MEMORIES, PNPM, critical=True, digest="d-after-c")
    again = analyse(marked)
    assert len(passes) == 1, "nothing the pairs read has changed"
    assert isinstance(again, tuple)
    assert [(p.key, p.verdict, p.meaning) for p in again] == [
        (p.key, p.verdict, p.meaning) for p in first
    ]
    for pair in again:
        assert pair.first_digest == next(m.digest for m in marked if m.path == pair.first)
        assert pair.second_digest == next(m.digest for m in marked if m.path == pair.second)
    assert any(PNPM in p.key and "d-after-c" in (p.first_digest, p.second_digest) for p in again)


@pytest.mark.parametrize(
    "change",
    [
        {"body": "# Package manager\n\nThe weather is fine today.\n"},
        {"title": "Weather"},
        {"topics": ("weather",)},
        {"date": dt.date(2026, 1, 1)},
        {"project": "gateway"},
        {"type": "session_analysis"},
    ],
)
def test_a_change_of_what_the_pairs_read_compares_again(
    passes: list[int], change: dict[str, object]
) -> None:
    analyse(MEMORIES)
    analyse(_at(MEMORIES, NPM, digest="d-changed", **change))
    assert len(passes) == 2


def test_another_engine_compares_again(passes: list[int]) -> None:
    from samantha_tui.core.views.meaning.kept import KEPT
    from samantha_tui.core.views.meaning.model import deferred_engine
    from samantha_tui.core.views.meaning.vectors import cache_name

    engine = deferred_engine()
    kept = KeptPairs()
    chosen, vectors = KEPT.of(MEMORIES, engine, None)  # type: ignore[arg-type]
    kept.of(chosen, vectors, cache_name(engine))  # type: ignore[arg-type]
    kept.of(chosen, vectors, cache_name(engine))  # type: ignore[arg-type]
    kept.of(chosen, vectors, "another model")
    assert len(passes) == 2

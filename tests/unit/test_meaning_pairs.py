"""Pairs, related memories and the one entry point, on real trees and the real model."""

from __future__ import annotations

import numpy as np
import pytest

from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.views.meaning import CONFLICT, DUPLICATE, Related, SimilarPair, pairs
from samantha_tui.core.views.meaning.analysis import analyse, related_to
from samantha_tui.core.views.meaning.kept_pairs import KEPT_PAIRS
from samantha_tui.core.views.meaning.model import Engine, load_engine
from samantha_tui.core.views.meaning.pairs import comparable, similar_pairs
from samantha_tui.core.views.meaning.polarity import claims_of
from samantha_tui.core.views.meaning.related import related
from samantha_tui.core.views.meaning.text import MAX_CHARS, embedding_text, texts_of
from samantha_tui.core.views.meaning.vectors import Vectors, vectors_for, words_of

from ..conftest import LT, ST, TASKS

PNPM = f"{ST}/2026-06-01_pnpm.md"
NPM = f"{ST}/2026-06-02_npm.md"
PNPM_AGAIN = f"{LT}/tooling/pnpm.md"
UTC = f"{ST}/2026-06-03_utc.md"
STATUS = f"{TASKS}/gateway/status.md"


def note(path: str, title: str, body: str, kind: Kind = Kind.SHORT_TERM) -> Memory:
    return Memory(kind, path, title, body=f"# {title}\n\n{body}\n", digest=f"d-{path}")


MEMORIES = (
    note(PNPM, "Package manager", "Always use pnpm, never npm."),
    note(NPM, "Package manager", "Never use pnpm; this repo uses npm."),
    note(PNPM_AGAIN, "Package manager", "Always use pnpm, never npm!", Kind.LONG_TERM),
    note(UTC, "Dates in UTC", "Store every timestamp in UTC and show local time."),
    note(STATUS, "Package manager", "Always use pnpm, never npm.", Kind.CURRENT_TASKS),
    note(f"{ST}/index.md", "Package manager", "Always use pnpm, never npm."),
)


@pytest.fixture(scope="module")
def found() -> tuple[SimilarPair, ...]:
    result = analyse(MEMORIES)
    assert isinstance(result, tuple)
    return result


def test_a_copy_is_a_duplicate_and_the_opposite_rule_a_conflict_with_its_cues(
    found: tuple[SimilarPair, ...],
) -> None:
    by_key = {pair.key: pair for pair in found}
    copy = by_key[frozenset((PNPM, PNPM_AGAIN))]
    assert copy.verdict == DUPLICATE and copy.cues == () and copy.meaning > 0.95
    conflict = by_key[frozenset((PNPM, NPM))]
    assert conflict.verdict == CONFLICT
    assert any("pnpm" in cue for cue in conflict.cues)
    assert (conflict.first_digest, conflict.second_digest) == (f"d-{conflict.first}", f"d-{NPM}")
    assert frozenset((NPM, PNPM_AGAIN)) in by_key
    assert all(UTC not in pair.key for pair in found)


def test_status_files_and_indexes_are_never_compared_nor_a_file_with_itself(
    found: tuple[SimilarPair, ...],
) -> None:
    assert {path for pair in found for path in pair.key} == {PNPM, NPM, PNPM_AGAIN}
    assert all(pair.first < pair.second for pair in found)
    assert [m.path for m in comparable(MEMORIES)] == sorted((PNPM, NPM, PNPM_AGAIN, UTC))


def test_pairs_are_deterministic_best_first_and_the_same_in_blocks(
    found: tuple[SimilarPair, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert analyse(tuple(reversed(MEMORIES))) == found
    assert [p.meaning for p in found] == sorted((p.meaning for p in found), reverse=True)
    monkeypatch.setattr(pairs, "BLOCK", 1)
    monkeypatch.setattr(pairs, "PER_MEMORY", 1)
    KEPT_PAIRS.forget()  # the same memories, other thresholds: not the pairs kept
    narrow = analyse(MEMORIES)
    assert isinstance(narrow, tuple)
    # One candidate per memory, its closest: fewer pairs, each judged as in full (the cosines
    # of other block shapes may differ in their last bits).
    judged = {(p.key, p.verdict, p.cues) for p in found}
    assert narrow and {(p.key, p.verdict, p.cues) for p in narrow} <= judged


def test_blocked_products_find_what_the_whole_matrix_does() -> None:
    rng = np.random.default_rng(3)
    base = rng.normal(size=(40, 256)).astype(np.float32)
    twins = base + rng.normal(scale=0.05, size=base.shape).astype(np.float32)
    matrix = np.vstack([base, twins])
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    memories = [note(f"{ST}/m{i:03}.md", f"m{i}", "x") for i in range(80)]
    words = np.array([words_of(embedding_text(m)) for m in memories])
    vectors = Vectors(tuple(m.path for m in memories), tuple("" for _ in memories), matrix, words)
    expected = {
        frozenset((memories[i].path, memories[j].path))
        for i in range(80)
        for j in range(i + 1, 80)
        if matrix[i] @ matrix[j] >= pairs.DUPLICATE_MEANING
    }
    old = pairs.BLOCK
    try:
        pairs.BLOCK = 7
        assert {p.key for p in similar_pairs(memories, vectors)} == expected
    finally:
        pairs.BLOCK = old
    assert len(expected) == 40


def test_related_lists_the_closest_others_best_first() -> None:
    engine = load_engine()
    assert isinstance(engine, Engine)
    vectors = vectors_for(comparable(MEMORIES), engine)
    near = related(PNPM, vectors, k=2)
    assert [r.path for r in near] == [PNPM_AGAIN, NPM]
    assert near[0].meaning >= near[1].meaning and all(r.path != PNPM for r in near)
    assert related("nowhere.md", vectors) == () and related(PNPM, vectors, k=0) == ()
    via_entry = related_to(PNPM, MEMORIES, k=1)
    assert via_entry == (Related(PNPM_AGAIN, near[0].meaning),)
    assert related_to(STATUS, MEMORIES) == ()


def test_the_embedded_text_is_title_topics_and_prose_without_code_and_bounded() -> None:
    memory = Memory(
        Kind.SHORT_TERM,
        f"{ST}/x.md",
        "Deploy notes",
        body="# Deploy notes\n\nRun **make deploy** [docs](http://x.example)\n\n"
        "```sh\nrm -rf /tmp/secret-build\n```\n\n| a | b |\n|---|---|\n" + "word " * 2000,
        topics=("ci", "deploy"),
    )
    text = embedding_text(memory)
    assert text.startswith("Deploy notes . ci deploy . Run make deploy docs")
    assert "rm -rf" not in text and "http" not in text and "**" not in text
    assert text.count("Deploy notes") == 1 and len(text) == MAX_CHARS


def test_thresholds_rise_with_length_from_the_short_ones_to_the_long_ones() -> None:
    short = (pairs.DUPLICATE_MEANING, pairs.CONFLICT_MEANING, pairs.DUPLICATE_WITH_WORDS[0])
    assert pairs.thresholds(0) == pairs.thresholds(pairs.SHORT_WORDS) == short
    assert pairs.thresholds(pairs.LONG_WORDS) == pairs.thresholds(500) == pairs.LONG
    middle = pairs.thresholds((pairs.SHORT_WORDS + pairs.LONG_WORDS) // 2)
    assert all(a < b < c for a, b, c in zip(short, middle, pairs.LONG, strict=True))
    # A cosine that makes two short texts duplicates does not make two long ones.
    nothing = claims_of("Store every timestamp in UTC.")
    assert pairs.verdict_of(0.79, 0.0, lambda: (nothing, nothing), 10) == (DUPLICATE, ())
    assert pairs.verdict_of(0.79, 90.0, lambda: pytest.fail("no conflict possible"), 200) is None


def test_the_claims_text_keeps_names_whole_and_the_embedded_text_is_unchanged() -> None:
    memory = note(f"{ST}/skew.md", "JWT leeway", "Set `clock_skew_seconds: 30` and *always* log.")
    embedded, claimed = texts_of(memory)
    assert (
        embedded
        == embedding_text(memory)
        == "JWT leeway . Set clock skew seconds: 30 and always log."
    )
    assert claimed == "JWT leeway . Set clock_skew_seconds: 30 and always log."

"""The pass's candidates and verdicts against a straightforward reference, on generated trees."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from bench.generate import generate
from bench.realistic import generate_realistic
from samantha_tui.core.basics.model import Memory
from samantha_tui.core.views.meaning import SimilarPair
from samantha_tui.core.views.meaning.model import Engine, load_engine
from samantha_tui.core.views.meaning.pairs import (
    CANDIDATE_MEANING,
    COPY_WORDING,
    PER_MEMORY,
    STANDOUT,
    _background,
    comparable,
    judge,
    similar_pairs,
)
from samantha_tui.core.views.meaning.text import texts_of
from samantha_tui.core.views.meaning.vectors import MemoryVectors, vectors_for
from samantha_tui.core.writing.store import Store

TODAY = dt.date(2026, 6, 15)


def reference(chosen: list[Memory], matrix: np.ndarray) -> list[SimilarPair]:
    """Every memory's closest PER_MEMORY others at CANDIDATE_MEANING or more, by a sort of the
    whole cosine matrix, each pair judged once, those that stand out from neither memory's
    background (pairs.STANDOUT) left out unless worded as copies."""
    cosines = matrix @ matrix.T
    np.fill_diagonal(cosines, -1.0)
    background = _background(cosines)
    candidates: dict[tuple[int, int], float] = {}
    for i, row in enumerate(cosines):
        closest = sorted((j for j in range(len(chosen)) if j != i), key=lambda j: -row[j])
        for j in closest[:PER_MEMORY]:
            if row[j] >= CANDIDATE_MEANING:
                candidates[(min(i, j), max(i, j))] = float(row[j])
    found: list[SimilarPair] = []
    for (i, j), meaning in sorted(candidates.items()):
        pair = judge(chosen[i], chosen[j], texts_of(chosen[i])[0], texts_of(chosen[j])[0], meaning)
        standout = meaning >= max(background[i], background[j]) + STANDOUT
        if pair is not None and (standout or pair.wording >= COPY_WORDING):
            found.append(pair)
    return found


@pytest.mark.parametrize("make", [generate, generate_realistic], ids=["uniform", "realistic"])
def test_the_pass_finds_what_a_sort_of_the_whole_matrix_finds(
    make: Callable[[Path, int, dt.date], Path], tmp_path: Path
) -> None:
    engine = load_engine()
    assert isinstance(engine, Engine), engine
    store = Store(make(tmp_path / "tree", 1000, TODAY), lambda: TODAY)
    store.scan()
    chosen = comparable(store.tree.memories)
    vectors = vectors_for(chosen, engine, MemoryVectors())
    got = similar_pairs(chosen, vectors)
    store.close()
    expected = reference(chosen, vectors.matrix)
    # Enough to compare: both trees have pairs (the topic-model tree, drawn from the demo's
    # sentences, 9 since a setting given two values counts only between memories as alike as a
    # duplicate; the uniform tree hundreds).
    assert len(got) >= 5
    assert {(p.first, p.second, p.verdict, p.cues) for p in got} == {
        (p.first, p.second, p.verdict, p.cues) for p in expected
    }
    by_key = {(p.first, p.second): p for p in expected}
    for pair in got:
        assert pair.meaning == pytest.approx(by_key[pair.first, pair.second].meaning, abs=1e-5)
        assert pair.wording == by_key[pair.first, pair.second].wording

"""One tree state's vectors are read once and kept as a matrix; a new state reads only what
changed; the related memories come out as a sort of the whole tree would give them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from samantha_tui.core.views.meaning import Related
from samantha_tui.core.views.meaning.kept import KeptVectors
from samantha_tui.core.views.meaning.related import MIN_MEANING, related
from samantha_tui.core.views.meaning.vectors import Vectors

from .test_meaning_vectors import Counting, CountingCache, scanned


def test_a_tree_state_is_read_once_and_a_new_one_reads_only_what_changed(tmp_path: Path) -> None:
    store = scanned(tmp_path)
    memories = store.tree.memories
    kept, engine, back = KeptVectors(), Counting(), CountingCache()
    chosen, first = kept.of(memories, engine, back)
    assert len(chosen) == len(memories) and len(engine.texts) == len(memories)
    asked = back.asked
    assert kept.of(memories, engine, back)[1] is first
    assert back.asked == asked, "the same state is not looked up again"

    changed = dataclasses.replace(memories[0], body=memories[0].body + "\nOne more line.\n")
    changed = dataclasses.replace(changed, digest="changed-digest")
    _, second = kept.of((changed, *memories[1:]), engine, back)
    assert back.asked == asked + 1, "only the changed memory is looked up"
    assert len(engine.texts) == len(memories) + 1, "and only it is embedded"
    unchanged = [second.row_of[m.path] for m in memories[1:]]
    assert np.array_equal(
        second.matrix[unchanged], first.matrix[[first.row_of[m.path] for m in memories[1:]]]
    )


def test_a_list_is_never_taken_for_the_same_state(tmp_path: Path) -> None:
    """A list may change in place: what is kept is keyed only by a tree's tuple."""
    store = scanned(tmp_path)
    listed = list(store.tree.memories)
    kept, engine, back = KeptVectors(), Counting(), CountingCache()
    kept.of(listed, engine, back)
    listed.pop()
    chosen, vectors = kept.of(listed, engine, back)
    assert len(chosen) == len(listed) == len(vectors.paths)


def _whole_sort(path: str, vectors: Vectors, k: int) -> tuple[Related, ...]:
    """What `related` gives, as a sort of every memory by score (rounded), then path."""
    row = vectors.row_of[path]
    scores = vectors.matrix @ vectors.matrix[row]
    rounded = np.round(scores, 6)
    order = sorted(range(len(scores)), key=lambda at: (-rounded[at], vectors.paths[at]))
    found = [
        Related(vectors.paths[at], min(1.0, float(scores[at])))
        for at in order
        if at != row and scores[at] >= MIN_MEANING
    ]
    return tuple(found[:k])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 6), min_size=2, max_size=40),
    st.integers(1, 8),
    st.data(),
)
def test_the_k_best_are_those_of_a_sort_of_the_whole_tree(
    levels: list[int], k: int, data: st.DataObject
) -> None:
    # Few distinct directions, so that many scores tie and the order falls to the paths.
    angles = np.array(levels, dtype=np.float64) * 0.3
    matrix = np.stack([np.cos(angles), np.sin(angles)], axis=1).astype(np.float32)
    matrix = np.pad(matrix, ((0, 0), (0, 254)))
    paths = tuple(f"m{n:02d}.md" for n in data.draw(st.permutations(range(len(levels)))))
    vectors = Vectors(paths, ("",) * len(paths), matrix, np.ones(len(paths), dtype=np.int64))
    path = data.draw(st.sampled_from(paths))
    assert related(path, vectors, k) == _whole_sort(path, vectors, k)

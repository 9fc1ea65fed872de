"""Pairs of memories close in meaning: near-duplicates in other words, and possible conflicts.

Every memory is compared with every other by the cosine of their vectors, a block of rows at a
time (BLOCK rows against the rest: never an n×n matrix, 400 MB at 10,000), keeping what passes
CANDIDATE_MEANING, at most PER_MEMORY per memory (its closest): a tree of many copies of one
memory still gives a list a person can read. Each candidate then gets its wording (rapidfuzz)
and its conflict cues (polarity.py): alike in meaning and opposed in what they say is a
CONFLICT; alike enough, in meaning or in meaning and words together, a DUPLICATE.

The thresholds depend on length. Two long memories on one subject share most of their words
and score cosines short ones never do: distinct memories of 50 words and more score up to 0.85,
where short unrelated ones stay under 0.65. So a pair of short texts (SHORT_WORDS or fewer, the
shorter of the two) is judged by DUPLICATE_MEANING, DUPLICATE_WITH_WORDS and CONFLICT_MEANING;
a pair of long ones (LONG_WORDS or more) by LONG; between, by a straight line from one to the
other. They were chosen on both labelled sets (tests/unit/meaning_labelled.py, short;
meaning_labelled_long.py, long) and the demo tree; their precision and recall are in
bench/README.md ("Meaning").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from rapidfuzz import fuzz

from ...basics.model import Memory
from . import CONFLICT, DUPLICATE, SimilarPair
from .polarity import Claims, claims_of, cues_between
from .text import texts_of
from .vectors import Vectors

DUPLICATE_MEANING = 0.75
"""Cosine at which two memories say the same thing whatever their wording."""
DUPLICATE_WITH_WORDS = (0.60, 60.0)
"""Or: a cosine at least this, with wording (rapidfuzz token set ratio) at least this."""
CONFLICT_MEANING = 0.70
"""Cosine from which opposed cues make two memories a possible conflict."""
SHORT_WORDS = 30
"""Words of the shorter text up to which the short thresholds hold (the short set: 8-21)."""
LONG_WORDS = 50
"""Words of the shorter text from which LONG holds (the long set: 37-143; the demo's: 60-150)."""
LONG = (0.855, 0.80, 0.855)
"""For long texts: (duplicate, conflict, duplicate with words). A duplicate above the distinct
memories on one subject (long set 0.78-0.85, demo up to 0.84) and under the paraphrases and
copies (long set 0.86-0.99, demo 0.96-0.98); wording gives no more than meaning does, as long
distinct memories share it too. A conflict above the demo's closest distinct pair with an
opposing marker (0.735) and under all contradictions of the long set but one (0.84-0.999; the
one at 0.665 rewrites half its words)."""
CANDIDATE_MEANING = min(CONFLICT_MEANING, DUPLICATE_WITH_WORDS[0], DUPLICATE_MEANING)
BLOCK = 512
"""Rows per matrix product: BLOCK × n float32, 20 MB at 10,000 memories."""
PER_MEMORY = 5
"""At most this many candidates per memory, its closest."""
WORDING_CHARS = 300
"""Characters of each text the wording compares: their openings, where a copy shows."""
NOT_COMPARED = frozenset({"index.md", "index.json"})


def comparable(memories: Sequence[Memory]) -> list[Memory]:
    """The memories to compare: not a project's status files (tasks and work experience say
    where a project stands, and two projects alike in words are two projects), not an index,
    and one record per path."""
    chosen: dict[str, Memory] = {}
    for memory in memories:
        if memory.kind.is_project_kind or memory.name in NOT_COMPARED:
            continue
        chosen.setdefault(memory.path, memory)
    return [chosen[path] for path in sorted(chosen)]


def similar_pairs(memories: Sequence[Memory], vectors: Vectors) -> tuple[SimilarPair, ...]:
    """Every pair judged a DUPLICATE or a CONFLICT, best first (most alike, then by path);
    never a memory with itself. Memories without a row in `vectors` are left out. Pure; safe in
    a worker thread."""
    import numpy as np

    chosen = [m for m in comparable(memories) if m.path in vectors.row_of]
    if len(chosen) < 2:
        return ()
    matrix = vectors.matrix[[vectors.row_of[m.path] for m in chosen]]
    found: dict[tuple[int, int], float] = {}
    count = len(chosen)
    keep = min(PER_MEMORY, count - 1)
    for start in range(0, count, BLOCK):
        block = matrix[start : start + BLOCK] @ matrix.T  # (rows, count)
        rows = np.arange(block.shape[0])
        block[rows, rows + start] = -1.0  # never a memory with itself
        passing = block >= CANDIDATE_MEANING
        counts = np.count_nonzero(passing, axis=1)
        # A row with at most `keep` cosines past the threshold keeps them all (its closest
        # `keep` hold every one of them); only the others need their closest chosen.
        few = np.flatnonzero((counts > 0) & (counts <= keep))
        many = np.flatnonzero(counts > keep)
        hit_rows, hit_columns = np.nonzero(passing[few])
        chosen_rows = [few[hit_rows]]
        chosen_columns = [hit_columns]
        if len(many):
            crowded = block[many]
            top = np.argpartition(-crowded, keep, axis=1)[:, :keep]
            scores = np.take_along_axis(crowded, top, axis=1)
            at_row, at_column = np.nonzero(scores >= CANDIDATE_MEANING)
            chosen_rows.append(many[at_row])
            chosen_columns.append(top[at_row, at_column])
        # In row order, as a pair seen from both its rows keeps the cosine of the later one.
        order = np.argsort(np.concatenate(chosen_rows), kind="stable")
        found_rows = np.concatenate(chosen_rows)[order]
        found_columns = np.concatenate(chosen_columns)[order]
        meanings = block[found_rows, found_columns]
        for row, column, meaning in zip(
            (found_rows + start).tolist(), found_columns.tolist(), meanings.tolist(), strict=True
        ):
            if row != column:
                found[(min(row, column), max(row, column))] = meaning
    texts: dict[int, tuple[str, str]] = {}
    claims: dict[int, Claims] = {}

    def text(i: int) -> str:
        if i not in texts:
            texts[i] = texts_of(chosen[i])
        return texts[i][0]

    def claimed(i: int) -> Claims:
        if i not in claims:
            text(i)
            claims[i] = claims_of(texts[i][1])
        return claims[i]

    pairs = []
    for (i, j), meaning in sorted(found.items()):
        pair = judge(
            chosen[i],
            chosen[j],
            text(i),
            text(j),
            meaning,
            partial(_both, claimed, i, j),
        )
        if pair is not None:
            pairs.append(pair)
    pairs.sort(key=lambda p: (-round(p.meaning, 6), p.first, p.second))
    return tuple(pairs)


def _both(claimed: Callable[[int], Claims], i: int, j: int) -> tuple[Claims, Claims]:
    return claimed(i), claimed(j)


def judge(
    first: Memory,
    second: Memory,
    first_text: str,
    second_text: str,
    meaning: float,
    claims: Callable[[], tuple[Claims, Claims]] | None = None,
) -> SimilarPair | None:
    """The verdict on two memories `meaning` alike (first's path before second's), or None;
    `claims`, when given, gives those of the two texts (read once per memory by the caller,
    and only for a pair close enough to be a conflict)."""
    meaning = max(0.0, min(1.0, meaning))
    if meaning < CANDIDATE_MEANING:
        return None
    wording = float(fuzz.token_set_ratio(first_text[:WORDING_CHARS], second_text[:WORDING_CHARS]))

    def both() -> tuple[Claims, Claims]:
        if claims is not None:
            return claims()
        return claims_of(texts_of(first)[1]), claims_of(texts_of(second)[1])

    words = min(first_text.count(" "), second_text.count(" ")) + 1
    verdict = verdict_of(meaning, wording, both, words)
    if verdict is None:
        return None
    kind, cues = verdict
    return SimilarPair(
        first=first.path,
        second=second.path,
        meaning=meaning,
        wording=wording,
        verdict=kind,
        cues=cues,
        first_digest=first.digest,
        second_digest=second.digest,
    )


def verdict_of(
    meaning: float,
    wording: float,
    claims: Callable[[], tuple[Claims, Claims]],
    words: int = 0,
) -> tuple[str, tuple[str, ...]] | None:
    """(CONFLICT, cues), (DUPLICATE, ()) or None for two texts of this meaning and wording, the
    shorter of `words` words (0: short); `claims` gives what each says, asked only when a
    conflict is possible."""
    duplicate, conflict, with_words = thresholds(words)
    if meaning >= conflict:
        cues = cues_between(*claims())
        if cues:
            return CONFLICT, cues
    if meaning >= duplicate or (meaning >= with_words and wording >= DUPLICATE_WITH_WORDS[1]):
        return DUPLICATE, ()
    return None


def thresholds(words: int) -> tuple[float, float, float]:
    """(duplicate, conflict, duplicate with words) cosines for texts of `words` words: the short
    ones up to SHORT_WORDS, the LONG ones from LONG_WORDS, in a straight line between."""
    if words <= SHORT_WORDS:
        return DUPLICATE_MEANING, CONFLICT_MEANING, DUPLICATE_WITH_WORDS[0]
    if words >= LONG_WORDS:
        return LONG
    share = (words - SHORT_WORDS) / (LONG_WORDS - SHORT_WORDS)
    short = (DUPLICATE_MEANING, CONFLICT_MEANING, DUPLICATE_WITH_WORDS[0])
    one, two, three = (low + share * (high - low) for low, high in zip(short, LONG, strict=True))
    return one, two, three

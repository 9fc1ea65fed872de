"""The meaning engine's pairs as the review shows them: pairs that say the same thing as one
merge proposal, pairs that may contradict each other as pairs a person settles.

A pair the Duplicates rule already proposes (a merge copy, a near-identical body) is left to it,
and a pair a person dismissed stays out while both files hold what they held then. A conflict is
never proposed for a batch: the person picks which memory stands, edits one, or dismisses it.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..basics.model import Memory, Tree
from . import lifecycle
from .dismissals import Dismissed
from .lifecycle import Candidate, Proposal
from .meaning import CONFLICT, DUPLICATE, RELATED, SUPERSESSION, SimilarPair
from .merging import MERGE, merge_plan, which_to_keep


def _dismissed(pair: SimilarPair, dismissed: Dismissed, memories: dict[str, Memory]) -> bool:
    first, second = memories[pair.first], memories[pair.second]
    return dismissed.holds(first.path, first.digest, second.path, second.digest, pair.verdict)


def _present(pairs: Iterable[SimilarPair], memories: dict[str, Memory]) -> list[SimilarPair]:
    return [p for p in pairs if p.first in memories and p.second in memories]


def merge_proposal(tree: Tree, pairs: Iterable[SimilarPair], dismissed: Dismissed) -> Proposal:
    """One candidate per duplicate pair, keyed by the memory that would go: the richer is kept
    with both's topics and references (merging.merge_plan). A memory goes once, and never one
    that another candidate keeps; a pair of two critical memories is left to the person."""
    memories = {m.path: m for m in tree.memories}
    proposed = {
        frozenset((keep.path, drop.path)) for keep, drop, _ in lifecycle.duplicate_pairs(tree)
    }
    candidates: list[Candidate] = []
    dropped: set[str] = set()
    kept: set[str] = set()
    for pair in _present(pairs, memories):
        if pair.verdict != DUPLICATE or pair.key in proposed:
            continue
        if _dismissed(pair, dismissed, memories):
            continue
        keep, drop = which_to_keep(memories[pair.first], memories[pair.second])
        if drop.critical or drop.path in dropped | kept or keep.path in dropped:
            continue
        dropped.add(drop.path)
        kept.add(keep.path)
        reason = (
            f"says what {keep.name} says ({pair.meaning:.0%} alike in meaning, "
            f"{pair.wording:.0f}% in wording)"
        )
        candidates.append(
            Candidate(drop.path, drop.title, reason, merge_plan(keep, drop).operations)
        )
    return Proposal(MERGE, tuple(candidates))


def open_conflicts(
    tree: Tree, pairs: Iterable[SimilarPair], dismissed: Dismissed
) -> tuple[SimilarPair, ...]:
    """The pairs a person settles one at a time, still to settle: possible conflicts, then
    supersessions, then related pairs, each in the engine's order."""
    memories = {m.path: m for m in tree.memories}
    settled = [
        pair
        for pair in _present(pairs, memories)
        if pair.verdict in TO_SETTLE and not _dismissed(pair, dismissed, memories)
    ]
    return tuple(sorted(settled, key=lambda pair: TO_SETTLE.index(pair.verdict)))


TO_SETTLE = (CONFLICT, SUPERSESSION, RELATED)
"""The verdicts never proposed for a batch: the person reads the two and picks."""


def pair_key(pair: SimilarPair) -> str:
    """A conflict's row key in the review: both paths."""
    return paths_key(pair.first, pair.second)


def paths_key(a: str, b: str) -> str:
    """The row key of the pair of `a` and `b`, in either order."""
    first, second = sorted((a, b))
    return f"{first}\n{second}"

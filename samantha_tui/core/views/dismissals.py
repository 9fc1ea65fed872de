"""Pairs a person dismissed ("these do not conflict", "not duplicates"): what a dismissal is, and
whether it still holds for a pair as the files are now. Kept on disk by writing/dismissed_pairs.py.

A dismissal holds by the two paths, the verdict dismissed, and the digests both files had when
the person judged them. An edit to either memory makes it a new text, which may now say the
same as the other or the opposite: it is judged again. Dismissing "not duplicates" does not hide
a conflict later found between the same two files, nor the other way round.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Dismissal:
    """One pair a person dismissed, in path order (first < second)."""

    first: str
    second: str
    verdict: str
    """meaning.DUPLICATE or meaning.CONFLICT: what the person said the pair is not."""
    first_digest: str
    second_digest: str
    day: str = ""
    """When (YYYY-MM-DD): the newest are kept when there are too many to keep."""

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.first, self.second, self.verdict, self.first_digest, self.second_digest)


def dismissal(
    a: str, a_digest: str, b: str, b_digest: str, verdict: str, day: str = ""
) -> Dismissal:
    """The dismissal of a pair given in any order, its paths put in path order."""
    if b < a:
        a, a_digest, b, b_digest = b, b_digest, a, a_digest
    return Dismissal(a, b, verdict, a_digest, b_digest, day)


class Dismissed:
    """A set of dismissals, asked pair by pair."""

    def __init__(self, dismissals: Iterable[Dismissal] = ()) -> None:
        self._keys = {d.key for d in dismissals}

    def __len__(self) -> int:
        return len(self._keys)

    def holds(self, a: str, a_digest: str, b: str, b_digest: str, verdict: str) -> bool:
        """True when this pair, with these contents, was dismissed as not `verdict`."""
        return dismissal(a, a_digest, b, b_digest, verdict).key in self._keys

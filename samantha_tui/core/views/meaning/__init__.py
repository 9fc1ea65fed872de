"""Memories compared by meaning, offline: near-duplicates in other words, possible conflicts, and
the memories closest to one.

The shapes here are what the rest of the product reads (the health report, the review, the
preview); how they are found lives in the modules of this package. When the embedding model
cannot be loaded, everything else works and `Unavailable` says why.
"""

from __future__ import annotations

from dataclasses import dataclass

DUPLICATE = "duplicate"
"""Two memories that say the same thing: offered for a merge."""
CONFLICT = "conflict"
"""Two memories alike in meaning and opposite in what they say: never merged by a rule; the
person picks which stands, edits one, or dismisses the pair."""
SUPERSESSION = "supersession"
"""Two memories that give different values for the same thing, their dates ordering them: the
newer may supersede the older. The person keeps the newer (the older goes to the trash, its
topics and references join the newer), keeps both, edits one, or dismisses the pair."""
RELATED = "related"
"""Two memories alike in meaning that are neither plainly the same (worded apart, or something
said differs) nor plainly opposed (or whose difference holds apart: two projects, two sessions'
accounts): to read side by side, never merged by a rule."""
VERDICTS = (CONFLICT, SUPERSESSION, DUPLICATE, RELATED)
"""Every verdict, the one that matters most first: a pair found twice keeps the first."""


@dataclass(frozen=True)
class Unavailable:
    """Semantic checks are off, and why (shown in the health report)."""

    reason: str


@dataclass(frozen=True)
class SimilarPair:
    """Two memories close in meaning, in path order (first < second)."""

    first: str
    second: str
    meaning: float
    """Cosine similarity of their embeddings, 0..1."""
    wording: float
    """Lexical similarity, 0..100 (rapidfuzz)."""
    verdict: str
    """One of VERDICTS."""
    cues: tuple[str, ...] = ()
    """What differs between them, in words ("always vs never", "npm vs pnpm", "timeout: 30 vs
    60", "negation in one only"); empty for a duplicate."""
    first_digest: str = ""
    second_digest: str = ""
    """The files' digests when compared: a dismissal holds while both still hold them."""
    newer: str = ""
    """For a supersession, the path of the newer of the two (first or second); else empty."""

    @property
    def key(self) -> frozenset[str]:
        return frozenset((self.first, self.second))


@dataclass(frozen=True)
class Related:
    """A memory close in meaning to another."""

    path: str
    meaning: float

"""The pairs of the newest tree state, kept while nothing they are read from has changed.

A pair's verdict reads a memory's words (title, topics, body), its date, its kind and name, its
type, session and project; nothing else. A change of anything else (critical, importance, a
reference count) gives the file a new digest and the tree a new state, but the same pairs: they
are kept, and only the digests they carry (which a dismissal is tied to) are brought up to date.
At 10,000 of the worker's session analyses the pair pass takes nearly 4 s of CPU, and the health
report worked it out again after every `c`.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from typing import Any

from ...basics.model import Memory
from . import SimilarPair
from .pairs import similar_pairs
from .vectors import Vectors


def read_by_pairs(memory: Memory) -> tuple[Any, ...]:
    """Everything of `memory` that pairs.py reads (its digest only to carry it)."""
    return (
        memory.path,
        memory.kind,
        memory.type,
        memory.frontmatter.get("session_id"),
        memory.project,
        memory.date,
        memory.title,
        memory.topics,
        memory.body,
    )


class KeptPairs:
    """`similar_pairs` of the last memories asked about, kept while what it reads is the same;
    safe from any thread (one caller works them out while the others wait)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._read: tuple[tuple[Any, ...], ...] | None = None
        self._engine = ""
        self._pairs: tuple[SimilarPair, ...] = ()

    def of(
        self, chosen: Sequence[Memory], vectors: Vectors, engine: str
    ) -> tuple[SimilarPair, ...]:
        """The pairs of `chosen` (compared memories) by `vectors`, made by `engine` (its cache
        name: another model gives other pairs)."""
        read = tuple(read_by_pairs(m) for m in chosen)
        with self._lock:
            if read != self._read or engine != self._engine:
                self._pairs = similar_pairs(chosen, vectors)
                self._read, self._engine = read, engine
                return self._pairs
            self._pairs = _digests_now(self._pairs, {m.path: m.digest for m in chosen})
            return self._pairs

    def forget(self) -> None:
        """Work the next pairs out whatever was asked before (after the thresholds changed)."""
        with self._lock:
            self._read, self._engine, self._pairs = None, "", ()


def _digests_now(
    pairs: tuple[SimilarPair, ...], digests: dict[str, str]
) -> tuple[SimilarPair, ...]:
    return tuple(
        pair
        if (pair.first_digest, pair.second_digest) == (digests[pair.first], digests[pair.second])
        else dataclasses.replace(
            pair, first_digest=digests[pair.first], second_digest=digests[pair.second]
        )
        for pair in pairs
    )


KEPT_PAIRS = KeptPairs()
"""The process's: the app curates one tree at a time."""

"""The vectors of the newest tree state, kept as one matrix until the state is replaced.

The preview asks for the memories related to each row it shows, and the health report for every
pair, of the same tree: both read one `Vectors` here instead of reading every memory's vector
from the catalog again (at 10,000 memories a tenth of a second and 10 MB a call). A new tree
state takes the rows of the old one whose file content is unchanged (vectors_for's `previous`),
and reads from the catalog (or embeds) only the rest: after one edit, one vector. What is kept is
the matrix and its paths, nothing per memory in Python objects but the path-to-row table.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from ...basics.model import Memory
from .model import Embedder
from .pairs import comparable
from .vectors import VectorCache, Vectors, cache_name, vectors_for


class KeptVectors:
    """The comparable memories of one tree state and their vectors; safe from any thread (one
    caller works them out while the others wait for the same result)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._memories: Sequence[Memory] | None = None
        self._key: tuple[str, int] | None = None
        """The engine's cache name and the cache's identity the vectors were read with."""
        self._chosen: list[Memory] = []
        self._vectors: Vectors | None = None

    def of(
        self, memories: Sequence[Memory], engine: Embedder, cache: VectorCache | None
    ) -> tuple[list[Memory], Vectors]:
        """`comparable(memories)` and their vectors: kept while `memories` is the same object
        (a tree's tuple), else worked out again reusing the rows of the state kept before."""
        # Only a tuple is known not to change in place; a list is worked out each call.
        key = (cache_name(engine), id(cache))
        with self._lock:
            if memories is self._memories and key == self._key and self._vectors is not None:
                return self._chosen, self._vectors
            chosen = comparable(memories)
            same_engine = self._key is not None and self._key[0] == key[0]
            previous = self._vectors if same_engine else None
            vectors = vectors_for(chosen, engine, cache, previous=previous)
            if isinstance(memories, tuple):
                self._memories, self._key = memories, key
                self._chosen, self._vectors = chosen, vectors
            return chosen, vectors


KEPT = KeptVectors()
"""The process's: the app curates one tree at a time."""

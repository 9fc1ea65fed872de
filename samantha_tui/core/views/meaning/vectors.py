"""The vector of every memory, embedded once per file content.

A vector is kept under the file's digest and the model's name (the catalog's `vectors` table, or
a process's memory), so only memories whose bytes the cache has not seen are embedded; a batch of
those is one call to the engine. With each vector is kept the number of words of the text it was
embedded from: the pass's thresholds depend on it (pairs.py), and knowing it lets the pass set
aside most candidates without making their texts again.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from ...basics import progress
from ...basics.model import Memory
from .model import DIMENSION, Embedder
from .text import RECIPE, embedding_text

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

WIDTH = (DIMENSION + 1) * 4
"""Bytes kept per memory: its float32 vector, then its text's word count as one more float32
(exact to 16 million). A row of another width (the vector alone, as kept before the count was)
is not read, so that memory is embedded again and its row replaced."""


class VectorCache(Protocol):
    """Where vectors are kept between calls: the catalog (`Catalog`), or `MemoryVectors`."""

    def vectors(self, model: str, digests: Iterable[str], width: int) -> dict[str, bytes]: ...

    def keep_vectors(
        self, model: str, vectors: Mapping[str, bytes], prune: bool = True
    ) -> None: ...


class MemoryVectors:
    """Vectors kept in this process only; safe from any thread."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], bytes] = {}
        self._lock = threading.Lock()

    def vectors(self, model: str, digests: Iterable[str], width: int) -> dict[str, bytes]:
        with self._lock:
            found = ((digest, self._kept.get((model, digest))) for digest in digests)
            return {d: v for d, v in found if v is not None and len(v) == width}

    def keep_vectors(self, model: str, vectors: Mapping[str, bytes], prune: bool = True) -> None:
        with self._lock:
            self._kept.update(((model, digest), vector) for digest, vector in vectors.items())


PROCESS_VECTORS = MemoryVectors()
"""The cache of callers that give none: a process embeds a file's content once."""


@dataclass(frozen=True)
class Vectors:
    """One row of `matrix` per memory, in the order given: `paths[i]` has row i."""

    paths: tuple[str, ...]
    digests: tuple[str, ...]
    matrix: npt.NDArray[np.float32]
    """(n, DIMENSION) float32, each row of length 1 (or 0 for a memory with no words)."""
    words: npt.NDArray[np.int64]
    """(n,): how many words each memory's embedded text has (text.py; spaces plus one)."""
    embedded: int = 0
    """How many of them were embedded by this call (the others came from the cache)."""

    @cached_property
    def row_of(self) -> dict[str, int]:
        return {path: row for row, path in enumerate(self.paths)}


def cache_key(memory: Memory, text: str) -> str:
    """The file's digest; for a record read without one, a digest of the text embedded."""
    if memory.digest:
        return memory.digest
    return "text:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


EMBED_SLICE = 1000
"""Texts embedded per call of the model, between two progress reports."""
EMBEDDING = "Reading the meaning of {count} memories"


def cache_name(engine: Embedder) -> str:
    """What vectors are kept under: the model, and what of a memory it was given (a vector of
    another recipe's text is not this one's)."""
    return f"{engine.name}+{RECIPE}"


def vectors_for(
    memories: Sequence[Memory],
    engine: Embedder,
    cache: VectorCache | None = None,
    previous: Vectors | None = None,
) -> Vectors:
    """The vectors of `memories`, embedding only those `cache` lacks (then keeping them there).
    `previous`: the vectors of an earlier state of the tree, whose rows of the same file digests
    are taken as they are (by the same engine). Pure but for the cache; safe in a worker
    thread."""
    import numpy as np

    cache = PROCESS_VECTORS if cache is None else cache
    name = cache_name(engine)
    # The digest is the key of every record read from a file: its text is made only when its
    # vector must be (a warm call reads no body).
    texts: dict[str, str] = {}
    keys: list[str] = []
    for memory in memories:
        if memory.digest:
            keys.append(memory.digest)
        else:
            text = embedding_text(memory)
            keys.append(cache_key(memory, text))
            texts[keys[-1]] = text
    # Each row is written once into the one matrix kept: no joined copy of every row, and a
    # first reading makes and embeds the texts a slice at a time (at 100,000 memories, all the
    # texts at once and their vectors as bytes were several times the matrix).
    matrix = np.empty((len(keys), DIMENSION), dtype=np.float32)
    words = np.empty(len(keys), dtype=np.int64)
    reused = _reuse(previous, keys, matrix, words)
    kept = cache.vectors(name, dict.fromkeys(k for r, k in enumerate(keys) if not reused[r]), WIDTH)
    position: dict[str, int] = {}
    """Each key to embed, by its place in `pending`."""
    pending: list[tuple[str, Memory]] = []
    waiting_rows: list[int] = []
    waiting_at: list[int] = []
    for row, (memory, key) in enumerate(zip(memories, keys, strict=True)):
        if reused[row]:
            continue
        found = kept.get(key)
        if found is not None:
            values = np.frombuffer(found, dtype=np.float32)
            matrix[row], words[row] = values[:DIMENSION], values[DIMENSION]
            continue
        if key not in position:
            position[key] = len(pending)
            pending.append((key, memory))
        waiting_rows.append(row)
        waiting_at.append(position[key])
    del kept
    rows, at_of = np.array(waiting_rows, dtype=np.intp), np.array(waiting_at, dtype=np.intp)
    # In slices, each one reported: the first reading of a large tree takes seconds.
    for start in range(0, len(pending), EMBED_SLICE):
        progress.report(start, len(pending), EMBEDDING)
        chunk = pending[start : start + EMBED_SLICE]
        chunk_texts = [texts[key] if key in texts else embedding_text(m) for key, m in chunk]
        table = np.empty((len(chunk), DIMENSION + 1), dtype=np.float32)
        table[:, :DIMENSION] = engine.embed(chunk_texts)
        table[:, DIMENSION] = [words_of(text) for text in chunk_texts]
        fresh = {key: table[n].tobytes() for n, (key, _) in enumerate(chunk)}
        cache.keep_vectors(name, fresh, prune=start == 0)  # the stale dropped once a call
        here = (at_of >= start) & (at_of < start + len(chunk))
        matrix[rows[here]] = table[at_of[here] - start, :DIMENSION]
        words[rows[here]] = table[at_of[here] - start, DIMENSION]
    if pending:
        progress.report(len(pending), len(pending), EMBEDDING)
    return Vectors(
        paths=tuple(memory.path for memory in memories),
        digests=tuple(memory.digest for memory in memories),
        matrix=matrix,
        words=words,
        embedded=len(pending),
    )


def _reuse(
    previous: Vectors | None,
    keys: list[str],
    matrix: npt.NDArray[np.float32],
    words: npt.NDArray[np.int64],
) -> npt.NDArray[np.bool_]:
    """Copy into matrix and words the rows `previous` has of the same digests; which rows were."""
    import numpy as np

    reused = np.zeros(len(keys), dtype=bool)
    if previous is None:
        return reused
    row_of = {digest: row for row, digest in enumerate(previous.digests) if digest}
    at = np.fromiter((row_of.get(key, -1) for key in keys), dtype=np.intp, count=len(keys))
    reused = at >= 0
    matrix[reused] = previous.matrix[at[reused]]
    words[reused] = previous.words[at[reused]]
    return reused


def words_of(text: str) -> int:
    """The words of an embedded text, as the pass counts them: its single spaces, plus one."""
    return text.count(" ") + 1

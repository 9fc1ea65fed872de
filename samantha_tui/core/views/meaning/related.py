"""The memories closest in meaning to one: what the preview offers beside it."""

from __future__ import annotations

from . import Related
from .vectors import Vectors

MIN_MEANING = 0.5
"""Below this cosine two memories have little in common; they are not offered as related."""


def related(path: str, vectors: Vectors, k: int = 5) -> tuple[Related, ...]:
    """The k memories of `vectors` closest in meaning to `path`'s, best first (ties by path),
    never `path` itself; () when `path` has no vector. Pure; safe in a worker thread."""
    import numpy as np

    row = vectors.row_of.get(path)
    if row is None or k <= 0:
        return ()
    scores = vectors.matrix @ vectors.matrix[row]
    rounded = np.round(scores, 6)  # ties by path: a last bit of float32 orders nothing
    close = np.flatnonzero(scores >= MIN_MEANING)
    close = close[close != row]
    if len(close) > k:
        # Only the k best (with any tied with the k-th) are sorted, not the whole tree.
        kth = np.partition(rounded[close], -k)[-k]
        close = close[rounded[close] >= kth]
    paths = vectors.paths
    best = sorted(close.tolist(), key=lambda at: (-rounded[at], paths[at]))[:k]
    return tuple(Related(paths[at], min(1.0, float(scores[at]))) for at in best)

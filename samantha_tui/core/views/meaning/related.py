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
    order = np.lexsort((np.array(vectors.paths, dtype=object), -np.round(scores, 6)))
    found: list[Related] = []
    for at in order:
        other = vectors.paths[int(at)]
        meaning = float(scores[int(at)])
        if other == path or meaning < MIN_MEANING:
            continue
        found.append(Related(other, min(1.0, meaning)))
        if len(found) == k:
            break
    return tuple(found)

"""The one entry point of the health report and the UI: pairs, and the memories related to one.

Both are pure (they read the records given and the vector cache, and write nothing to the tree)
and may run in a worker thread; the model is loaded (about half a second) at the first call
that has something to embed, and a call embeds only what the cache lacks. The UI must call
them off its event loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...basics.model import Memory
from . import Related, SimilarPair, Unavailable
from .kept import KEPT
from .kept_pairs import KEPT_PAIRS
from .model import NotLoaded, deferred_engine
from .related import related
from .vectors import VectorCache, cache_name


def analyse(
    memories: Sequence[Memory], cache: VectorCache | None = None
) -> tuple[SimilarPair, ...] | Unavailable:
    """Every pair among `memories` with a verdict (pairs.py), best first; `Unavailable`
    when the model cannot be loaded. `cache`: the tree's catalog (`Store.catalog()`), so vectors
    outlive the process; None keeps them in this process only. Any thread."""
    engine = deferred_engine()
    if isinstance(engine, Unavailable):
        return engine
    try:
        chosen, vectors = KEPT.of(memories, engine, cache)
    except NotLoaded as error:
        return error.why
    return KEPT_PAIRS.of(chosen, vectors, cache_name(engine))


TURNED_OFF = "turned off in the settings (meaning.enabled = false)"


def analyse_if(
    enabled: bool, memories: Sequence[Memory], cache: VectorCache | None = None
) -> tuple[SimilarPair, ...] | Unavailable:
    """`analyse`, or why not when the settings turned comparing by meaning off (the model is
    then never loaded)."""
    return analyse(memories, cache) if enabled else Unavailable(TURNED_OFF)


def related_to(
    path: str, memories: Sequence[Memory], cache: VectorCache | None = None, k: int = 5
) -> tuple[Related, ...] | Unavailable:
    """The k memories closest in meaning to the one at `path`, best first (related.py); () when
    `path` is not among the compared `memories` (a project's status file, an index are not);
    `Unavailable` when the model cannot be loaded. Any thread."""
    engine = deferred_engine()
    if isinstance(engine, Unavailable):
        return engine
    try:
        _, vectors = KEPT.of(memories, engine, cache)
    except NotLoaded as error:
        return error.why
    return related(path, vectors, k)  # () for a path not compared (related.py)


def related_if(
    enabled: bool, path: str, memories: Sequence[Memory], cache: VectorCache | None = None
) -> tuple[Related, ...] | Unavailable:
    """`related_to`, or why not when the settings turned comparing by meaning off."""
    return related_to(path, memories, cache) if enabled else Unavailable(TURNED_OFF)

"""The collector's full passes wait while a key is held, and run again once the keys pause.

A full collection walks every object not frozen (`gc.freeze`) since the tree was loaded: the rows
made and dropped while paging, Textual's caches of lines. At 10,000 memories one pass took 15-40
ms, and while PgDn was held one came every half second, each on top of a frame. The young
generations keep collecting meanwhile; only the walk of the old one waits for the pause.
"""

from __future__ import annotations

import gc

NEVER = 1 << 30
"""A third threshold no count of young collections reaches while keys are held."""

_saved: tuple[int, int, int] | None = None


def hold() -> None:
    """Stop the collector's full passes until `release` (holding twice is holding once)."""
    global _saved
    if _saved is None:
        _saved = gc.get_threshold()
        gc.set_threshold(_saved[0], _saved[1], NEVER)


def release() -> None:
    """Let full passes run again with the thresholds they had before `hold`."""
    global _saved
    if _saved is not None:
        threshold, _saved = _saved, None
        gc.set_threshold(*threshold)


def held() -> bool:
    """Whether full passes are waiting for held keys to pause."""
    return _saved is not None

"""A value worked out from a memory's fields, kept per path while those fields are the same.

The health report reads every memory after every change; at 10,000 memories reading each
body's dates and folding each body for the duplicate rule took over a second of CPU each time,
to find again what it found before in all but the one memory that changed. An unchanged record
keeps its very strings from one tree state to the next, so comparing what a value was worked out
from is mostly a check of identity.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerPath(Generic[T]):
    """`make(*inputs)` for the memory at a path, worked out again only when its inputs differ
    from those it was last worked out from. Safe from any thread."""

    def __init__(self, make: Callable[..., T], most: int = 200_000) -> None:
        self._make = make
        self._most = most
        """Paths kept at most: past it everything is forgotten (a process that reads many
        trees in turn does not grow without end)."""
        self._kept: dict[str, tuple[tuple[Hashable, ...], T]] = {}
        self._lock = threading.Lock()

    def __call__(self, path: str, *inputs: Hashable) -> T:
        kept = self._kept.get(path)
        if kept is not None and kept[0] == inputs:
            return kept[1]
        value = self._make(*inputs)
        with self._lock:
            if len(self._kept) >= self._most:
                self._kept.clear()
            self._kept[path] = (inputs, value)
        return value

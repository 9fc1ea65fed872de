"""Which records a list gained and lost since the last look, found by identity.

The store replaces only the records it re-read, in place in the tree's list, so an unchanged
memory is the very same object at the same place in every later tree: the records before the
first difference and after the last one are the same, and only the span between them changed.
Index derivations keep their results between writes and update them for that span alone.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Collection, Iterable, Sequence

from ..model import Kind, Memory


def _first_difference(old: Iterable[Memory], new: Iterable[Memory], length: int) -> int:
    """How many leading records both share, of the first `length` (compared in C: no Python
    call per record, and no copy of either list)."""
    differ = map(operator.is_not, itertools.islice(old, length), new)
    found = next(itertools.compress(itertools.count(), differ), None)
    return length if found is None else found


class Tracked:
    """The records last seen (the whole tree's list, in its order)."""

    def __init__(self, kinds: Collection[Kind] | None = None) -> None:
        self.kinds = kinds
        """Only records of these kinds are reported (None: all)."""
        self.last: tuple[Memory, ...] = ()

    def diff(self, memories: Sequence[Memory]) -> tuple[list[Memory], list[Memory]]:
        """(records new since the last call, records gone since), of the tracked kinds; a
        record in both is unchanged. Remembers `memories` as the records now seen."""
        old, new = self.last, tuple(memories)
        self.last = new
        if old is new:
            return [], []
        start = _first_difference(old, new, min(len(old), len(new)))
        shortest = min(len(old), len(new)) - start
        end = _first_difference(reversed(old), reversed(new), shortest)
        removed, added = old[start : len(old) - end], new[start : len(new) - end]
        if self.kinds is not None:
            kinds = self.kinds
            removed = tuple(m for m in removed if m.kind in kinds)
            added = tuple(m for m in added if m.kind in kinds)
        return list(added), list(removed)

    def reset(self, memories: Sequence[Memory]) -> None:
        self.last = tuple(memories)

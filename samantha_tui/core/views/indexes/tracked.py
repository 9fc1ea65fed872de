"""Which records a list gained and lost since the last look.

The store replaces only the records it re-read, in place in the tree's list, so an unchanged
memory is the very same object at the same place in every later tree: the records before the
first difference and after the last one are the same, and only the span between them changed.
Index derivations keep their results between writes and update them for that span alone.

The span is found by comparing slices of the two tuples, halving each time: a tuple comparison
passes over the same object at the same place without calling anything, so finding one changed
record among 100,000 costs two passes of pointer comparisons in C. A record equal in value to
the one it replaced (a file read again, unchanged) counts as unchanged: everything derived from
a record depends on its value alone.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ...basics.model import Kind, Memory


def _common_prefix(old: tuple[Memory, ...], new: tuple[Memory, ...], length: int) -> int:
    """How many leading records both share, of the first `length`."""
    if old[:length] == new[:length]:
        return length
    low, high = 0, length  # old[:low] == new[:low]; the first difference is in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle
    return low


def _common_suffix(old: tuple[Memory, ...], new: tuple[Memory, ...], length: int) -> int:
    """How many trailing records both share, of the last `length`."""
    ends = len(old), len(new)

    def tail(items: tuple[Memory, ...], end: int, low: int, high: int) -> tuple[Memory, ...]:
        # The records `low` to `high` places from the end (0 is the last one), in list order.
        return items[end - high : end - low]

    if tail(old, ends[0], 0, length) == tail(new, ends[1], 0, length):
        return length
    low, high = 0, length
    while high - low > 1:
        middle = (low + high) // 2
        if tail(old, ends[0], low, middle) == tail(new, ends[1], low, middle):
            low = middle
        else:
            high = middle
    return low


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
        start = _common_prefix(old, new, min(len(old), len(new)))
        shortest = min(len(old), len(new)) - start
        end = _common_suffix(old, new, shortest)
        removed, added = old[start : len(old) - end], new[start : len(new) - end]
        if self.kinds is not None:
            kinds = self.kinds
            removed = tuple(m for m in removed if m.kind in kinds)
            added = tuple(m for m in added if m.kind in kinds)
        return list(added), list(removed)

    def reset(self, memories: Sequence[Memory]) -> None:
        self.last = tuple(memories)

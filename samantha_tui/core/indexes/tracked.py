"""Which records a list gained and lost since the last look, found by identity.

The store replaces only the records it re-read, so an unchanged memory is the very same object
in every later tree: comparing identities finds what a change touched without comparing fields.
Index derivations keep their results between writes and update them for these records alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Memory


class Tracked:
    """The records last seen, by path."""

    def __init__(self) -> None:
        self.records: dict[str, Memory] = {}

    def diff(self, memories: Sequence[Memory]) -> tuple[list[Memory], list[Memory]]:
        """(records new or replaced, records replaced or gone) since the last call; remembers
        `memories` as the records now seen."""
        records = self.records
        added = [m for m in memories if records.get(m.path) is not m]
        new_paths = sum(1 for m in added if m.path not in records)
        removed = [records[m.path] for m in added if m.path in records]
        if len(memories) != len(records) + new_paths:
            # Some path went: only then is a set of every path worth making.
            present = {m.path for m in memories}
            removed += [m for path, m in records.items() if path not in present]
            for m in removed:
                del records[m.path]
        for m in added:
            records[m.path] = m
        return added, removed

    def reset(self, memories: Sequence[Memory]) -> None:
        self.records = {m.path: m for m in memories}

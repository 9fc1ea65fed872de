"""What a journal holds, as data: the files a step changes as they were before it (Before), what
a completed step left (Done), and an interrupted batch as a whole (Journal). journal.py reads and
writes them; journal_paths.py checks every path in them before recovery acts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Before:
    """A file or folder a step changes, as it was before the step ran."""

    path: str
    digest: str | None
    """sha256 of the file, or of a folder's file names and digests; None when it did not exist."""
    kept: bytes | None = None
    """The file's bytes, to put back when rolling back (files a step rewrites in place)."""


@dataclass(frozen=True)
class Done:
    """What a completed step left: digests of what it wrote, the trash entry it made."""

    after: Mapping[str, str | None] = field(default_factory=dict)
    trash_id: str | None = None


@dataclass(frozen=True)
class Journal:
    """An interrupted batch, as its journal tells it."""

    name: str
    started: str
    operations: tuple[Mapping[str, Any], ...]
    """As `plan.encode` wrote them."""
    steps: Mapping[int, tuple[Before, ...]]
    """By operation number: the ones that were started."""
    done: Mapping[int, Done]
    """By operation number: the ones that completed."""
    indexes: tuple[Before, ...] | None
    """The index files before regeneration began; None when it had not begun."""

    @property
    def total(self) -> int:
        return len(self.operations)

    def describe(self) -> str:
        """`<plan name>, N of M steps done`: what the person is asked about."""
        return f"{self.name}, {len(self.done)} of {self.total} steps done"

"""The name a memory is shown by: its heading, unless the heading tells it from nothing.

A heading is generic when it is samantha-llm's worker's `Session Analysis - DATE` (every session
memory has one), and shared when two or more memories of the tree have it word for word. Either
way the memory is named by its distinguishing line as well (reading/distinguishing.py):

- the worker's heading, where the date shows in a column of its own: `Session: <line>`;
- the worker's heading elsewhere: `Session 2026-11-30: <line>`;
- any other shared heading T: `T: <line>`;
- a merge copy (`<stem>_<session id>.md`), the name of its original after `(copy)`.

Only what is shown changes: the file keeps its heading, a retitle edits the heading, and the
index files keep what samantha-llm writes. Which headings are shared is worked out once per tree
(`names_of`, O(n) over the titles), never per row painted; a record's line is read from its list
entry (the catalog keeps it) or worked out once per file version (path and digest).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterable
from typing import Protocol

from ..basics.model import Listed, Memory, Tree
from ..reading.distinguishing import distinguishing_line

SESSION_HEADING = re.compile(r"Session Analysis\s*[-–—:]\s*(\d{4}-\d{2}-\d{2})")
"""The worker's heading (matched whole): `Session Analysis - 2026-11-30`."""
SESSION_WORD = "Session"
MERGE_COPY = re.compile(r"_\d{8}_\d{6}\.md$")
"""The name samantha-llm's merge gives a copy on a name clash: `<stem>_<session id>.md`."""
COPY_MARK = "(copy)"
_TREES_KEPT = 4
"""Trees whose shared headings are remembered: the app's current one, the first frame's, and
a search's or a worker's that is a step behind."""
_LINES_KEPT = 200_000
"""File versions whose line is remembered before the memo starts again."""


class Named(Protocol):
    """What naming needs of a record: a memory, or the first frame's list entry."""

    @property
    def path(self) -> str: ...
    @property
    def title(self) -> str: ...


def session_date(title: str) -> str | None:
    """The date of the worker's `Session Analysis - DATE` heading, or None for any other."""
    match = SESSION_HEADING.fullmatch(title)
    return None if match is None else match.group(1)


def line_of(record: Memory | Listed) -> str:
    """The record's distinguishing line: the list entry's own, or read from the body once per
    file version."""
    if isinstance(record, Listed):
        return record.line
    if not record.digest:  # a record made in memory, not read from a file: nothing to key on
        return distinguishing_line(record.body, record.path)
    key = (record.path, record.digest)
    line = _LINES.get(key)
    if line is None:
        if len(_LINES) >= _LINES_KEPT:
            _LINES.clear()
        line = _LINES[key] = distinguishing_line(record.body, record.path)
    return line


_LINES: dict[tuple[str, str], str] = {}


class Names:
    """The shown names of one tree's memories: knows which headings are shared."""

    __slots__ = ("shared",)

    def __init__(self, shared: Iterable[str] = ()) -> None:
        self.shared = frozenset(shared)
        """The headings two or more memories of the tree have (the worker's are not needed)."""

    @classmethod
    def of(cls, records: Iterable[Named]) -> Names:
        """The names of these records (a whole tree: sharing is counted across every kind)."""
        counts = Counter(record.title for record in records)
        return cls(title for title, count in counts.items() if count > 1)

    def is_plain(self, record: Named) -> bool:
        """Whether the heading alone names the record (neither the worker's nor shared)."""
        title = record.title
        return title not in self.shared and SESSION_HEADING.fullmatch(title) is None

    def shown(self, record: Memory | Listed, *, dated: bool = True) -> str:
        """The name to show: the heading, or the heading's gist with the distinguishing line.
        `dated=False` where the date has a column of its own (the list)."""
        name = name_of(record.title, line_of(record), self.shared, dated=dated)
        # A merge copy says what its original says, line and all: only this tells the two apart.
        return f"{COPY_MARK} {name}" if MERGE_COPY.search(record.path) else name


def name_of(title: str, line: str, shared: frozenset[str], *, dated: bool = True) -> str:
    """The shown name of a memory headed `title` with the distinguishing `line`, among a tree
    whose `shared` headings are these."""
    date = session_date(title)
    if date is None and title not in shared:
        return title
    if not line or line == title:
        return title  # nothing of its own to add
    if date is None:
        return f"{title}: {line}"
    return f"{SESSION_WORD} {date}: {line}" if dated else f"{SESSION_WORD}: {line}"


class _Kept:
    """The names of the last few trees, by identity (a tree is replaced, never changed)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: list[tuple[Tree, Names]] = []

    def of(self, tree: Tree) -> Names:
        with self._lock:
            for held, names in self._kept:
                if held is tree:
                    return names
        names = Names.of(tree.memories)
        with self._lock:
            self._kept = [(tree, names), *self._kept[: _TREES_KEPT - 1]]
        return names


_KEPT = _Kept()


def names_of(tree: Tree) -> Names:
    """The names of a tree's memories, worked out once per tree."""
    return _KEPT.of(tree)


def shown_name(record: Memory | Listed, tree: Tree, *, dated: bool = True) -> str:
    """`names_of(tree).shown(record)`: the name to show of one record of `tree`."""
    return names_of(tree).shown(record, dated=dated)

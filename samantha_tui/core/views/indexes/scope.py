"""Which memories an index write is about, and how its entries are tied to files."""

from __future__ import annotations

import threading
import weakref
from collections import Counter
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...basics.model import Kind, Memory, Tree
from ..merge_copies import original_of
from .entries import entry_key, memory_entry, project_entry, readable, runbook_entry
from .sections import EntryKey, entry_keys
from .tracked import Tracked

STALE = "\0tied to no file"
"""The key of every entry tied to no file, when a person asked to remove them."""


@dataclass(frozen=True)
class Scope:
    """The memories whose index entries follow their files in one index write."""

    paths: frozenset[str] | None = None
    """Memory files or folders a change touched; None: every memory (a whole `index`)."""
    previous: Mapping[str, Memory] = field(default_factory=dict)
    """Records as they were before the change, by path: what it took out of a file leaves the
    index too."""
    current: Mapping[str, Memory] | None = None
    """The records now at the paths of `previous` (a path gone has none), when the caller has
    them at hand; otherwise they are found by a walk of the tree."""
    remove_stale: bool = False
    """Also remove the entries tied to no file samantha-tui reads (a person asked, after seeing
    the list)."""


def feeding(kind: Kind) -> tuple[Kind, ...]:
    """The kinds whose files a kind's index describes: finished projects stay in the
    current-tasks index's `recently_completed`."""
    return (kind, Kind.WORK_EXPERIENCE) if kind is Kind.CURRENT_TASKS else (kind,)


def derived_entry(kind: Kind, memory: Memory) -> dict[str, Any]:
    """The entry the file alone gives, in its kind's shape."""
    if kind is Kind.PROCEDURAL:
        return runbook_entry(memory)
    if kind.is_project_kind:
        return project_entry(memory.kind, memory, "active")
    return memory_entry(kind, memory)


class _Keys:
    """The entry keys of a kind's memories (all, and readable ones), kept between writes and
    updated for the records a change replaced: making them again from 7,000 memories cost a
    sixth of a write, and copying the sets after each change a tenth at 100,000."""

    def __init__(self, kinds: tuple[Kind, ...]) -> None:
        self.tracked = Tracked(kinds)
        self.existing: Counter[str] = Counter()
        self.readable: Counter[str] = Counter()
        """Counts, as two project folders of two kinds can share a key."""
        self.folders: Counter[str] = Counter()
        """Every folder (`topic/`) a memory key lies in: a change's folder prefix matters only
        when some key lies under it."""
        self.copies: dict[str, set[str]] = {}
        """A merge copy's original key -> the copies' keys (`<stem>_<stamp>.md` beside
        `<stem>.md`): a change to an original decides whether its copies are listed."""
        self.sets: tuple[set[str], set[str]] = (set(), set())
        self.holder: weakref.ref[KindScope] | None = None
        """The scope the sets were last handed to: while it lives, a change copies them first,
        so a scope never sees them change under it."""

    def update(self, memories: Sequence[Memory], holder: KindScope) -> tuple[set[str], set[str]]:
        added, removed = self.tracked.diff(memories)
        if added or removed:
            if self.holder is not None and self.holder() is not None:
                self.sets = (set(self.sets[0]), set(self.sets[1]))
            existing_set, readable_set = self.sets
            for memories_, step in ((removed, -1), (added, 1)):
                good = set(map(id, readable(memories_)[0]))
                for m in memories_:
                    key = entry_key(m.kind, m)
                    _step(self.existing, existing_set, key, step)
                    if id(m) in good:
                        _step(self.readable, readable_set, key, step)
                    if not m.kind.is_project_kind:
                        for folder in _folders(key):
                            _step(self.folders, None, folder, step)
                        _note_copy(self.copies, key, step)
        self.holder = weakref.ref(holder)
        return self.sets


def _note_copy(copies: dict[str, set[str]], key: str, step: int) -> None:
    """Count a merge copy's key in or out under its original's key."""
    original = original_of(key)
    if original is None:
        return
    if step > 0:
        copies.setdefault(original, set()).add(key)
    elif original in copies:
        copies[original].discard(key)
        if not copies[original]:
            del copies[original]


def _step(counter: Counter[str], members: set[str] | None, key: str, step: int) -> None:
    """Count key up or down, keeping `members` the set of keys counted."""
    counter[key] += step
    if not counter[key]:
        del counter[key]
        if members is not None:
            members.discard(key)
    elif members is not None:
        members.add(key)


def _folders(key: str) -> list[str]:
    """The folders a key lies in, each ending in `/`: `a/b/c.md` -> `a/`, `a/b/`."""
    parts = key.split("/")[:-1]
    return ["/".join(parts[: i + 1]) + "/" for i in range(len(parts))]


class _Either:
    """Membership in either of two sets, without copying the larger one."""

    __slots__ = ("first", "second")

    def __init__(self, first: set[str], second: set[str]) -> None:
        self.first, self.second = first, second

    def __contains__(self, key: object) -> bool:
        return key in self.first or key in self.second


_KEYS: dict[tuple[Kind, ...], _Keys] = {}
_KEYS_LOCK = threading.Lock()


class KindScope:
    """A scope seen from one kind's index: which keys are in it and how entries get keys."""

    def __init__(self, kind: Kind, tree: Tree, scope: Scope) -> None:
        self.kind = kind
        self.feeding = feeding(kind)
        self.keys: set[str] | None = None
        self.prefixes: tuple[str, ...] = ()
        if scope.paths is not None:
            self.keys, self.prefixes = self._take(scope.paths)
        with _KEYS_LOCK:
            keys = _KEYS.get(self.feeding) or _KEYS.setdefault(self.feeding, _Keys(self.feeding))
            self.existing, self.readable = keys.update(tree.memories, self)
            under = any(keys.folders.get(prefix) for prefix in self.prefixes)
            if self.keys:
                # An original created, deleted or moved decides whether its merge copies are
                # listed (indexes/memories.py): their entries follow it in this write.
                for key in [k for k in self.keys if k in keys.copies]:
                    self.keys |= keys.copies[key]
        known: Container[str] = self.existing
        if self.keys and not self.keys <= self.existing:
            known = _Either(self.existing, self.keys)
        self.plain_key_of: EntryKey = entry_keys(kind, known)
        """Ties an entry to a file, or None."""
        self.key_of: EntryKey = self.plain_key_of
        """As plain_key_of; with remove_stale, entries tied to nothing share the STALE key."""
        if scope.remove_stale:
            plain = self.plain_key_of
            self.key_of = lambda entry: plain(entry) or STALE
        self.exact: frozenset[str] | None = None
        """When set, the keys in scope are exactly these `file` values: an entry is in scope
        only if its `file` is one of them (see patch.patch_list's fast path)."""
        if (
            self.keys is not None
            and not kind.is_project_kind
            and not scope.remove_stale
            and not under
            and not any(key.startswith(self.prefixes) for key in self.keys if self.prefixes)
        ):
            # No key lies under a changed path's folder prefix: only the keys themselves count.
            self.exact = frozenset(key for key in self.keys if self.in_scope(key))

    def _take(self, paths: frozenset[str]) -> tuple[set[str] | None, tuple[str, ...]]:
        """The keys the changed paths name (None: a whole kind folder) and the folder prefixes
        under which any key counts."""
        keys: set[str] = set()
        prefixes: list[str] = []
        for path in paths:
            for kind in self.feeding:
                if path == kind.folder:
                    return None, ()
                if not path.startswith(kind.folder + "/"):
                    continue
                inside = path[len(kind.folder) + 1 :]
                if kind.is_project_kind:
                    keys.add(inside.split("/", 1)[0])
                else:
                    keys.add(inside)
                    prefixes.append(inside + "/")
        return keys, tuple(prefixes)

    def in_scope(self, key: str) -> bool:
        """Whether the entry with this key follows its file in this write."""
        if key == STALE:
            return True
        if key in self.existing and key not in self.readable:
            return False  # its file cannot be read: the index's entry is all there is
        if self.keys is None:
            return key in self.readable
        return key in self.keys or (bool(self.prefixes) and key.startswith(self.prefixes))

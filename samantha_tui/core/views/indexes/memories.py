"""Short- and long-term indexes: entries grouped for bootstrap, with counts."""

from __future__ import annotations

import bisect
import datetime as dt
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ...basics.model import Kind, Memory
from ..merge_copies import original_of
from .entries import DEFAULT_IMPORTANCE, MEMORY, importance, memory_entry, readable
from .merge import merge_root, merge_shared
from .sections import Built, first_by_key
from .tracked import Tracked

RECENT_DAYS = 30
"""`recent` covers memories at most this many days old (day 30 included)."""
OLDER_DAYS = 90
HIGH_PRIORITY_REFERENCES = 5
UNTAGGED = "untagged"
"""The `by_topic` group of memories with no topics."""


def _sorted_by(memories: Sequence[Memory], keys: list[Any]) -> list[Memory]:
    """memories in the order of their keys (stable), sorting without a call per memory."""
    return [memories[i] for i in sorted(range(len(memories)), key=keys.__getitem__)]


def _by_first_topic(
    memories: Iterable[Memory], item: Callable[[Memory], dict]
) -> dict[str, list[dict]]:
    """Items grouped by each memory's first topic, topics in sorted order, memories in theirs."""
    groups: dict[str, list[dict]] = {}
    for m in memories:
        groups.setdefault(m.topics[0] if m.topics else UNTAGGED, []).append(item(m))
    return {topic: groups[topic] for topic in sorted(groups)}


def _entries(
    kind: Kind, old: Mapping[str, Any] | None, previous: Mapping[str, Mapping[str, Any]] | None
) -> Callable[[Memory], dict]:
    """Merged entries, made on first use: most short-term memories are in no list."""
    if previous is None:
        previous = first_by_key(kind, old)
    made: dict[str, dict] = {}
    prefix = kind.folder + "/"

    def entry(memory: Memory) -> dict:
        path = memory.path
        found = made.get(path)
        if found is None:
            # entry_key of a memory kind: the path inside the kind folder.
            old_entry = previous.get(path.removeprefix(prefix))
            last = _MERGED.get(id(memory))
            if last is not None and last[0] is memory and last[1] is old_entry and last[2] is kind:
                found = last[3]
            else:
                found = merge_shared(memory_entry(kind, memory), old_entry, MEMORY)
                if len(_MERGED) >= _MERGED_LIMIT:
                    _MERGED.clear()
                _MERGED[id(memory)] = (memory, old_entry, kind, found)
            made[path] = found
        return found

    return entry


_MERGED: dict[int, tuple[Memory, Mapping[str, Any] | None, Kind, dict]] = {}
"""The merged entry last made for each record (by id; the tuple keeps the record alive, so the
id names no other meanwhile) and the index entry it was merged with. The same record merged with
the same entry gives the same result: once a write has merged an entry, the index it wrote holds
that very object, and every later write finds it here with three identity checks instead of
making and merging it again (7,000 entries a write at 10,000 memories)."""
_MERGED_LIMIT = 250_000


SortKey = tuple[dt.date, str]
"""A short-term memory's place, oldest first: (date, path inside the kind folder)."""


class ShortTermOrder:
    """The short-term index's orderings and counts, kept between writes and updated for the
    records a change replaced: this runs after every write, over 70% of the tree, and sorting and
    grouping every memory again cost most of a write at 10,000 memories.

    Every list holds sort keys in ascending order (bisect keeps it so); the index lists them
    newest first. `groups` are index.md's by-topic lists, each made again only when one of its
    memories changed, so an unchanged group is the very list of the last build.
    """

    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        """Every list and count empty, as the first build finds them."""
        self.tracked = Tracked({Kind.SHORT_TERM})
        self.keys: list[SortKey] = []
        self.by_key: dict[SortKey, Memory] = {}
        self.critical: list[SortKey] = []
        self.frequent: list[SortKey] = []
        """Referenced at least HIGH_PRIORITY_REFERENCES times."""
        self.topics: dict[str, list[SortKey]] = {}
        self.groups: dict[str, list[dict]] = {}
        self.importance = {"high": 0, "medium": 0, "low": 0}
        self.types: Counter[str] = Counter()
        self.projects: Counter[str] = Counter()
        self.bad: dict[str, Memory] = {}

    def update(self, memories: Sequence[Memory]) -> None:
        """Bring every list and count to the short-term records of `memories` (in tree order)."""
        added, removed = self.tracked.diff(memories)
        if len(added) + len(removed) > max(64, len(memories) // 8):
            # Many changed (a first build, another tree): sorting once beats inserting each.
            self._clear()
            self.tracked.reset(memories)
            removed, added = [], sorted(of_kind(memories), key=_sort_key)
        if not (added or removed):
            return
        moves: Counter[tuple[str, SortKey]] = Counter()
        try:
            for memory in removed:
                self._count(memory, -1, moves)
            for memory in added:
                self._count(memory, 1, moves)
        except Exception:
            self._clear()  # half updated: the next build starts from scratch
            raise
        # A group lists file names only: a record replaced in its place (a flag toggled) leaves
        # its group as it was, the very list, so index.md does not render it again either.
        dirty = {topic for (topic, _), step in moves.items() if step}
        for topic in dirty:
            keys = self.topics.get(topic)
            if keys:
                self.groups[topic] = [{"file": key[1]} for key in reversed(keys)]
            else:
                self.topics.pop(topic, None)
                self.groups.pop(topic, None)

    def _count(self, m: Memory, step: int, moves: Counter[tuple[str, SortKey]]) -> None:
        """Add (step 1) or take away (step -1) one record's place in every list and count."""
        if not m.frontmatter and m.has_errors:  # unreadable: see entries.readable
            if step > 0:
                self.bad[m.path] = m
            else:
                self.bad.pop(m.path, None)
            return
        key = _sort_key(m)
        topic = m.topics[0] if m.topics else UNTAGGED
        lists = [self.keys, self.topics.setdefault(topic, [])]
        lists += [self.critical] if m.critical else []
        lists += [self.frequent] if m.reference_count >= HIGH_PRIORITY_REFERENCES else []
        for keys in lists:
            if step > 0:
                bisect.insort(keys, key)
            else:
                del keys[bisect.bisect_left(keys, key)]
        if step > 0:
            self.by_key[key] = m
        else:
            del self.by_key[key]
        moves[topic, key] += step
        self.importance[m.importance or DEFAULT_IMPORTANCE] += step
        for counter, value in ((self.types, m.type), (self.projects, m.project)):
            if value:
                counter[value] += step
                if not counter[value]:
                    del counter[value]

    def newest(self, keys: list[SortKey]) -> list[Memory]:
        by_key = self.by_key
        return [by_key[key] for key in reversed(keys)]

    def dated(self, since: dt.date, before: dt.date | None = None) -> list[Memory]:
        """Memories dated `since` or later (and before `before`), newest first."""
        start = bisect.bisect_left(self.keys, (since,))
        end = len(self.keys) if before is None else bisect.bisect_left(self.keys, (before,))
        return self.newest(self.keys[start:end])


def of_kind(memories: Sequence[Memory]) -> list[Memory]:
    return [m for m in memories if m.kind is Kind.SHORT_TERM]


def _sort_key(m: Memory) -> SortKey:
    return (m.date or dt.date.min, m.path.removeprefix(Kind.SHORT_TERM.folder + "/"))


def _sorted_counts(counted: Counter[str]) -> dict[str, int]:
    return dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))


_SHORT_TERM = ShortTermOrder()
_SHORT_TERM_LOCK = threading.Lock()


class _CopyTest:
    """Which listed memories are samantha-llm's merge copies beside their original: its worker
    never indexes them (its merge writes them after the index), and listed they would have the
    assistant read one memory twice at start-up. The paths of the short-term memories are
    gathered only when a listed name has a copy's shape."""

    def __init__(self, order: ShortTermOrder) -> None:
        self._order = order
        self._paths: set[str] | None = None
        self.found = False

    def named(self, file: Any) -> bool:
        """Whether an entry's `file` (relative to the short-term folder) is such a copy."""
        if not isinstance(file, str):
            return False
        original = original_of(file)
        if original is None:
            return False
        if self._paths is None:
            self._paths = {m.path for m in self._order.by_key.values()}
        copied = f"{Kind.SHORT_TERM.folder}/{original}" in self._paths
        self.found = self.found or copied
        return copied

    def without(self, memories: Iterable[Memory]) -> list[Memory]:
        prefix = Kind.SHORT_TERM.folder + "/"
        return [m for m in memories if not self.named(m.path.removeprefix(prefix))]


def build_short_term(
    memories: Sequence[Memory],
    old: Mapping[str, Any] | None,
    today: dt.date,
    stamp: str,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
    order: ShortTermOrder | None = None,
) -> Built:
    """The short-term index: every key samantha-llm's worker reads, newest first, from the
    short-term records of `memories` (the whole tree's, or only short-term ones).

    `order` (default: the one kept between calls) is updated to `memories` first.
    """
    kind = Kind.SHORT_TERM
    entry = _entries(kind, old, previous)
    with _SHORT_TERM_LOCK:
        order = order or _SHORT_TERM
        order.update(memories)
        # Days 0-30 are recent, 31-90 older (dates in the future are recent too).
        recent = order.dated(today - dt.timedelta(days=RECENT_DAYS))
        older = order.dated(
            today - dt.timedelta(days=OLDER_DAYS), today - dt.timedelta(days=RECENT_DAYS)
        )
        critical = order.newest(order.critical)
        frequent = order.newest(order.frequent)
        total = len(order.keys)
        stats = {
            "by_importance": dict(order.importance),
            "by_type": _sorted_counts(order.types),
            "by_project": _sorted_counts(order.projects),
        }
        # index.md lists every memory by topic, by file name only.
        by_topic = {topic: order.groups[topic] for topic in sorted(order.groups)}
        bad = [m for m in of_kind(memories) if m.path in order.bad] if order.bad else []
        copy = _CopyTest(order)
        critical, frequent = copy.without(critical), copy.without(frequent)
        recent, older = copy.without(recent), copy.without(older)
        if copy.found:
            by_topic = {
                topic: [item for item in group if not copy.named(item.get("file"))]
                for topic, group in by_topic.items()
            }

    def listed(keep: Iterable[Memory]) -> list[dict]:
        return [entry(m) for m in keep]

    derived: dict[str, Any] = {
        "last_updated": stamp,
        "total_memories": total,
        "critical": listed(critical),
        "high_priority": listed(frequent),
        "recent": {
            "high_importance": listed(m for m in recent if importance(m) == "high"),
            # samantha-llm's worker files everything that is not high here, low included.
            "medium_importance": listed(m for m in recent if importance(m) != "high"),
        },
    }
    # `older` is not a documented key; hand-kept indexes carry it, and then it is kept current.
    if old and "older" in old:
        derived["older"] = listed(older)
        older_lines = derived["older"]
    else:
        # Only index.md lists these, each from its file: an entry the index.json held (the
        # worker never takes one out of `recent`) is dropped from it by this very write, and
        # its line made from that entry would be made from the file at the next run instead.
        listed_in_json = {m.path for m in (*critical, *frequent, *recent)}
        from_file = _entries(kind, None, {})
        older_lines = [entry(m) if m.path in listed_in_json else from_file(m) for m in older]
    derived["stats"] = stats
    return Built(
        data=merge_root(derived, old, nested=frozenset({"recent", "stats"})),
        extra={"recent": listed(recent), "older": older_lines, "by_topic": by_topic},
        unindexed=tuple(bad),
    )


def build_long_term(
    memories: Sequence[Memory],
    old: Mapping[str, Any] | None,
    today: dt.date,
    stamp: str,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
) -> Built:
    """The long-term index: critical, high importance, and every memory by its first topic."""
    kind = Kind.LONG_TERM
    good, bad = readable(memories)
    entry = _entries(kind, old, previous)
    prefix = kind.folder + "/"
    by_file = _sorted_by(good, [m.path.removeprefix(prefix) for m in good])
    by_topic = _by_first_topic(by_file, entry)
    derived = {
        "last_updated": stamp,
        "total_memories": len(good),
        "critical": [entry(m) for m in by_file if m.critical],
        "high_importance": [entry(m) for m in by_file if importance(m) == "high"],
        "by_topic": by_topic,
    }
    return Built(data=merge_root(derived, old), extra={}, unindexed=tuple(bad))

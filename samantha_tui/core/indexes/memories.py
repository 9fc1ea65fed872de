"""Short- and long-term indexes: entries grouped for bootstrap, with counts."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..model import Kind, Memory
from .entries import DEFAULT_IMPORTANCE, MEMORY, entry_key, importance, memory_entry, readable
from .merge import merge_root, merge_shared
from .sections import Built, first_by_key

RECENT_DAYS = 30
"""`recent` covers memories at most this many days old (day 30 included)."""
OLDER_DAYS = 90
HIGH_PRIORITY_REFERENCES = 5
UNTAGGED = "untagged"
"""The `by_topic` group of memories with no topics."""


def _counts(values: Iterable[str | None]) -> dict[str, int]:
    counted = Counter(value for value in values if value)
    return dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))


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

    def entry(memory: Memory) -> dict:
        if memory.path not in made:
            key = entry_key(kind, memory)
            made[memory.path] = merge_shared(memory_entry(kind, memory), previous.get(key), MEMORY)
        return made[memory.path]

    return entry


def build_short_term(
    memories: Sequence[Memory],
    old: Mapping[str, Any] | None,
    today: dt.date,
    stamp: str,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
) -> Built:
    """The short-term index: every key samantha-llm's worker reads, newest first."""
    kind = Kind.SHORT_TERM
    good, bad = readable(memories)
    entry = _entries(kind, old, previous)
    prefix = kind.folder + "/"
    # This runs after every write, over 70% of the tree: keys are made in plain loops, without a
    # function call per memory.
    newest = _sorted_by(good, [(m.date or dt.date.min, m.path.removeprefix(prefix)) for m in good])
    newest.reverse()

    def listed(keep: Iterable[Memory]) -> list[dict]:
        return [entry(m) for m in keep]

    recent: list[Memory] = []
    older: list[Memory] = []
    for m in newest:
        if m.date is not None:
            days = (today - m.date).days
            if days <= RECENT_DAYS:
                recent.append(m)
            elif days <= OLDER_DAYS:
                older.append(m)
    by_importance = {"high": 0, "medium": 0, "low": 0}
    for m in good:
        by_importance[m.importance or DEFAULT_IMPORTANCE] += 1
    derived: dict[str, Any] = {
        "last_updated": stamp,
        "total_memories": len(good),
        "critical": listed(m for m in newest if m.critical),
        "high_priority": listed(m for m in newest if m.reference_count >= HIGH_PRIORITY_REFERENCES),
        "recent": {
            "high_importance": listed(m for m in recent if importance(m) == "high"),
            # samantha-llm's worker files everything that is not high here, low included.
            "medium_importance": listed(m for m in recent if importance(m) != "high"),
        },
    }
    # `older` is not a documented key; hand-kept indexes carry it, and then it is kept current.
    if old and "older" in old:
        derived["older"] = listed(older)
    derived["stats"] = {
        "by_importance": by_importance,
        "by_type": _counts(m.type for m in good),
        "by_project": _counts(m.project for m in good),
    }
    # index.md lists every memory by topic, by file name only.
    by_topic = _by_first_topic(newest, lambda m: {"file": m.path.removeprefix(prefix)})
    return Built(
        data=merge_root(derived, old, nested=frozenset({"recent", "stats"})),
        extra={"recent": listed(recent), "older": listed(older), "by_topic": by_topic},
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

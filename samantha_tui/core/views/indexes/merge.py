"""Merge, don't clobber: derived values replace what the files decide, everything else stays."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .jsonfmt import SharedEntry


@dataclass(frozen=True)
class Shape:
    """Which keys of an index entry the memory file decides, and in what order they are written."""

    order: tuple[str, ...]
    """The documented key order, used to place keys the old entry did not have."""
    owned: frozenset[str]
    """Keys the file decides: its value replaces the index's, its absence removes the key."""
    fallback: frozenset[str] = field(default_factory=frozenset)
    """Keys the index decides (often hand-written); the file's value only fills a blank."""
    unordered: frozenset[str] = field(default_factory=frozenset)
    """List keys whose order carries no meaning: the old order is kept while the items match."""
    union: frozenset[str] = field(default_factory=frozenset)
    """List keys (and `triggers`' lists) the index may hold more items of than the file: the
    index's items stay, in their order, and the file's new items follow."""
    spelled: frozenset[str] = field(default_factory=frozenset)
    """Text keys samantha-llm's worker reads from the line, quotes and all: an index value that
    is the file's value in quotes stays, as the worker indexed a quoted line (`"q"`, where
    samantha-tui reads q: see reading/name_fields.py)."""


def blank(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def ordered(values: Mapping[str, Any], canonical: Sequence[str], old_order: Iterable[str]) -> dict:
    """Keys in their old order; new documented keys go after the documented key before them."""
    keys = [key for key in old_order if key in values]
    if len(keys) == len(values):
        return {key: values[key] for key in keys}
    for index, key in enumerate(canonical):
        if key in values and key not in keys:
            position = 0
            for previous in reversed(canonical[:index]):
                if previous in keys:
                    position = keys.index(previous) + 1
                    break
            keys.insert(position, key)
    keys += [key for key in values if key not in keys]
    return {key: values[key] for key in keys}


def merge_entry(derived: Mapping[str, Any], old: Mapping[str, Any] | None, shape: Shape) -> dict:
    """One entry: the file's values, the index's own keys kept, blanks filled from the file."""
    if not old:
        return ordered(derived, shape.order, ())
    values: dict[str, Any] = {}
    for key, value in old.items():
        if key in shape.owned or (key in shape.fallback and blank(value)):
            continue
        values[key] = value
    for key in shape.owned:
        if key in derived:
            new = derived[key]
            previous = old.get(key)
            same_items = (
                key in shape.unordered
                and isinstance(previous, list)
                and sorted(map(str, previous)) == sorted(map(str, new))
            )
            if key in shape.union:
                values[key] = united(previous, new)
            elif key in shape.spelled and quoted_as(previous, new):
                values[key] = previous
            else:
                values[key] = previous if same_items else new
        elif key in old and blank(old[key]):
            values[key] = old[key]  # "" and a missing key mean the same; keep the file's bytes
    for key in shape.fallback:
        if key not in values and key in derived:
            values[key] = derived[key]
    return ordered(values, shape.order, old)


def quoted_as(previous: Any, new: Any) -> bool:
    """Whether `previous` is the text `new` in quotes: `"q"` for the file's `project: "q"`, as
    samantha-llm's worker reads and indexes that line."""
    return (
        isinstance(previous, str)
        and isinstance(new, str)
        and len(previous) == len(new) + 2
        and previous[0] == previous[-1]
        and previous[0] in "'\""
        and previous[1:-1] == new
    )


def _same(item: Any) -> Any:
    """What makes two list items one: a negative signal by its `signal`, others by value."""
    if isinstance(item, Mapping) and "signal" in item:
        return ("signal", str(item["signal"]))
    return repr(item) if isinstance(item, Mapping | list) else item


def united(old: Any, new: Any) -> Any:
    """The index's items with the file's added: lists by item, maps (triggers) key by key.

    The old value is returned itself when the file adds nothing, so it is written back as read.
    """
    if isinstance(old, list) and isinstance(new, list):
        seen = {_same(item) for item in old}
        extra = [item for item in new if _same(item) not in seen]
        return old + extra if extra else old
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        values = dict(old)
        changed = False
        for key, value in new.items():
            merged = united(old[key], value) if key in old else value
            changed = changed or key not in old or merged is not old[key]
            values[key] = merged
        return values if changed else old
    return old if new is None or new == old else new


def without(value: Any, lost: Any) -> Any:
    """value less the items in `lost` (same shape): what a change removed from the file."""
    if isinstance(value, list) and isinstance(lost, list):
        gone = {_same(item) for item in lost}
        kept = [item for item in value if _same(item) not in gone]
        return kept if len(kept) != len(value) else value
    if isinstance(value, Mapping) and isinstance(lost, Mapping):
        return {
            key: without(item, lost.get(key)) if key in lost else item
            for key, item in value.items()
        }
    return value


def lost(before: Any, after: Any) -> Any:
    """The items `before` has and `after` has not (lists, or maps of lists): None when none."""
    if isinstance(before, list):
        have = {_same(item) for item in after} if isinstance(after, list) else set()
        gone = [item for item in before if _same(item) not in have]
        return gone or None
    if isinstance(before, Mapping):
        after = after if isinstance(after, Mapping) else {}
        found = {key: lost(value, after.get(key)) for key, value in before.items()}
        found = {key: value for key, value in found.items() if value is not None}
        return found or None
    return None


# The last merge of each shared derived entry (entries.memory_entry keeps them): while the index
# still holds the same old entry, the result is the same, and re-indexing after one write merges
# only the entry that changed.
_LAST: dict[int, tuple[Mapping[str, Any], Mapping[str, Any] | None, Shape, SharedEntry]] = {}
_LAST_LIMIT = 250_000


def merge_shared(
    derived: Mapping[str, Any], old: Mapping[str, Any] | None, shape: Shape
) -> SharedEntry:
    """merge_entry for a derived entry that is shared and never changed; so is the result."""
    last = _LAST.get(id(derived))
    # The stored entry keeps derived alive, so its id cannot name another object meanwhile.
    if (
        last is not None
        and last[0] is derived
        and last[2] is shape
        and (last[1] is old or last[1] == old)
    ):
        return last[3]
    merged = SharedEntry(merge_entry(derived, old, shape))
    if len(_LAST) >= _LAST_LIMIT:
        _LAST.clear()
    _LAST[id(derived)] = (derived, old, shape, merged)
    return merged


def merge_root(
    derived: Mapping[str, Any], old: Mapping[str, Any] | None, nested: frozenset[str] = frozenset()
) -> dict:
    """The top level: derived keys replaced; unknown keys, also inside `nested` maps, kept."""
    if not old:
        return dict(derived)
    values = dict(old)
    for key, value in derived.items():
        previous = old.get(key)
        if key in nested and isinstance(previous, Mapping) and isinstance(value, Mapping):
            values[key] = merge_root(value, previous)
        else:
            values[key] = value
    return ordered(values, list(derived), old)

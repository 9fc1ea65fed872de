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
            values[key] = previous if same_items else new
        elif key in old and blank(old[key]):
            values[key] = old[key]  # "" and a missing key mean the same; keep the file's bytes
    for key in shape.fallback:
        if key not in values and key in derived:
            values[key] = derived[key]
    return ordered(values, shape.order, old)


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
    if last is not None and last[0] is derived and last[2] is shape and last[1] == old:
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

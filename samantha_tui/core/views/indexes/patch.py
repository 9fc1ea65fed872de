"""Patch an index, never clobber it: the entries of the memories in scope follow their files, and
everything else the index holds stays where it is, as it is.

samantha-llm and the assistant write the index files too, and keep state there that no memory
file holds (projects with no folder, trigger signals, hand-kept lists). So an index write starts
from the index on disk: an entry in scope is replaced where it stands, or removed from a list the
files no longer put it in; an entry of a new memory is inserted beside the entries the files order
it with; every other entry, list and key is the very object read, so it is written back byte for
byte.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Mapping
from typing import Any

from ...basics.model import Kind
from .merge import ordered
from .sections import EntryKey, entries

InScope = Callable[[str], bool]

# Where each kind keeps its entry lists: top-level keys, and maps of lists (`recent`, `by_topic`).
_LISTS = {
    Kind.SHORT_TERM: frozenset({"critical", "high_priority", "older"}),
    Kind.LONG_TERM: frozenset({"critical", "high_importance"}),
    Kind.CURRENT_TASKS: frozenset({"active", "blocked", "recently_completed"}),
    Kind.WORK_EXPERIENCE: frozenset({"completed"}),
    Kind.PROCEDURAL: frozenset({"runbooks"}),
}
_GROUPS = {Kind.SHORT_TERM: frozenset({"recent"}), Kind.LONG_TERM: frozenset({"by_topic"})}
# Totals that count a list after the patch, so index-only entries are counted as samantha-llm does.
_COUNTED = {
    Kind.CURRENT_TASKS: ("active_count", "active"),
    Kind.WORK_EXPERIENCE: ("total_projects", "completed"),
    Kind.PROCEDURAL: ("total_runbooks", "runbooks"),
}


def patch_list(
    old: Any,
    new: list[Any],
    in_scope: InScope,
    key_of: EntryKey,
    exact: frozenset[str] | None = None,
) -> list[Any]:
    """One entry list: in-scope entries follow `new` (the list the files give), the rest stay.

    An in-scope entry already listed is replaced where it stands; one `new` no longer lists is
    dropped; one `new` adds goes after the entry `new` puts before it (or before the first
    one `new` puts after it). Items that are not entries, and entries of no memory in scope,
    keep their places.

    `exact` (see scope.KindScope.exact): the in-scope keys are exactly these `file` values,
    so the lists are searched for them in C instead of asking every entry for its key.
    """
    if not isinstance(old, list):
        return list(new)
    if exact is not None:
        found = _patch_exact(old, new, exact, key_of)
        if found is not None:
            return found
    wanted: dict[str, Any] = {}
    for item in new:
        key = key_of(item)
        if key is not None and in_scope(key):
            wanted.setdefault(key, item)
    kept: list[Any] = []
    placed: set[str] = set()
    for item in old:
        key = key_of(item) if isinstance(item, Mapping) else None
        if key is None or not in_scope(key) or key in placed:
            # Tied to no file, out of scope, or a second entry for a memory already placed (a
            # project listed under its folder's name and under another): the index's own.
            kept.append(item)
        elif key in wanted:
            kept.append(wanted[key])
            placed.add(key)
    missing = [key for key in wanted if key not in placed]
    if not missing:
        return kept
    return _inserted(kept, new, missing, key_of)


_FILE = operator.methodcaller("get", "file")


def _files(items: list[Any]) -> list[Any] | None:
    """Each item's `file`, or None when an item is not a mapping (the general path takes it)."""
    try:
        return list(map(_FILE, items))
    except (AttributeError, TypeError):
        return None


def _places(files: list[Any], key: str) -> list[int]:
    """Every index of key in files, found by list.index (C), not a Python test per item."""
    found: list[int] = []
    start = 0
    while True:
        try:
            start = files.index(key, start)
        except ValueError:
            return found
        found.append(start)
        start += 1


def _patch_exact(
    old: list[Any], new: list[Any], exact: frozenset[str], key_of: EntryKey
) -> list[Any] | None:
    """patch_list when the in-scope keys are exactly `exact`: the same result, made by
    replacing and dropping at the places of those keys alone."""
    old_files, new_files = _files(old), _files(new)
    if old_files is None or new_files is None:
        return None
    firsts = {}
    for key in exact:
        places = _places(new_files, key)
        if places:
            firsts[key] = places[0]
    wanted = {key: new[firsts[key]] for key in sorted(firsts, key=firsts.__getitem__)}
    replaced: dict[int, Any] = {}
    dropped: list[int] = []
    placed: set[str] = set()
    for key in exact:
        places = _places(old_files, key)
        if not places:
            continue
        if key in wanted:
            # Its first entry follows the file; a later one is the index's own.
            replaced[places[0]] = wanted[key]
            placed.add(key)
        else:
            dropped += places
    kept = old.copy()
    for index, item in replaced.items():
        kept[index] = item
    if dropped:
        joined: list[Any] = []
        start = 0
        for index in sorted(dropped):
            joined += kept[start:index]
            start = index + 1
        kept = joined + kept[start:]
    missing = [key for key in wanted if key not in placed]
    if not missing:
        return kept
    return _inserted(kept, new, missing, key_of)


def _inserted(kept: list[Any], new: list[Any], missing: list[str], key_of: EntryKey) -> list[Any]:
    """kept with the entries of `missing` added at the places `new`'s order gives them."""
    position: dict[str, int] = {}
    for index, item in enumerate(new):
        key = key_of(item)
        if key is not None:
            position.setdefault(key, index)
    # (position in new, index in kept) of every kept entry `new` also orders.
    anchors = sorted(
        (position[key], index)
        for index, item in enumerate(kept)
        if isinstance(item, Mapping) and (key := key_of(item)) in position
    )
    ranks = [rank for rank, _ in anchors]
    after: dict[int, list[Any]] = {}
    for key in missing:
        rank = position[key]
        before = bisect.bisect_left(ranks, rank)
        if before:
            slot = anchors[before - 1][1]
        elif anchors:
            slot = anchors[0][1] - 1  # ahead of the first entry new orders after it
        else:
            slot = len(kept) - 1
        after.setdefault(slot, []).append(new[rank])
    result = list(after.get(-1, ()))
    for index, item in enumerate(kept):
        result.append(item)
        result.extend(after.get(index, ()))
    return result


def _patch_groups(
    old: Any,
    new: Mapping[str, Any],
    in_scope: InScope,
    key_of: EntryKey,
    sort: bool,
    exact: frozenset[str] | None = None,
) -> dict[str, Any]:
    """A map of entry lists (`by_topic`, `recent`): each list patched; a group the patch empties
    is dropped when the files have none; new groups placed in sorted order when `sort`."""
    if not isinstance(old, Mapping):
        return dict(new)
    result: dict[str, Any] = {}
    for group, items in old.items():
        if not isinstance(items, list):
            result[group] = items
            continue
        patched = patch_list(items, list(entries(new.get(group))), in_scope, key_of, exact)
        if patched or not items or group in new:
            result[group] = patched
    for group, items in new.items():
        if group not in result:
            patched = [item for item in items if (key := key_of(item)) and in_scope(key)]
            if patched:
                result[group] = patched
    if sort and any(group not in old for group in result):
        return {group: result[group] for group in sorted(result)}
    return result


def patch_data(
    kind: Kind,
    old: Mapping[str, Any] | None,
    derived: Mapping[str, Any],
    in_scope: InScope,
    key_of: EntryKey,
    exact: frozenset[str] | None = None,
) -> dict[str, Any]:
    """The index after the patch: derived counts and stamps, entry lists patched, the rest kept.

    `exact`: the in-scope keys, when they are exactly some entries' `file` (a change's patch).
    """
    if not old:
        return dict(derived)
    result = dict(old)
    lists, groups = _LISTS[kind], _GROUPS.get(kind, frozenset())
    for key, value in derived.items():
        previous = old.get(key)
        if key in lists:
            result[key] = patch_list(previous, list(value), in_scope, key_of, exact)
        elif key in groups:
            sort = key == "by_topic"
            result[key] = _patch_groups(previous, value, in_scope, key_of, sort, exact)
        elif isinstance(value, Mapping) and isinstance(previous, Mapping):
            # `stats` and the like: derived keys replaced, unknown keys kept.
            result[key] = ordered({**previous, **value}, list(value), previous)
        else:
            result[key] = value
    counted = _COUNTED.get(kind)
    if counted and counted[0] in result and isinstance(result.get(counted[1]), list):
        result[counted[0]] = len(result[counted[1]])
    return ordered(result, list(derived), old)

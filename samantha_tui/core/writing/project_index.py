"""Hand-kept fields of the current-tasks index: what applying a pending project update changes."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..basics import json_spans
from ..basics.json_read import loads as json_loads
from ..basics.json_read import read_regular
from ..basics.model import TASKS_INDEX as INDEX
from ..views.indexes import dump_json
from .atomic import StoreError, digest_bytes
from .store import Store

# Where samantha-llm's `projects review` looks for a project's entry, in its order (not `blocked`).
SECTIONS = ("active", "recently_completed")
_BOM = "\ufeff"


@dataclass(frozen=True)
class Previous:
    """What set_project_fields found before it wrote: enough to put the entry back exactly."""

    values: dict[str, Any]
    """Keys the entry had, with their values (null included)."""
    absent: tuple[str, ...]
    """Keys the entry did not have."""


def _load(store: Store) -> tuple[dict[str, Any], bytes]:
    path = store.safe_path(INDEX)
    try:
        raw = read_regular(path)
    except FileNotFoundError:
        raise StoreError(f"{INDEX} does not exist; run `samantha-tui index` first") from None
    try:
        data = json_loads(raw)
    except ValueError:
        raise StoreError(f"{INDEX} is not valid JSON; fix it or run `samantha-tui index`") from None
    if not isinstance(data, dict):
        raise StoreError(f"{INDEX} is not a JSON object; fix it or run `samantha-tui index`")
    return data, raw


def locate(data: Mapping[str, Any], project: str) -> tuple[str, int] | None:
    """(section, position) of the entry samantha-llm would update: the first whose `name` is the
    project, in `active`, then `recently_completed`. No folder is needed."""
    for section in SECTIONS:
        entries = data.get(section)
        if not isinstance(entries, list):
            continue
        for position, entry in enumerate(entries):
            if isinstance(entry, dict) and entry.get("name") == project:
                return section, position
    return None


def find_entry(data: Mapping[str, Any], project: str) -> dict[str, Any] | None:
    """The entry samantha-llm would update for the project, or None."""
    where = locate(data, project)
    return None if where is None else data[where[0]][where[1]]


def set_project_fields(
    store: Store, project: str, values: Mapping[str, Any], unset: Iterable[str] = ()
) -> Previous:
    """Set keys on the project's entry (a None value is written as null), remove the `unset` keys,
    and set `last_updated` to today; every other byte of the file stays as it was.

    Returns what the entry held before, for undo.
    """
    data, raw = _load(store)
    where = locate(data, project)
    if where is None:
        raise StoreError(
            f"project {project!r} is not in the active or recently_completed list of {INDEX}; "
            "samantha-llm applies an update only there"
        )
    section, position = where
    entry = data[section][position]
    unset = tuple(key for key in unset if key not in values)
    keys = (*values, *unset)
    previous = Previous(
        {key: entry[key] for key in keys if key in entry},
        tuple(key for key in keys if key not in entry),
    )
    for key in unset:
        entry.pop(key, None)
    entry.update(values)
    data["last_updated"] = store.today().isoformat()
    store.write_file(INDEX, _patched(raw, data, where, values, unset), digest_bytes(raw))
    return previous


def _patched(
    raw: bytes,
    data: dict[str, Any],
    where: tuple[str, int],
    values: Mapping[str, Any],
    unset: Iterable[str],
) -> bytes:
    """The file with only the changed members rewritten; the whole index in the standard layout
    when its text cannot be walked (it still parsed, so nothing is lost)."""
    try:
        text = raw.decode("utf-8")
        bom = _BOM if text.startswith(_BOM) else ""
        text = text.removeprefix(bom)
        for key in unset:
            text = json_spans.remove_member(text, _entry_spans(text, where), key)
        for key, value in values.items():
            text = json_spans.set_member(text, _entry_spans(text, where), key, value)
        root = json_spans.object_at(text, 0)
        text = json_spans.set_member(text, root, "last_updated", data["last_updated"])
        # The walk is checked, not trusted: what it wrote must read back as the intended index.
        if json.loads(text) == data:
            return (bom + text).encode("utf-8")
    except (UnicodeDecodeError, ValueError, json_spans.NotPatchable):
        pass
    return dump_json(data)


def _entry_spans(text: str, where: tuple[str, int]) -> json_spans.ObjectSpans:
    section, position = where
    member = json_spans.object_at(text, 0).last(section)
    if member is None:
        raise json_spans.NotPatchable(f"no {section} list")
    elements = json_spans.elements_at(text, member.value_start)
    return json_spans.object_at(text, elements[position][0])

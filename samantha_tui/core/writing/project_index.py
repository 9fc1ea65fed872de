"""Hand-kept fields of the current-tasks index: what applying a pending project update changes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..basics.json_read import loads as json_loads
from ..basics.json_read import read_regular
from ..basics.model import TASKS_INDEX as INDEX
from ..views.project_fields import SECTIONS, find_entry, locate, patched
from .atomic import StoreError, digest_bytes
from .store import Store

__all__ = ["SECTIONS", "Previous", "find_entry", "locate", "set_project_fields"]


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
    store.write_file(INDEX, patched(raw, data, where, values, unset), digest_bytes(raw))
    return previous

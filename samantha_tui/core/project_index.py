"""Hand-kept fields of the current-tasks index: what applying a pending project update changes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .atomic import StoreError, digest_bytes
from .indexes import dump_json
from .model import Kind
from .store import Store

INDEX = f"{Kind.CURRENT_TASKS.folder}/index.json"
# Where the real tool looks for a project's entry, in its order.
SECTIONS = ("active", "recently_completed")


def _load(store: Store) -> tuple[dict[str, Any], bytes]:
    path = store.safe_path(INDEX)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise StoreError(f"{INDEX} does not exist; run `samantha-tui index` first") from None
    try:
        data = json.loads(raw)
    except ValueError:
        raise StoreError(f"{INDEX} is not valid JSON; fix it or run `samantha-tui index`") from None
    if not isinstance(data, dict):
        raise StoreError(f"{INDEX} is not a JSON object; fix it or run `samantha-tui index`")
    return data, raw


def find_entry(data: Mapping[str, Any], project: str) -> dict[str, Any] | None:
    for section in SECTIONS:
        for entry in data.get(section) or ():
            if isinstance(entry, dict) and entry.get("name") == project:
                return entry
    return None


def set_project_fields(store: Store, project: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """Set keys on the project's entry (None removes a key) and `last_updated` to today.

    Returns the previous values of those keys (None where a key was absent), for undo.
    """
    data, raw = _load(store)
    entry = find_entry(data, project)
    if entry is None:
        raise StoreError(
            f"project {project!r} is not in {INDEX}; run `samantha-tui index` to add it first"
        )
    previous = {key: entry.get(key) for key in values}
    for key, value in values.items():
        if value is None:
            entry.pop(key, None)
        else:
            entry[key] = value
    data["last_updated"] = store.today().isoformat()
    store.write_file(INDEX, dump_json(data), digest_bytes(raw))
    return previous

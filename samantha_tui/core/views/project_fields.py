"""Hand-kept fields of the current-tasks index as data: which entry a pending project update
changes, and the file's bytes once it is changed (the writing of them is project_index.py's)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..basics import json_spans
from .indexes import dump_json

# Where samantha-llm's `projects review` looks for a project's entry, in its order (not `blocked`).
SECTIONS = ("active", "recently_completed")
_BOM = "\ufeff"


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


def patched(
    raw: bytes,
    data: dict[str, Any],
    where: tuple[str, int],
    values: Mapping[str, Any],
    unset: Iterable[str],
) -> bytes:
    """The file with only the changed members rewritten (`data` is the index as it must read
    afterwards, `last_updated` set); the whole index in the standard layout when its text cannot
    be walked (it still parsed, so nothing is lost)."""
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

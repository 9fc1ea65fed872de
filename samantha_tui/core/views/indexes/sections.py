"""Where an index keeps its entries, per kind: read back from any index, however hand-edited."""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass
from typing import Any

from ...basics.model import Kind, Memory

PROJECT_LISTS = ("active", "blocked", "recently_completed")


@dataclass(frozen=True)
class Built:
    """A freshly derived index for one kind."""

    data: dict[str, Any]
    """The index.json content, `last_updated` included."""
    extra: dict[str, Any]
    """Lists only index.md shows (short-term `older` and `by_topic` when the JSON has none)."""
    unindexed: tuple[Memory, ...]
    """Memories left out because their frontmatter cannot be read."""


def key_field(kind: Kind) -> str:
    return "name" if kind.is_project_kind else "file"


def entries(value: Any) -> list[Mapping[str, Any]]:
    """The entries of a list an index holds; anything not a mapping is skipped."""
    if not isinstance(value, list):
        return []
    # Entries are nearly always dicts: checking that first skips the slower abstract-class check.
    return [item for item in value if type(item) is dict or isinstance(item, Mapping)]


def sections(kind: Kind, data: Mapping[str, Any]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """(section name, entries) for every entry list of an index, in a fixed order."""
    if kind is Kind.SHORT_TERM:
        recent = data.get("recent")
        recent = recent if isinstance(recent, Mapping) else {}
        return [
            ("critical", entries(data.get("critical"))),
            ("high_priority", entries(data.get("high_priority"))),
            ("recent.high_importance", entries(recent.get("high_importance"))),
            ("recent.medium_importance", entries(recent.get("medium_importance"))),
            ("older", entries(data.get("older"))),
        ]
    if kind is Kind.LONG_TERM:
        topics = data.get("by_topic")
        topics = topics if isinstance(topics, Mapping) else {}
        found = [
            ("critical", entries(data.get("critical"))),
            ("high_importance", entries(data.get("high_importance"))),
        ]
        return found + [(f"by_topic.{topic}", entries(topics[topic])) for topic in sorted(topics)]
    if kind is Kind.CURRENT_TASKS:
        return [(name, entries(data.get(name))) for name in PROJECT_LISTS]
    if kind is Kind.WORK_EXPERIENCE:
        return [("completed", entries(data.get("completed")))]
    return [("runbooks", entries(data.get("runbooks")))]


EntryKey = Callable[[Mapping[str, Any]], str | None]
"""Which memory an index entry stands for (its key), or None when it is tied to no file."""


def entry_keys(kind: Kind, known: Container[str]) -> EntryKey:
    """How entries of this kind are tied to files, among the `known` keys (files or project
    folders that exist, and those a change just removed).

    A memory entry by its `file`. A project entry by the folder its `files` paths name, then by
    its `name`: samantha-llm's readers go by `name` alone, so "Gateway Refactor" with
    `files: ["gateway/status.md"]` is the project in `gateway/`. An entry tied to nothing known
    is the index's own (None): kept as it is.
    """
    if not kind.is_project_kind:

        def by_file(entry: Mapping[str, Any]) -> str | None:
            key = entry.get("file")
            return key if isinstance(key, str) and key in known else None

        return by_file
    folders = known

    def by_folder(entry: Mapping[str, Any]) -> str | None:
        files = entry.get("files")
        if isinstance(files, list):
            for path in files:
                if isinstance(path, str) and "/" in path:
                    folder = path.split("/", 1)[0]
                    if folder in folders:
                        return folder
        name = entry.get("name")
        return name if isinstance(name, str) and name in folders else None

    return by_folder


def _by_name(kind: Kind) -> EntryKey:
    field = key_field(kind)

    def named(entry: Mapping[str, Any]) -> str | None:
        key = entry.get(field)
        return key if isinstance(key, str) else None

    return named


def first_by_key(
    kind: Kind, data: Mapping[str, Any] | None, key_of: EntryKey | None = None
) -> dict[str, Mapping[str, Any]]:
    """Each entry's first appearance in the index, by its key (default: file or project name)."""
    found: dict[str, Mapping[str, Any]] = {}
    key_of = key_of or _by_name(kind)
    for _, items in sections(kind, data or {}):
        for item in items:
            key = key_of(item)
            if key is not None and key not in found:
                found[key] = item
    return found


def listed_in(
    kind: Kind, data: Mapping[str, Any] | None, key_of: EntryKey | None = None
) -> dict[str, list[str]]:
    """The sections each entry appears in, by its key (default: file or project name)."""
    found: dict[str, list[str]] = {}
    key_of = key_of or _by_name(kind)
    for section, items in sections(kind, data or {}):
        for item in items:
            key = key_of(item)
            if key is not None and section not in found.setdefault(key, []):
                found[key].append(section)
    return found


def untied(kind: Kind, data: Mapping[str, Any] | None, key_of: EntryKey) -> list[str]:
    """Names of the entries tied to no file samantha-tui reads, in index order, once each."""
    found: dict[str, None] = {}
    field = key_field(kind)
    for section, items in sections(kind, data or {}):
        for item in items:
            if key_of(item) is None:
                label = item.get(field)
                found[f"{label if isinstance(label, str) else '(unnamed)'} ({section})"] = None
    return list(found)

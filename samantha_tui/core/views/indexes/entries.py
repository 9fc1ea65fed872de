"""One memory file -> the index entry the files alone can give, and which keys of it they own."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from ...basics.model import Kind, Memory
from ...basics.schema import SIGNAL_KEYS
from ...reading.heading import index_title
from .jsonfmt import plain
from .merge import Shape
from .summary import summary_of

MEMORY = Shape(
    order=(
        "file",
        "date",
        "title",
        "summary",
        "importance",
        "type",
        "project",
        "topics",
        "references",
    ),
    owned=frozenset(
        {"file", "date", "title", "importance", "type", "project", "topics", "references"}
    ),
    fallback=frozenset({"summary"}),
    union=frozenset({"topics"}),
    spelled=frozenset({"project", "type"}),
)
RUNBOOK = Shape(
    order=("file", "domain", "summary", "triggers", "confidence", "corrections_count"),
    owned=frozenset({"file", "domain", "triggers", "confidence", "corrections_count"}),
    fallback=frozenset({"summary"}),
    # samantha-llm's merge adds trigger signals to the index entry alone: they stay.
    union=frozenset({"triggers"}),
)
PROJECT = Shape(
    order=(
        "name",
        "status",
        "started",
        "completed",
        "summary",
        "files",
        "topics",
        "recent_progress",
    ),
    owned=frozenset({"files", "topics"}),
    # The name is the index's: samantha-llm finds a project by it, and it may differ from the
    # folder ("Gateway Refactor" for gateway/).
    fallback=frozenset({"name", "status", "started", "completed", "summary"}),
    unordered=frozenset({"files"}),
    union=frozenset({"topics"}),
)

DEFAULT_IMPORTANCE = "medium"
"""What samantha-llm's worker assumes when a memory names no importance."""


def readable(memories: Iterable[Memory]) -> tuple[list[Memory], list[Memory]]:
    """(memories an index can describe, memories whose frontmatter could not be read)."""
    good: list[Memory] = []
    bad: list[Memory] = []
    for memory in memories:
        (bad if not memory.frontmatter and memory.has_errors else good).append(memory)
    return good, bad


def entry_key(kind: Kind, memory: Memory) -> str:
    """How an index names a memory: the path inside the kind folder, or the project's name."""
    inside = memory.path.removeprefix(kind.folder + "/")
    return inside.split("/", 1)[0] if kind.is_project_kind else inside


def importance(memory: Memory) -> str:
    return memory.importance or DEFAULT_IMPORTANCE


def age(memory: Memory, today: dt.date) -> int | None:
    return (today - memory.date).days if memory.date else None


def _some(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    return {key: value for key, value in pairs if value is not None}


# Entries already made, by kind, path and the digest of the bytes they were made from: after one
# write only the changed memory's entry is made again (its summary is the costly part).
_MADE: dict[tuple[Kind, str, str], dict[str, Any]] = {}
_MADE_LIMIT = 250_000


def memory_entry(kind: Kind, memory: Memory) -> dict[str, Any]:
    """Short- and long-term entry: file, date, title, summary, importance, type, project, ...

    The entry is shared between builds: read it, never change it.
    """
    key = (kind, memory.path, memory.digest)
    made = _MADE.get(key) if memory.digest else None
    if made is not None:
        return made
    entry = _memory_entry(kind, memory)
    if memory.digest:  # records built in memory without bytes have no digest to key them by
        if len(_MADE) >= _MADE_LIMIT:
            _MADE.clear()
        _MADE[key] = entry
    return entry


def _memory_entry(kind: Kind, memory: Memory) -> dict[str, Any]:
    return _some(
        (
            ("file", entry_key(kind, memory)),
            ("date", memory.date.isoformat() if memory.date else None),
            ("title", index_title(memory.title)),
            ("summary", summary_of(memory.body)),
            ("importance", importance(memory)),
            ("type", memory.type),
            ("project", memory.project),
            ("topics", list(memory.topics)),
            ("references", memory.reference_count),
        )
    )


def runbook_entry(memory: Memory) -> dict[str, Any]:
    """Procedural entry in the shape samantha-llm's merge writes.

    A trigger field that is not a list is left out (see held_back): merged, the index keeps what
    it had there; a `domain` is the text samantha-llm reads (`yes`, see reading/name_fields).
    """
    front = memory.frontmatter
    triggers = front.get("triggers")
    triggers = triggers if isinstance(triggers, Mapping) else {}
    positive = triggers.get("positive")
    positive = plain(positive) if isinstance(positive, Mapping) else {}
    negative = triggers.get("negative")
    signals: dict[str, Any] = {
        "positive": {
            key: value
            for key, value in positive.items()
            if key not in SIGNAL_KEYS or isinstance(value, list)
        }
    }
    if negative is None or isinstance(negative, list):
        signals["negative"] = plain(negative) if negative else []
    corrections = front.get("corrections")
    domain = front.get("domain")
    return _some(
        (
            ("file", entry_key(Kind.PROCEDURAL, memory)),
            ("domain", str(domain) if domain else memory.path.rsplit("/", 1)[-1][:-3]),
            ("summary", summary_of(memory.body)),
            ("triggers", signals),
            ("confidence", str(front["confidence"]) if front.get("confidence") else None),
            ("corrections_count", len(corrections) if isinstance(corrections, list) else 0),
        )
    )


def project_entry(kind: Kind, memory: Memory, default_status: str) -> dict[str, Any]:
    """Current-tasks / work-experience project: what status.md and its folder can tell."""
    name = entry_key(kind, memory)
    completed = memory.frontmatter.get("completed")
    folder = memory.path.rsplit("/", 1)[0] + "/"
    # Only the project folder's own files: files in its subfolders are read with it, not listed.
    companions = sorted(
        inside for path in memory.companions if "/" not in (inside := path.removeprefix(folder))
    )
    return _some(
        (
            ("name", name),
            ("status", memory.status or default_status),
            ("started", memory.date.isoformat() if memory.date else None),
            ("completed", plain(completed) if isinstance(completed, dt.date) else None),
            ("summary", summary_of(memory.body)),
            ("files", [f"{name}/status.md"] + [f"{name}/{file}" for file in companions]),
            ("topics", list(memory.topics)),
        )
    )

"""A new memory from the format's template: where it goes, its frontmatter and a body skeleton.

File names follow the real tool's conventions: dated kinds `YYYY-MM-DD_brief_description.md`
(lower case, words joined by `_`), projects `<project-name>/status.md` and runbooks
`<domain-name>.md` (lower case, words joined by `-`).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ..basics import schema
from ..basics.model import Kind
from ..reading.fields import FIELDS
from ..views.indexes.entries import DEFAULT_IMPORTANCE
from .atomic import StoreError

MAX_NAME = 40
"""Characters of the name part: the real tool's examples and its generator stay under 30."""

_SECTIONS: dict[Kind, tuple[str, ...]] = {
    Kind.SHORT_TERM: ("Context", "Key points", "Details", "Follow-up"),
    Kind.LONG_TERM: ("Summary", "Background", "Details", "Where it applies"),
    Kind.CURRENT_TASKS: ("Overview", "Where it stands", "Next steps", "Key files", "To resume"),
    Kind.WORK_EXPERIENCE: ("Final summary", "Lessons learned", "Key files"),
    Kind.PROCEDURAL: (
        "Project locations",
        "Key architecture",
        "Common operations",
        "Critical knowledge",
    ),
}
_SIGNAL_LISTS = ("repo_signals", "path_signals", "keyword_signals", "domain_signals")
_WORDS = re.compile(r"[^\W_]+")
_APOSTROPHES = re.compile(r"['\u2019]")


@dataclass(frozen=True)
class NewMemory:
    """A memory to create: its path relative to the root, its frontmatter and its body."""

    rel: str
    mapping: Mapping[str, Any]
    body: str


def name_from(text: str, separator: str) -> str:
    """Lower-case words of text joined by separator, accents dropped, cut to MAX_NAME at a word."""
    folded = unicodedata.normalize("NFKD", _APOSTROPHES.sub("", text))
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch)).lower()
    name = ""
    for word in _WORDS.findall(plain):
        longer = f"{name}{separator}{word}" if name else word
        if len(longer) > MAX_NAME:
            return name or word[:MAX_NAME]
        name = longer
    return name


def _named(source: str, separator: str, what: str) -> str:
    name = name_from(source, separator)
    if not name:
        raise StoreError(f"{what} {source!r} gives an empty file name; use some letters or digits")
    return name


def defaults(kind: Kind, today: dt.date) -> dict[str, Any]:
    """Keys a new memory of this kind gets unless the person chose a value."""
    if kind is Kind.CURRENT_TASKS:
        return {"status": "active"}
    if kind is Kind.WORK_EXPERIENCE:
        return {"status": "completed", "completed": today}
    if kind is Kind.PROCEDURAL:
        return {"type": "runbook", "confidence": "low"}
    return {}


def suggested(kind: Kind) -> dict[str, Any]:
    """Values a new memory's form starts with, which the person sees and may change or clear
    before saving (unlike `defaults`, nothing puts them back): a dated memory gets the
    importance samantha-llm assumes for one that names none, so its index lists agree."""
    if kind in (Kind.SHORT_TERM, Kind.LONG_TERM):
        return {"importance": DEFAULT_IMPORTANCE}
    return {}


def new_memory(
    kind: Kind,
    title: str,
    values: Mapping[str, Any],
    today: dt.date,
    existing: Collection[str] = (),
) -> NewMemory:
    """The file for a new memory titled `title` with the form's typed `values`.

    Raises StoreError for a title that gives no file name, missing topics, a value the format
    refuses, or a path already in `existing`.
    """
    title = " ".join(title.split())
    if not title:
        raise StoreError("give the memory a title")
    chosen = {key: value for key, value in values.items() if value is not None}
    if chosen.get("critical") is False:
        del chosen["critical"]
    day = chosen.setdefault("date", today)
    if not chosen.get("topics"):
        raise StoreError("add at least one topic, e.g. testing, ci")
    if kind.is_project_kind:
        noun = "project name"
        project = _named(chosen.get("project") or title, "-", f"the {noun}")
        chosen["project"] = project
        rel = f"{kind.folder}/{project}/status.md"
    elif kind is Kind.PROCEDURAL:
        noun = "domain"
        domain = _named(chosen.get("domain") or title, "-", f"the {noun}")
        chosen["domain"] = domain
        rel = f"{kind.folder}/{domain}.md"
    else:
        noun = "title"
        rel = f"{kind.folder}/{day.isoformat()}_{_named(title, '_', f'the {noun}')}.md"
    if rel in existing:
        raise StoreError(f"{rel} already exists; choose another {noun}")
    chosen = {**defaults(kind, today), **chosen}
    for key, value in chosen.items():
        message = schema.value_error(key, value)
        if message:
            raise StoreError(f"{message}; nothing was created")
    ahead = schema.future_date_error(chosen["date"], today)
    if ahead:
        raise StoreError(f"{ahead}; nothing was created")
    order = [spec.key for spec in FIELDS]
    mapping = {key: chosen[key] for key in order if key in chosen}
    mapping.update((key, value) for key, value in chosen.items() if key not in mapping)
    if kind is Kind.PROCEDURAL:
        # Without triggers a runbook never loads; the empty lists show where signals go.
        mapping.setdefault(
            "triggers", {"positive": {name: [] for name in _SIGNAL_LISTS}, "negative": []}
        )
    sections = "".join(f"\n## {section}\n" for section in _SECTIONS[kind])
    return NewMemory(rel, mapping, f"\n# {title}\n{sections}")

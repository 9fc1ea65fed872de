"""The frontmatter form's model: which fields a memory shows, parsing what a person typed, and
which keys a save really changes. Plain Python, so every rule is testable without a screen."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..basics import schema
from ..basics.model import Kind, Tree
from ..basics.wording import written
from . import frontmatter


class Control(Enum):
    """How a field is edited; the UI picks a widget for each."""

    DATE = "date"
    TOPICS = "topics"
    CHOICE = "choice"
    PROJECT = "project"
    COUNT = "count"
    SWITCH = "switch"
    TEXT = "text"


@dataclass(frozen=True)
class FieldSpec:
    """One editable frontmatter key."""

    key: str
    label: str
    control: Control
    required: bool = False
    hint: str = ""
    """Shown in an empty control: what to type (a format, never a value that could pass for
    one the file holds)."""
    example: str = ""
    """A value one could type, shown in an empty control after `e.g.` when there is no hint."""

    @property
    def placeholder(self) -> str:
        """What an empty control shows: the hint, else the example marked as one."""
        return self.hint or (f"e.g. {self.example}" if self.example else "")


FIELDS = (
    FieldSpec("date", "Date", Control.DATE, required=True, hint="YYYY-MM-DD"),
    FieldSpec("updated", "Updated", Control.DATE, hint="YYYY-MM-DD"),
    FieldSpec("topics", "Topics", Control.TOPICS, required=True, example="testing, ci"),
    FieldSpec("importance", "Importance", Control.CHOICE),
    FieldSpec("type", "Type", Control.CHOICE),
    FieldSpec("project", "Project", Control.PROJECT),
    FieldSpec("reference_count", "References", Control.COUNT, hint="0 or more"),
    FieldSpec("critical", "Critical", Control.SWITCH),
    FieldSpec("status", "Status", Control.CHOICE),
    FieldSpec("completed", "Completed", Control.DATE, hint="YYYY-MM-DD"),
    FieldSpec("domain", "Domain", Control.TEXT, example="python-testing"),
    FieldSpec("confidence", "Confidence", Control.CHOICE),
)
"""Every editable key, in the order the form shows them."""

SPECS = {spec.key: spec for spec in FIELDS}
_COMMON = ("date", "updated", "topics", "importance", "type", "project", "reference_count")
_KIND_KEYS: dict[Kind, tuple[str, ...]] = {
    Kind.SHORT_TERM: (*_COMMON, "critical"),
    Kind.LONG_TERM: (*_COMMON, "critical"),
    Kind.CURRENT_TASKS: (*_COMMON, "critical", "status"),
    Kind.WORK_EXPERIENCE: (*_COMMON, "critical", "status", "completed"),
    Kind.PROCEDURAL: (*_COMMON, "critical", "domain", "confidence"),
}
_FIXED_CHOICES = {
    "importance": schema.IMPORTANCE,
    "status": schema.TASK_STATUS,
    "confidence": schema.CONFIDENCE,
}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class FieldError(ValueError):
    """What a person typed cannot be used; the message says what to type instead."""


def fields_for(kind: Kind, mapping: Mapping[str, Any]) -> tuple[FieldSpec, ...]:
    """The editable fields of a memory: its kind's, plus any known key the file already has."""
    wanted = _KIND_KEYS[kind]
    return tuple(spec for spec in FIELDS if spec.key in wanted or spec.key in mapping)


def other_keys(mapping: Mapping[str, Any], specs: Iterable[FieldSpec]) -> tuple[str, ...]:
    """Keys the form does not edit, in file order: shown read-only and kept untouched."""
    edited = {spec.key for spec in specs}
    return tuple(key for key in mapping if key not in edited)


def readonly_text(key: str, value: Any) -> str:
    """A key as its YAML lines, the way the writer would put it."""
    try:
        return "".join(frontmatter.render_field(key, value))
    except frontmatter.FrontmatterError:
        # A value no writer produces (a YAML set, binary): still show it, just not as YAML.
        return f"{key}: {written(value)}\n"


def _plain(value: Any) -> str:
    """A file's value as the text a person would type for it: a list as its items (`a, b`, as
    the form's list fields take them), anything else as frontmatter writes it."""
    if isinstance(value, list):
        return ", ".join(written(item) for item in value)
    return written(value)


def raw_value(spec: FieldSpec, value: Any) -> str:
    """The text a control starts with for the file's value (a switch: `true`/`false`)."""
    if spec.control is Control.SWITCH:
        return "true" if value is True else "false"
    return _plain(value)


def choices(spec: FieldSpec, vocabulary: Vocabulary, current: str = "") -> tuple[str, ...]:
    """What a select offers; a value the file already has stays offered even if unknown."""
    if spec.key == "type":
        offered = vocabulary.types
    elif spec.control is Control.PROJECT:
        offered = vocabulary.projects
    else:
        offered = _FIXED_CHOICES.get(spec.key, ())
    if current and current not in offered:
        offered = (*offered, current)
    return offered


def parse_date(raw: str) -> dt.date:
    """YYYY-MM-DD that is a real day of the calendar."""
    if not _DATE.fullmatch(raw):
        raise FieldError(f"{raw} is not a date as YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise FieldError(f"{raw} is not a date") from None


def parse_count(raw: str) -> int:
    """A whole number, 0 or more."""
    if raw.isascii() and raw.isdigit():
        return int(raw)
    if raw.startswith("-") and raw[1:].isascii() and raw[1:].isdigit():
        raise FieldError(f"{raw} is below 0; the count is 0 or more")
    raise FieldError(f"{raw} is not a whole number (0 or more)")


def parse_topics(raw: str) -> list[str]:
    """Comma-separated tags: trimmed, none empty, no duplicates (ignoring case), at least one.

    A trailing comma is allowed: it is what a person has just typed before the next tag.
    """
    parts = [part.strip() for part in raw.split(",")]
    if len(parts) > 1 and not parts[-1]:
        parts.pop()
    if parts == [""]:
        raise FieldError("add at least one topic, e.g. testing, ci")
    seen: set[str] = set()
    for number, part in enumerate(parts, start=1):
        if not part:
            raise FieldError(f"tag {number} is empty; remove the extra comma")
        folded = part.casefold()
        if folded in seen:
            raise FieldError(f"{part} is listed twice")
        seen.add(folded)
    return parts


def parse_field(spec: FieldSpec, raw: str) -> Any:
    """The typed value for what was typed; None for a blank optional field."""
    if spec.control is Control.SWITCH:
        return raw == "true"
    text = raw.strip()
    if not text:
        if spec.required:
            shown = spec.example or spec.hint
            example = f", e.g. {shown}" if shown else ""
            raise FieldError(f"`{spec.key}` is required{example}")
        return None
    if spec.control is Control.DATE:
        return parse_date(text)
    if spec.control is Control.COUNT:
        return parse_count(text)
    if spec.control is Control.TOPICS:
        return parse_topics(text)
    message = schema.value_error(spec.key, text)
    if message:
        raise FieldError(message)
    return text


def parse_form(
    specs: Iterable[FieldSpec], raw: Mapping[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """(typed values, error messages) for every field, both keyed by field key."""
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for spec in specs:
        try:
            values[spec.key] = parse_field(spec, raw.get(spec.key, ""))
        except FieldError as error:
            errors[spec.key] = str(error)
    return values, errors


def _same(old: Any, new: Any) -> bool:
    """Equal values, or the same text: a quoted date or a `"5"` the person did not touch stays."""
    if type(old) is type(new) and old == new:
        return True
    return _plain(old) == _plain(new)


def changes(
    original: Mapping[str, Any], values: Mapping[str, Any]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """(keys to set, keys to remove) for a save: only what the person really changed.

    A blank optional field that had a value is removed; `critical` switched off removes the key,
    so `critical: false` is never written.
    """
    set_values: dict[str, Any] = {}
    unset: list[str] = []
    for key, new in values.items():
        old = original.get(key)
        if key == "critical":
            if new == (old is True):
                continue
            if new:
                set_values[key] = True
            else:
                unset.append(key)
        elif new is None:
            if old is not None:
                unset.append(key)
        elif key not in original or not _same(old, new):
            set_values[key] = new
    return set_values, tuple(unset)


@dataclass(frozen=True)
class Vocabulary:
    """Words the tree already uses, offered while editing."""

    topics: tuple[str, ...] = ()
    """Most used first, then alphabetical."""
    projects: tuple[str, ...] = ()
    types: tuple[str, ...] = schema.KNOWN_TYPES
    """The format's types, then other types memories use, alphabetical."""
    taken: frozenset[str] = frozenset()
    """Memory paths already in the tree: a new memory must not reuse one."""

    def complete_tags(self, text: str) -> str | None:
        """`text` with its last, unfinished tag completed from the tree's topics, or None."""
        head, comma, last = text.rpartition(",")
        partial = last.lstrip()
        if not partial:
            return None
        needle = partial.casefold()
        used = {tag.strip().casefold() for tag in head.split(",")} if comma else set()
        for topic in self.topics:
            folded = topic.casefold()
            if folded.startswith(needle) and folded != needle and folded not in used:
                return text[: len(text) - len(partial)] + topic
        return None


def _project_folder(path: str, kind: Kind) -> str | None:
    """`<project>` for a project's `<kind folder>/<project>/status.md`."""
    inside = path.removeprefix(kind.folder + "/").split("/")
    return inside[0] if len(inside) == 2 and inside[1] == "status.md" else None


def build_vocabulary(tree: Tree) -> Vocabulary:
    """Topics, project names and types from every memory of a tree."""
    counts: Counter[str] = Counter()
    projects: set[str] = set()
    types: set[str] = set()
    for memory in tree.memories:
        counts.update(set(memory.topics))
        if memory.kind.is_project_kind:
            folder = _project_folder(memory.path, memory.kind)
            if folder:
                projects.add(folder)
        if memory.project:
            projects.add(memory.project)
        if memory.type:
            types.add(memory.type)
    return Vocabulary(
        topics=tuple(sorted(counts, key=lambda topic: (-counts[topic], topic))),
        projects=tuple(sorted(projects)),
        types=schema.KNOWN_TYPES + tuple(sorted(types - set(schema.KNOWN_TYPES))),
        taken=frozenset(memory.path for memory in tree.memories),
    )

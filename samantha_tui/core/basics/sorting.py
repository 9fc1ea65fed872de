"""Orders of a list of memories: one key function per field, stable, missing values last.

A sort never drops or repeats a memory: the output is always a permutation of the input. Memories
whose value is missing (no date, an importance that is not a word samantha-llm uses) go after the
others in both directions, in the order they came, so flipping the direction never brings the
blanks to the top.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from operator import attrgetter, itemgetter
from typing import Any

from .model import Listed, Memory, Record


class SortField(Enum):
    """What a list can be ordered by: (id, label, natural direction is descending)."""

    DATE = ("date", "Date", True)
    UPDATED = ("updated", "Updated", True)
    TITLE = ("title", "Title", False)
    IMPORTANCE = ("importance", "Importance", True)
    REFERENCES = ("references", "References", True)
    PATH = ("path", "File path", False)

    def __init__(self, id: str, label: str, descending_first: bool) -> None:
        self.id = id
        self.label = label
        self.descending_first = descending_first
        """The direction a person wants first: newest, most important, most referenced on
        top; titles and paths from A."""


FIELDS_BY_ID: Mapping[str, SortField] = {field.id: field for field in SortField}


@dataclass(frozen=True)
class SortOrder:
    field: SortField
    descending: bool

    @classmethod
    def natural(cls, field: SortField) -> SortOrder:
        """The field in the direction a person wants first."""
        return cls(field, field.descending_first)

    def picked(self, field: SortField) -> SortOrder:
        """The order after a person picks `field`: the same field again flips the direction,
        another one starts in its natural direction."""
        if field is self.field:
            return SortOrder(field, not self.descending)
        return SortOrder.natural(field)

    @property
    def arrow(self) -> str:
        return "▼" if self.descending else "▲"

    def describe(self) -> str:
        """`Date ▼ (newest first)`: the field, its arrow and the direction in words."""
        return f"{self.field.label} {self.arrow} ({direction_words(self)})"


_WORDS = {
    SortField.DATE: ("oldest first", "newest first"),
    SortField.UPDATED: ("least recently updated first", "most recently updated first"),
    SortField.TITLE: ("A to Z", "Z to A"),
    SortField.IMPORTANCE: ("low first", "high first"),
    SortField.REFERENCES: ("fewest first", "most first"),
    SortField.PATH: ("folder order", "folder order reversed"),
}


def direction_words(order: SortOrder) -> str:
    """The direction of an order in words: `newest first`, `A to Z`."""
    return _WORDS[order.field][order.descending]


_RANK = {"low": 0, "medium": 1, "high": 2}
_ISO_DAY = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ].*)?")


def as_day(value: Any) -> dt.date | None:
    """A frontmatter value as a day: a date, a datetime, or text that starts `YYYY-MM-DD`
    (samantha-llm's generator writes `last_updated` as an ISO timestamp); None otherwise."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        match = _ISO_DAY.fullmatch(value.strip())
        if match:
            try:
                return dt.date.fromisoformat(match.group(1))
            except ValueError:
                return None
    return None


def updated_day(memory: Memory | Listed) -> dt.date | None:
    """When a memory last changed, by its own word: `updated`, else `last_updated`, else its
    `date` (a memory never updated was last changed when it was made). A list entry has it."""
    if isinstance(memory, Listed):
        return memory.updated
    for key in ("updated", "last_updated"):
        day = as_day(memory.frontmatter.get(key))
        if day is not None:
            return day
    return memory.date


def _title(memory: Memory | Listed) -> tuple[str, str]:
    # Case-folded first so `api` and `API` sit together; the title itself breaks the tie.
    return (memory.title.casefold(), memory.title)


KEYS: Mapping[SortField, Callable[[Any], Any]] = {
    SortField.DATE: attrgetter("date"),
    SortField.UPDATED: updated_day,
    SortField.TITLE: _title,
    SortField.IMPORTANCE: lambda m: _RANK.get(m.importance) if m.importance else None,
    SortField.REFERENCES: attrgetter("reference_count"),
    SortField.PATH: attrgetter("path"),
}
"""The sort key of each field; None means the value is missing."""


def sort_memories(memories: Iterable[Record], order: SortOrder) -> list[Record]:
    """The memories in `order`: stable (equal values keep their input order, in both
    directions), missing values last in both directions. Each key is computed once."""
    key = KEYS[order.field]
    keyed: list[tuple[Any, Record]] = []
    missing: list[Record] = []
    for memory in memories:
        value = key(memory)
        if value is None:
            missing.append(memory)
        else:
            keyed.append((value, memory))
    # list.sort stays stable with reverse=True: equal values keep their input order.
    keyed.sort(key=itemgetter(0), reverse=order.descending)
    return [memory for _value, memory in keyed] + missing

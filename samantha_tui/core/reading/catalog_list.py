"""The catalog's list columns: what a list row and its sort need of each memory, kept beside the
record so the first frame lists a tree without unpickling a single record.

Read at 100,000 memories they cost a tenth of the records (plain SQLite values, no pickle, no
body). They are shown only until the scan has checked the files and its records replace them, so
they carry no checksum of their own; a value of the wrong type (a database written by someone
else) leaves its row out, and the scan reads that file.
"""

from __future__ import annotations

import datetime as dt
import pickle
from collections.abc import Sequence
from operator import index

from ..basics.model import Kind, Listed, Memory, Problem
from ..basics.sorting import updated_day
from .catalog_codec import decode, encode, restricted_loads
from .distinguishing import distinguishing_line

LIST_SCHEMA = (
    "title BLOB NOT NULL, day INTEGER, updated INTEGER, importance TEXT, written BLOB,"
    " refs INTEGER NOT NULL, critical INTEGER NOT NULL, status BLOB, problems BLOB NOT NULL,"
    " line BLOB NOT NULL"
)
"""The columns of the `listed` table after its path and kind (dates as day ordinals)."""
LIST_COLUMNS = "title, day, updated, importance, written, refs, critical, status, problems, line"
LIST_WIDTH = 10
ListValues = tuple[
    bytes, int | None, int | None, str | None, bytes | None, int, int, bytes | None, bytes, bytes
]

_KINDS = {kind.slug: kind for kind in Kind}
_IMPORTANCE = {None: None, "low": "low", "medium": "medium", "high": "high"}
_FLAG = {0: False, 1: True}
_day = dt.date.fromordinal


def entry_of(memory: Memory) -> Listed:
    """A memory's list entry, as `Catalog.listed` gives it back."""
    return Listed(
        memory.kind,
        memory.path,
        memory.title,
        memory.date,
        updated_day(memory),
        memory.importance,
        memory.written_importance,
        memory.reference_count,
        memory.critical,
        memory.status,
        memory.problems,
        distinguishing_line(memory.body, memory.path),
    )


def list_values(memory: Memory) -> ListValues:
    """The list columns of a memory's row."""
    entry = entry_of(memory)
    return (
        encode(entry.title),
        entry.date.toordinal() if entry.date else None,
        entry.updated.toordinal() if entry.updated else None,
        entry.importance,
        None if entry.written_importance is None else encode(entry.written_importance),
        entry.reference_count,
        int(entry.critical),
        None if entry.status is None else encode(entry.status),
        pickle.dumps(entry.problems, protocol=pickle.HIGHEST_PROTOCOL) if entry.problems else b"",
        encode(entry.line),
    )


def listed_of(rows: Sequence[tuple]) -> tuple[list[Listed], list[str]]:
    """The list entries of rows of (path, kind, *list columns), and the paths of rows that do not
    hold sound values (left out)."""
    try:
        return _entries(rows), []
    except Exception:  # a row of someone else's can fail in any way: find which, row by row
        pass
    entries: list[Listed] = []
    bad: list[str] = []
    for row in rows:
        try:
            entries.extend(_entries([row]))
        except Exception:
            path = row[0]
            # A path stored as text (not as the scan writes it) still names its file.
            bad.append(decode(path) if type(path) is bytes else str(path))
    return entries, bad


def _entries(rows: Sequence[tuple]) -> list[Listed]:
    # One comprehension, a third faster than a call a row; any unsound value raises.
    return [
        Listed(
            _KINDS[kind],
            decode(path),
            decode(title),
            None if day is None else _day(day),
            None if updated is None else _day(updated),
            _IMPORTANCE[rank],
            None if written is None else decode(written),
            _count(refs),
            _FLAG[critical],
            None if status is None else decode(status),
            _problems(faults) if faults else (),
            decode(line),
        )
        for (
            path,
            kind,
            title,
            day,
            updated,
            rank,
            written,
            refs,
            critical,
            status,
            faults,
            line,
        ) in rows
    ]


def _count(value: object) -> int:
    # A reference count the reader never makes (negative, or not an integer) is not ours.
    found = index(value)  # type: ignore[arg-type]
    if found < 0:
        raise ValueError("a negative count")
    return found


def _problems(raw: bytes) -> tuple[Problem, ...]:
    found = restricted_loads(raw)
    if type(found) is not tuple or not all(type(p) is Problem for p in found):
        raise TypeError("problems")
    return found

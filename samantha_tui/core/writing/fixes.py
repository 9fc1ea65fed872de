"""Fixes for common problems, each a plan a person sees (file, line before -> after) first.

Only mechanical fixes with one right answer are offered: a quoted date written bare, `Medium`
written `medium`, `topics: a, b` written as the list it means. Where the answer is the person's
to give (a missing `topics`, a date the file name disagrees with), there is no fix, only the
field of the form to fill in. Nothing here writes: the plan goes through the store like any edit,
against the bytes the fix was computed from, so a file changed since is a conflict.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..basics import schema
from ..basics.model import Kind, Memory, Problem
from ..basics.plans import Operation, Plan
from ..reading import frontmatter
from .atomic import digest_bytes
from .edits import name_of

NO_FIX = "no automatic fix; e opens the form"
FIX = "fix"
"""The rule of a fix's plan (see Plan.rule)."""
_NAME_DATE = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})_")
_CHOICES = {
    "importance": schema.IMPORTANCE,
    "confidence": schema.CONFIDENCE,
    "status": schema.TASK_STATUS,
}


@dataclass(frozen=True)
class Fix:
    """A known fix for one problem: the keys to set or remove, and the lines it changes."""

    path: str
    problem: str
    """The problem's message, as the Problems tab shows it."""
    values: Mapping[str, Any] = field(default_factory=dict)
    unset: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
    """The file's lines the fix replaces (without line endings)."""
    after: tuple[str, ...] = ()
    """The lines it writes in their place."""
    line: int = 1
    """The file line of the first line changed (or where new lines go)."""
    expected: str = ""
    """The digest of the bytes the fix was computed from."""
    note: str = ""
    """Anything the person should know before agreeing (a time of day dropped)."""

    def plan(self) -> Plan:
        """The fix as one undoable edit, refused as a conflict if the file changed since."""
        op = Operation(
            "edit",
            self.path,
            f"fix: {self.problem}",
            values=dict(self.values),
            unset=self.unset,
            expected=self.expected,
            touch_updated=False,
        )
        keys = ", ".join([*self.values, *self.unset])
        return Plan(f"{name_of(self.path)}: fixed {keys}", (op,), rule=FIX)

    def lines(self) -> list[str]:
        """The plan in words for the confirmation: the file, then each line before -> after."""
        shown = [self.path, ""]
        if self.before:
            shown += [f"line {self.line}, now:", *(f"  {line}" for line in self.before)]
        else:
            shown.append(f"after line {self.line - 1}, nothing now")
        shown += ["becomes:", *(f"  {line}" for line in self.after)] if self.after else []
        if not self.after:
            shown.append("becomes: (the line is removed)")
        if self.note:
            shown += ["", self.note]
        shown += ["", "Every other byte stays as it is; u undoes it."]
        return shown


@dataclass(frozen=True)
class NoFix:
    """Why a problem has no automatic fix, and which field of the form would fix it."""

    reason: str
    field: str | None = None
    """The form's field to open on (None: the form's first field)."""


def fix_for(memory: Memory, problem: Problem, raw: bytes) -> Fix | NoFix:
    """The fix for `problem` of the file whose bytes are `raw` now, or why there is none."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return NoFix("no automatic fix: the file is not UTF-8 text; o opens it in your editor")
    parsed = frontmatter.parse(text)
    if parsed.mapping is None:
        return NoFix("no automatic fix: the frontmatter cannot be read; o opens it in your editor")
    for key, message, _ in schema.check(parsed.mapping, memory.kind):
        if message == problem.message:
            return _fix_key(memory, key, message, parsed.mapping, text, raw)
    return NoFix(NO_FIX, _field_of(problem.message))


def _field_of(message: str) -> str | None:
    """The form field a problem is about, when its message names one (`date` ...)."""
    match = re.search(r"`([a-z_]+)`", message)
    return match.group(1) if match else None


def _fix_key(
    memory: Memory, key: str, message: str, mapping: Mapping[str, Any], text: str, raw: bytes
) -> Fix | NoFix:
    if key not in mapping:
        return _missing(memory, key, message, text, raw)
    found = _mechanical(key, mapping[key])
    if found is None:
        return NoFix(NO_FIX, key)
    values, unset, note = found
    return _planned(memory.path, message, values, unset, note, text, raw)


def _missing(memory: Memory, key: str, message: str, text: str, raw: bytes) -> Fix | NoFix:
    if key == "date":
        named = _NAME_DATE.match(memory.path.rsplit("/", 1)[-1])
        day = schema.quoted_date(named.group(1)) if named else None
        if day is not None:
            note = "The date is the one the file name starts with."
            return _planned(memory.path, message, {"date": day}, (), note, text, raw)
        return NoFix("no automatic fix: only you know the day it was written", "date")
    if key == "status" and memory.kind.is_project_kind:
        status = "completed" if memory.kind is Kind.WORK_EXPERIENCE else "active"
        note = f"A project in {memory.kind.label.lower()} is {status}."
        return _planned(memory.path, message, {"status": status}, (), note, text, raw)
    if key == "topics":
        return NoFix("no automatic fix: the topics are yours to choose", "topics")
    return NoFix(NO_FIX, key)


def _mechanical(key: str, value: Any) -> tuple[dict[str, Any], tuple[str, ...], str] | None:
    """(keys to set, keys to remove, a note) for a value with one right reading, else None."""
    if key in schema.DATE_KEYS:
        day = schema.quoted_date(value)
        if day is not None:
            return {key: day}, (), ""
        if isinstance(value, dt.datetime):
            return {key: value.date()}, (), f"The time of day ({value.time()}) is dropped."
        return None
    if key in _CHOICES and isinstance(value, str):
        folded = value.strip().lower()
        return ({key: folded}, (), "") if folded in _CHOICES[key] else None
    if key == "reference_count" and isinstance(value, str):
        digits = value.strip()
        return ({key: int(digits)}, (), "") if digits.isascii() and digits.isdigit() else None
    if key == "critical" and isinstance(value, str):
        folded = value.strip().lower()
        if folded == "true":
            return {key: True}, (), ""
        if folded == "false":
            return {}, (key,), "Not critical is said by having no `critical` line."
        return None
    if key == "topics" and isinstance(value, str):
        topics: list[str] = []
        for part in value.strip().strip("[]").split(","):
            tag = part.strip()
            if tag and tag.casefold() not in {t.casefold() for t in topics}:
                topics.append(tag)
        return ({key: topics}, (), "") if topics else None
    return None


def _planned(
    path: str,
    message: str,
    values: dict[str, Any],
    unset: tuple[str, ...],
    note: str,
    text: str,
    raw: bytes,
) -> Fix | NoFix:
    try:
        new = frontmatter.edit(text, values, unset)
    except frontmatter.FrontmatterError as error:
        return NoFix(f"no automatic fix: {error}")
    old_lines = frontmatter.split_lines(text)
    new_lines = frontmatter.split_lines(new)
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    changed = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if not changed:
        return NoFix("no automatic fix: the file already reads that way")
    first, last = changed[0], changed[-1]
    before = tuple(line.rstrip("\r\n") for line in old_lines[first[1] : last[2]])
    after = tuple(line.rstrip("\r\n") for line in new_lines[first[3] : last[4]])
    return Fix(path, message, values, unset, before, after, first[1] + 1, digest_bytes(raw), note)

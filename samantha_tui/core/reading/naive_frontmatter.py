"""Frontmatter strict YAML refuses, read the way samantha-llm reads it.

samantha-llm's own generator writes frontmatter YAML cannot parse (`topics: [[wip]_csv, x]`, a
topic opening with a backtick or `@`, `action: "add anti-signal" []` in runbooks), yet to
samantha-llm those memories are real. Its one field parser reads every line of the block,
stripped, that holds `: `: the text before is the key, the text after the value; a value in
`[...]` is a list of its comma-separated parts (brackets stripped from both ends, quotes kept),
a value of digits only a number, anything else text.

Here the block is cut into top-level fields (a line at the margin and the indented lines under
it). Each field strict YAML reads keeps that reading; each one it refuses is read as samantha-llm
reads its first line, and the refused line is named in a warning. Nothing is fixed or rewritten.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..basics.wording import quoted


class Refused(Exception):
    """Strict YAML refused a field: `offset` is the refused line within the field, if known."""

    def __init__(self, reason: str, offset: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


@dataclass(frozen=True)
class Field:
    """One top-level field: lines [first, last] of the YAML lines (comments after it excluded)."""

    first: int
    last: int


@dataclass(frozen=True)
class Reading:
    """A refused frontmatter read field by field."""

    mapping: dict[str, Any]
    warnings: tuple[tuple[int, str], ...]
    """(YAML line offset, message) for each field strict YAML refused."""
    refused: dict[str, int]
    """Key of each refused field -> the YAML line offset strict YAML stopped at."""
    refused_lines: tuple[int, ...]
    """Every YAML line offset of every refused field: the lines no edit may rewrite."""


def read_line(line: str) -> tuple[str, Any] | None:
    """What samantha-llm reads from one frontmatter line: (key, value), or None when it skips it."""
    line = line.strip()
    if ": " not in line:
        return None
    key, value = line.split(": ", 1)
    if value.startswith("[") and value.endswith("]"):
        return key, [part.strip() for part in value.strip("[]").split(",")]
    if value.isdigit():
        try:
            return key, int(value)
        except ValueError:  # digits Python's int() refuses (`²`): samantha-llm would stop here
            return key, value
    return key, value


def describe(value: Any) -> str:
    """A value as samantha-llm holds it, quoted so spaces and quotes show: `["a", "b"]`, `7`."""
    return json.dumps(value, ensure_ascii=False)


def fields(lines: list[str]) -> list[Field]:
    """Top-level fields: each starts at a line at the margin that is not a comment, a blank or a
    `- item` (an indentless list belongs to the key above); indented lines belong to it."""
    found: list[Field] = []
    start: int | None = None
    for index, line in enumerate(lines):
        text = line.rstrip("\r\n")
        continues = not text.strip() or text[:1] in (" ", "\t", "#") or text.startswith("-")
        continues = continues and not _hides_a_line(text)
        if start is None or not continues:
            if start is not None:
                found.append(_trimmed(lines, start, index - 1))
            starts = text.strip() and (not text.startswith("#") or _hides_a_line(text))
            start = index if starts else None
    if start is not None:
        found.append(_trimmed(lines, start, len(lines) - 1))
    return found


def _trimmed(lines: list[str], first: int, last: int) -> Field:
    # Comments at the margin and blank lines after a field belong to no key.
    while last > first and (lines[last].startswith("#") or not lines[last].strip()):
        last -= 1
    return Field(first, last)


# Line breaks to YAML (and to Python's splitlines) that samantha-llm, splitting on `\n`, does
# not see: within one of its lines, YAML reads two.
_OTHER_BREAKS = re.compile("\r\n?|[\x85\u2028\u2029]")


def _hides_a_line(text: str) -> bool:
    """A comment line (to samantha-llm) where YAML sees a break then text that is no comment:
    strict YAML reads that text as a line of its own, so the line must be judged as a field."""
    if not text.startswith("#"):
        return False
    return any(
        piece.strip(" \t") and not piece.lstrip(" \t").startswith("#")
        for piece in _OTHER_BREAKS.split(text)[1:]
    )


def read(lines: list[str], load: Callable[[str], Any]) -> Reading:
    """Read YAML lines field by field; `load` is the strict reader of one field's text, raising
    Refused. A field strict YAML reads keeps that value; a refused one samantha-llm's reading."""
    mapping: dict[str, Any] = {}
    warnings: list[tuple[int, str]] = []
    refused: dict[str, int] = {}
    refused_lines: list[int] = []
    for part in fields(lines):
        text = "".join(lines[part.first : part.last + 1])
        try:
            value = load(text)
            if not (isinstance(value, dict) and len(value) == 1):
                raise Refused("not one `key: value` field")
            ((key, item),) = value.items()
            if not isinstance(key, str):
                raise Refused(f"the key {quoted(key)} is not text")
        except Refused as refusal:
            offset = part.first + min(refusal.offset or 0, part.last - part.first)
            naive = read_line(lines[offset])
            said = (
                f"samantha-llm reads {naive[0]} as {describe(naive[1])}"
                if naive
                else "samantha-llm skips this line (it has no `key: value`)"
            )
            warnings.append((offset, f"strict YAML cannot read this ({refusal.reason}); {said}"))
            refused_lines.extend(range(part.first, part.last + 1))
            refused[lines[part.first].split(":", 1)[0].strip().strip("'\"")] = offset
            head = read_line(lines[part.first])
            if head is not None:
                mapping.pop(head[0], None)  # the last one counts, and keeps its place last
                mapping[head[0]] = head[1]
            continue
        mapping.pop(key, None)
        mapping[key] = item
    return Reading(mapping, tuple(warnings), refused, tuple(refused_lines))

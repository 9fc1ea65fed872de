"""Where the members of a JSON object sit in its text, and edits that change only those bytes.

An index file is shared with samantha-llm and with people who edit it by hand: setting one key of
one entry must leave every other byte of the file as it was, whatever its spacing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

# The C scanner json itself uses; it is public at run time, but typeshed does not declare it.
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class NotPatchable(Exception):
    """The text is not laid out as the walk expects (it should not happen for valid JSON)."""


@dataclass(frozen=True)
class Member:
    """One `"key": value` of an object, as offsets into the text."""

    key: str
    start: int
    """The key's opening quote."""
    value_start: int
    value_end: int


@dataclass(frozen=True)
class ObjectSpans:
    """An object's members in the order written, and where its braces are."""

    open: int
    close: int
    members: tuple[Member, ...]

    def last(self, key: str) -> Member | None:
        """The member a JSON reader keeps for key: the last one written."""
        found = [m for m in self.members if m.key == key]
        return found[-1] if found else None


def _skip(text: str, at: int) -> int:
    return _SPACE.match(text, at).end()  # type: ignore[union-attr]  # the pattern always matches


def _expect(text: str, at: int, char: str) -> None:
    if text[at : at + 1] != char:
        raise NotPatchable(f"expected {char!r} at offset {at}")


def _value_end(text: str, at: int) -> int:
    try:
        return _DECODER.raw_decode(text, at)[1]
    except ValueError as error:
        raise NotPatchable(str(error)) from None


def object_at(text: str, at: int) -> ObjectSpans:
    """The object whose `{` is at offset `at` (leading spaces skipped)."""
    at = _skip(text, at)
    _expect(text, at, "{")
    i = _skip(text, at + 1)
    members: list[Member] = []
    if text[i : i + 1] == "}":
        return ObjectSpans(at, i, ())
    while True:
        _expect(text, i, '"')
        try:
            key, after_key = scanstring(text, i + 1)
        except ValueError as error:
            raise NotPatchable(str(error)) from None
        colon = _skip(text, after_key)
        _expect(text, colon, ":")
        value_start = _skip(text, colon + 1)
        value_end = _value_end(text, value_start)
        members.append(Member(key, i, value_start, value_end))
        after = _skip(text, value_end)
        if text[after : after + 1] == "}":
            return ObjectSpans(at, after, tuple(members))
        _expect(text, after, ",")
        i = _skip(text, after + 1)


def elements_at(text: str, at: int) -> list[tuple[int, int]]:
    """(start, end) of each element of the array whose `[` is at offset `at`."""
    at = _skip(text, at)
    _expect(text, at, "[")
    i = _skip(text, at + 1)
    found: list[tuple[int, int]] = []
    if text[i : i + 1] == "]":
        return found
    while True:
        end = _value_end(text, i)
        found.append((i, end))
        after = _skip(text, end)
        if text[after : after + 1] == "]":
            return found
        _expect(text, after, ",")
        i = _skip(text, after + 1)


def _indent_of(text: str, at: int) -> str | None:
    """The spaces that start the line of offset `at`, or None when `at` does not start a line."""
    line_start = text.rfind("\n", 0, at) + 1
    lead = text[line_start:at]
    return lead if line_start and not lead.strip() else None


def encode(value: Any, indent: str | None, newline: str = "\n") -> str:
    """value as json.dump(indent=2) writes it at a line indented by `indent` (non-ASCII escaped);
    on one line when the object around it is written on one line (indent None)."""
    if indent is None:
        return json.dumps(value)
    return json.dumps(value, indent=2).replace("\n", newline + indent)


def _newline(text: str) -> str:
    """The file's own line ending, for lines a new value adds."""
    return "\r\n" if "\r\n" in text else "\n"


def set_member(text: str, obj: ObjectSpans, key: str, value: Any) -> str:
    """text with obj's `key` set to value: the value's bytes replaced, or a member added last,
    spaced like the member before it (as json.dump places a key new to a dict)."""
    member = obj.last(key)
    if member is not None:
        new = encode(value, _indent_of(text, member.start), _newline(text))
        return text[: member.value_start] + new + text[member.value_end :]
    if not obj.members:
        # Nothing to copy the spacing from: the layout json.dump(indent=2) gives a lone key.
        indent = _indent_of(text, obj.open) or ""
        inner = indent + "  "
        newline = _newline(text)
        added = (
            f"{newline}{inner}{json.dumps(key)}: {encode(value, inner, newline)}{newline}{indent}"
        )
        return text[: obj.open + 1] + added + text[obj.close :]
    last = obj.members[-1]
    if len(obj.members) > 1:
        before_last = obj.members[-2]
        comma = text.index(",", before_last.value_end)
        gap = text[comma + 1 : last.start]
    else:
        gap = text[obj.open + 1 : last.start]
    key_end = _key_end(text, last)
    colon = text[key_end : last.value_start]
    last_indent = _indent_of(text, last.start)
    added = f",{gap}{json.dumps(key)}{colon}{encode(value, last_indent, _newline(text))}"
    return text[: last.value_end] + added + text[last.value_end :]


def remove_member(text: str, obj: ObjectSpans, key: str) -> str:
    """text without obj's `key` members; the spacing of the others is kept."""
    for member in reversed([m for m in obj.members if m.key == key]):
        index = obj.members.index(member)
        if index > 0:
            # From the end of the member before: its comma, the spacing and this member go.
            text = text[: obj.members[index - 1].value_end] + text[member.value_end :]
        elif len(obj.members) > 1:
            text = text[: member.start] + text[obj.members[1].start :]
        else:
            text = text[: obj.open + 1] + text[obj.close :]
        obj = object_at(text, obj.open)
    return text


def _key_end(text: str, member: Member) -> int:
    return scanstring(text, member.start + 1)[1]

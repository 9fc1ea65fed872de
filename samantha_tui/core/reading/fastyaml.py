"""An exact fast path for the common frontmatter shape: one-line `key: value` fields.

`try_parse` returns what the full reader (yaml_loader.LOADER, with samantha-llm's integers and
text `topics`) would, or None whenever it is not certain to; the caller then uses the full parser,
which also reports any errors.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

from . import yaml_loader

_LOADER = yaml_loader.LOADER
# The loader's own implicit-resolver table, so a plain scalar gets the tag the loader would give it.
_RESOLVERS = _LOADER.yaml_implicit_resolvers
_STR = "tag:yaml.org,2002:str"

# Key at column 0, `:`, then spaces and the value or nothing. A YAML simple key must stay short
# (1024 characters), hence the cap.
_FIELD = re.compile(r"([A-Za-z_][A-Za-z0-9_-]{0,199}):(?: +(.*))?")
# A plain scalar may not start with an indicator (PyYAML's check_plain); `-`, `?` and `:` can start
# one in some contexts, but are refused here to keep the rule simple.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
_DOUBLE = re.compile(r'"([^"\\]*)"')  # no escapes: those are left to the full parser
_TRAILER = re.compile(r"(?: +#.*)?")  # after a quoted scalar or a list: nothing or a comment
_EMPTY_LIST = re.compile(r"\[ *\]")
# One flow-list item and the `,` or `]` after it. Plain items refuse every character that could end
# or nest them (`,[]{}`), start a comment (`#`) or a mapping (`:`), and `?`, which libyaml and
# PyYAML read differently inside a flow item (`[a?b]`). A plain item takes its trailing spaces
# possessively (they are stripped after): a lazy item before ` *` is quadratic in a run of spaces.
_FLOW_ITEM = re.compile(
    r""" *(?:'((?:[^']|'')*)'|"([^"\\]*)"|([^-?:,\[\]{}#&*!|>'"%@` ][^,\[\]{}#:?]*+)) *([,\]])"""
)
# Integers are decimal digits only (a leading 0 is still decimal, as int() reads it); signs are left
# to the full parser.
_DECIMAL = re.compile(r"[0-9]+")
# construct_yaml_timestamp returns a date only for this form; a time part makes it a datetime.
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


class _Unsure(Exception):
    """The text is outside the shapes this module reads exactly."""


def try_parse(yaml_text: str) -> dict[str, Any] | None:
    """The mapping the safe loader would build from yaml_text, or None when not certain of it."""
    try:
        return _parse(yaml_text)
    except _Unsure:
        return None


def _parse(yaml_text: str) -> dict[str, Any] | None:
    mapping: dict[str, Any] = {}
    for line in yaml_text.split("\n"):
        line = line.removesuffix("\r")
        # Tabs, CR, NEL, LS, PS, BOM and control characters all fail isprintable().
        if not line.isprintable():
            raise _Unsure
        if not line.strip(" ") or line.startswith("#"):
            continue
        match = _FIELD.fullmatch(line)
        if match is None:
            raise _Unsure
        key = match.group(1)
        # Keys are resolved too: `yes:` or `null:` would not be text keys.
        if key in mapping or _tag(key) != _STR:
            raise _Unsure
        as_text = key in yaml_loader.TEXT_LISTS
        mapping[key] = _value((match.group(2) or "").rstrip(" "), as_text)
    # An empty document loads as None, not {}: leave it to the full parser.
    return mapping or None


def _value(text: str, as_text: bool = False) -> Any:
    """One value; `as_text`: the items of a list are text (a `topics` list)."""
    first = text[:1]
    if first == "[":
        if empty := _EMPTY_LIST.match(text):
            return _after([], text, empty.end())
        return _flow_list(text, as_text)
    if first == "'":
        match = _SINGLE.match(text)
        if match is None:
            raise _Unsure
        return _after(match.group(1).replace("''", "'"), text, match.end())
    if first == '"':
        match = _DOUBLE.match(text)
        if match is None:
            raise _Unsure
        return _after(match.group(1), text, match.end())
    if first == "#":  # `key: # note` has an empty value
        return None
    if first in _INDICATORS:
        raise _Unsure
    # A plain scalar ends at ` #` (a comment); `: ` or a final `:` would start a nested mapping.
    text = text.split(" #", 1)[0].rstrip(" ")
    if ": " in text or text.endswith(":"):
        raise _Unsure
    return _plain(text)


def _after(value: Any, text: str, end: int) -> Any:
    """value, if only spaces and a comment follow it on the line."""
    if not _TRAILER.fullmatch(text, end):
        raise _Unsure
    return value


def _flow_list(text: str, as_text: bool) -> list[Any]:
    items: list[Any] = []
    position = 1
    while True:
        match = _FLOW_ITEM.match(text, position)
        if match is None:
            raise _Unsure
        single, double, plain, closer = match.groups()
        if single is not None:
            items.append(single.replace("''", "'"))
        elif double is not None:
            items.append(double)
        else:
            plain = plain.rstrip(" ")
            items.append(plain if as_text else _plain(plain))
        position = match.end()
        if closer == "]":
            return _after(items, text, position)


# Keys, dates and topic words repeat across a tree's files: remembering their meaning is cheaper
# than resolving them again (all results are immutable).
@functools.lru_cache(maxsize=4096)
def _tag(text: str) -> str:
    """The tag BaseResolver.resolve gives a plain scalar: the first regex for its first char."""
    for tag, regexp in _RESOLVERS.get(text[:1], []) + _RESOLVERS.get(None, []):
        if regexp.match(text):
            return tag
    return _STR


@functools.lru_cache(maxsize=4096)
def _plain(text: str) -> Any:
    """A plain scalar constructed as SafeConstructor would, for the tags read exactly here."""
    tag = _tag(text)
    if tag == _STR:
        return text
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return _LOADER.bool_values[text.lower()]
    if tag == "tag:yaml.org,2002:int" and _DECIMAL.fullmatch(text):
        try:
            return int(text)
        except ValueError:  # longer than Python's int digit limit: the full parser reports it
            raise _Unsure from None
    if tag == "tag:yaml.org,2002:timestamp" and (match := _DATE.fullmatch(text)):
        try:
            return dt.date(*(int(part) for part in match.groups()))
        except ValueError:  # an impossible date: the full parser reports it
            raise _Unsure from None
    raise _Unsure  # floats, other ints, datetimes, merge and value keys

"""Values from a file, in messages, as a person writes them in frontmatter (never Python reprs)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any


def written(value: Any) -> str:
    """The value as its frontmatter text: `2026-01-02`, `true`, `[a, b]`, `{a: 1}`, text as is."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes | bytearray):
        return value.decode("utf-8", "backslashreplace")
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{written(k)}: {written(v)}" for k, v in value.items()) + "}"
    if isinstance(value, set | frozenset):
        # YAML writes a set as the keys of a mapping: `!!set {a, b}`.
        return "{" + ", ".join(sorted(map(written, value))) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(written(item) for item in value) + "]"
    return str(value)


def quoted(value: Any) -> str:
    """The value in single quotes, for a message that names it: `'urgent'`, `'2026-01-02'`."""
    return f"'{written(value)}'"


def described(value: Any) -> str:
    """What a value is, in words, for "`key` is ...; expected ...": `'urgent'`, `the date
    2026-01-02`, `the number 5`, `the list [a, b]`, `an empty value`."""
    if isinstance(value, str):
        return quoted(value)
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return f"{written(value)} (true or false)"
    if isinstance(value, dt.datetime):
        return f"the date and time {written(value)}"
    if isinstance(value, dt.date):
        return f"the date {written(value)}"
    if isinstance(value, int | float):
        return f"the number {written(value)}"
    if isinstance(value, set | frozenset):
        return f"the set {written(value)}"
    if isinstance(value, list | tuple):
        return f"the list {written(value)}" if value else "an empty list"
    if isinstance(value, Mapping):
        return f"the mapping {written(value)}" if value else "an empty mapping"
    return quoted(value)

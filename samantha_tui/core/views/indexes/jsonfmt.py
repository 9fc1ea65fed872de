"""The one JSON layout every index file is written in."""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Mapping
from json.encoder import encode_basestring_ascii
from typing import Any


def plain(value: Any) -> Any:
    """A JSON-ready copy of a frontmatter value: YAML dates become YYYY-MM-DD text."""
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


class SharedEntry(dict):
    """An index entry shared between builds and never changed once made (merge.merge_shared's).

    Because it never changes, its renderings are kept with it: after one write only the entry
    that changed is written out again.
    """

    __slots__ = ("rendered",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.rendered: dict[str, str] = {}
        """Text of this entry, by form: JSON at an indentation, or an index.md line."""


class _Unusual(Exception):
    """A value outside what index files hold: json.dumps itself handles (or refuses) it."""


def dump_json(data: Any) -> bytes:
    """`json.dumps(data, indent=2)`, non-ASCII escaped, with no final newline.

    No newline because samantha-llm writes its indexes with `json.dump(index, f, indent=2)`, which
    ends at the closing brace: when its worker and samantha-tui rewrite the same index, the bytes
    match and git stays quiet. The text is made here, byte for byte as json.dumps makes it, so a
    shared entry's text can be reused (json.dumps with an indent runs in Python and re-encodes
    every entry of a 10,000-memory index on each write).
    """
    parts: list[str] = []
    try:
        _encode(data, "\n", parts)
    except _Unusual:
        return json.dumps(data, indent=2).encode("ascii")
    return "".join(parts).encode("ascii")


def _encode(value: Any, newline: str, out: list[str]) -> None:
    """Append value's JSON to out; `newline` is a line break and the current indentation."""
    if type(value) is SharedEntry:
        # First: an index's lists are mostly shared entries, each written from its kept text.
        text = value.rendered.get(newline)
        if text is None:
            made: list[str] = []
            _encode_dict(value, newline, made)
            text = value.rendered[newline] = "".join(made)
        out.append(text)
    elif isinstance(value, str):
        out.append(encode_basestring_ascii(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, dict):
        _encode_dict(value, newline, out)
    elif isinstance(value, list | tuple):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        out.append("[")
        for index, item in enumerate(value):
            out.append(inner if index == 0 else "," + inner)
            _encode(item, inner, out)
        out.append(newline + "]")
    else:
        raise _Unusual


def _encode_dict(value: dict, newline: str, out: list[str]) -> None:
    if not value:
        out.append("{}")
        return
    inner = newline + "  "
    out.append("{")
    first = True
    for key, item in value.items():
        if not isinstance(key, str):  # json.dumps turns numbers and None into text keys
            raise _Unusual
        out.append(inner if first else "," + inner)
        first = False
        out.append(encode_basestring_ascii(key))
        out.append(": ")
        _encode(item, inner, out)
    out.append(newline + "}")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)

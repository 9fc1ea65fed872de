"""The one JSON layout every index file is written in."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
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


def dump_json(data: Any) -> bytes:
    """`json.dumps(data, indent=2)`, non-ASCII escaped, with no final newline.

    No newline because samantha-llm writes its indexes with `json.dump(index, f, indent=2)`, which
    ends at the closing brace: when its worker and samantha-tui rewrite the same index, the bytes
    match and git stays quiet.
    """
    return json.dumps(data, indent=2).encode("ascii")

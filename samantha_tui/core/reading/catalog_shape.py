"""Whether a catalog row's values are a record the reader could have made.

The cache folder may be written by someone else, and a row whose checksum is right may still hold
values of the wrong type (an importance of 5, a title that is a number), a frontmatter that is not
a mapping, one that holds itself, or shares one list so often that walking it never ends. Any of
those would break whoever reads the record later (a sort, a JSON export, an index), far from the
catalog. So a row's values are judged here against what `reader.memory_from_bytes` makes, and a
row that does not fit is read again from its file.

What a row says within those shapes (`critical: false`) is still only a cache's word: the steps
that move or demote a memory read its file again (views/rechecks.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..basics.model import Problem, Severity
from ..basics.schema import IMPORTANCE

MAX_DEPTH = 33
"""The frontmatter's deepest nesting a record may hold: the reader refuses deeper YAML (32
levels of values), plus the mapping itself."""
MAX_VALUES = 200_000
"""The most values and characters a frontmatter may stand for once shared parts are counted each
time they appear: the reader's alias budget (100,000 beyond the text itself), with room."""

_SCALARS = frozenset({str, int, float, bool, type(None), dt.date, dt.datetime})
"""What a plain YAML scalar loads as (the reader refuses every other tag)."""
_IS_SCALAR = _SCALARS.__contains__
_FIELDS = frozenset({"path", "message", "line", "severity"})
_IMPORTANCE = frozenset(IMPORTANCE)


def sound_record(values: Any) -> bool:
    """Whether `values` (the record's pickled fields, in ORDER) are of the shapes the
    reader makes: the right type for each field, counts not negative, a frontmatter of plain
    YAML values that neither holds itself nor grows without end."""
    if type(values) is not tuple or len(values) != len(ORDER):
        return False
    (
        title,
        frontmatter,
        problems,
        date,
        importance,
        critical,
        references,
        project,
        topics,
        kind,
        status,
        size,
        chars,
        lines,
        digest,
    ) = values
    # Run at every warm start for every row: plain comparisons, the cheap ones first.
    return (
        type(title) is str
        and type(critical) is bool
        and type(digest) is str
        and (date is None or type(date) is dt.date)
        and (importance is None or (type(importance) is str and importance in _IMPORTANCE))
        and _count(references)
        and _count(size)
        and _count(chars)
        and _count(lines)
        and _text_or_none(project)
        and _text_or_none(kind)
        and _text_or_none(status)
        and type(topics) is tuple
        and all(type(topic) is str for topic in topics)
        and (problems == () or _problems(problems))
        and type(frontmatter) is dict
        and _plain(frontmatter)
    )


ORDER = (
    "title",
    "frontmatter",
    "problems",
    "date",
    "importance",
    "critical",
    "reference_count",
    "project",
    "topics",
    "type",
    "status",
    "size",
    "chars",
    "lines",
    "digest",
)
"""The record's pickled fields, in the order catalog.py pickles them (it checks that they agree)."""


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _text_or_none(value: Any) -> bool:
    return value is None or (type(value) is str and value != "")


def _problems(value: Any) -> bool:
    if type(value) is not tuple:
        return False
    for problem in value:
        if type(problem) is not Problem:
            return False
        state = problem.__dict__
        if state.keys() != _FIELDS:
            return False
        line = state["line"]
        if not (
            type(state["path"]) is str
            and type(state["message"]) is str
            and (line is None or type(line) is int)
            and type(state["severity"]) is Severity
        ):
            return False
    return True


def _plain(root: dict[Any, Any]) -> bool:
    """Whether a frontmatter holds only plain YAML values, refers to no part of itself from
    inside that part, nests at most MAX_DEPTH deep and stands for at most MAX_VALUES values.

    Iterative (no recursion to exhaust), and each shared part is walked once: its weight is
    remembered and counted again where it appears, as the reader's alias check counts it.
    """
    # Most frontmatters are scalars and lists of them (topics): judged in C loops, not walked.
    plain = _IS_SCALAR
    if not all(map(plain, map(type, root))):
        return False
    if all(
        type(value) is list and all(map(plain, map(type, value)))
        for value in root.values()
        if not plain(type(value))
    ):
        return True
    weight: dict[int, int] = {}
    depth: dict[int, int] = {}
    started: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        kids = _children(node)
        if finished:
            weight[key] = 1 + sum(weight.get(id(kid), _weight(kid)) for kid in kids)
            depth[key] = 1 + max((depth.get(id(kid), 0) for kid in kids), default=0)
            if depth[key] > MAX_DEPTH or weight[key] > MAX_VALUES:
                return False
            continue
        if key in weight:
            continue
        if key in started:
            return False  # a part that holds itself
        started.add(key)
        stack.append((node, True))
        for kid in kids:
            kind = type(kid)
            if kind is dict or kind is list:
                stack.append((kid, False))
            elif kind not in _SCALARS:
                return False
        if type(node) is dict and not all(type(name) in _SCALARS for name in node):
            return False
    return True


def _children(node: Any) -> list[Any]:
    if type(node) is dict:
        return list(node.values())
    if type(node) is list:
        return node
    return []


def _weight(scalar: Any) -> int:
    return 1 + len(scalar) if type(scalar) is str else 1

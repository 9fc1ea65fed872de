"""Which frontmatter field a problem is about, so a person can be taken straight to it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .model import Problem

_QUOTED_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")
"""A key as the field rules name it in their messages: `importance`, `reference_count`."""


def field_of(problem: Problem, keys: Iterable[str]) -> str | None:
    """The first key among `keys` that the problem's message names in backticks, or None.

    Every rule of the format names its key that way ("`importance` is 'urgent'; expected ...",
    "missing `topics`; ..."), and the keys given are the ones a form can show, so a message that
    quotes a whole line (`` `key: value` ``) or a signal the form has no field for names none.
    """
    wanted = set(keys)
    for match in _QUOTED_NAME.finditer(problem.message):
        if match.group(1) in wanted:
            return match.group(1)
    return None

"""An index.json rewritten so that only what changed changes, whatever the file's layout.

samantha-llm writes `json.dump(indent=2)`, and so does samantha-tui; but a person may have laid a
file out by hand (four spaces, tabs, CRLF, one line per entry, `"a" : 1`, raw UTF-8, a final
newline). Re-laying it out on the first patch would change every entry's bytes for one entry's
change: here the old text is kept around every object member, list item and value that did not
change, and only the spans that differ are written, in the file's own style.
"""

from __future__ import annotations

import itertools
import json
import math
import re

# The C scanner json itself uses; it is public at run time, but typeshed does not declare it.
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from ...basics.json_spans import NotPatchable, elements_at, object_at
from .jsonfmt import dump_json
from .odd_names import json_escaped

_LINE_LEAD = re.compile(r"[ \t]*")
_SPACE = re.compile(r"[ \t\r\n]*")
# The first line opened by a bracket: its indentation, against the bracket line's, is the unit.
_OPENED = re.compile(r"[\[{][ \t]*\r?\n([ \t]*)\S")
# A \u escape of a character past ASCII (an escaped control character says nothing).
_NON_ASCII_ESCAPE = re.compile(r"\\u(?!00[0-7][0-9a-fA-F])[0-9a-fA-F]{4}")
# Lists longer than this in their differing middle are aligned by position, not by LCS.
_LCS_LIMIT = 40_000


def rewrite_json(
    old_text: bytes, old_data: Any, new_data: Any, standard: bool | None = None
) -> bytes:
    """new_data as JSON text that keeps old_text's bytes wherever the data did not change.

    old_data must be what old_text parses to. A file in the standard layout (`dump_json`'s; a
    caller that already knows whether it is says so with `standard`) is simply dumped again.
    Otherwise members, list items and values equal to the old ones (and at the same place) keep
    their text; changed values are written in place, new members and items beside their
    neighbours, in the file's indentation, line ending, key spacing and escaping. The result is
    always checked with json.loads: should it not read back as new_data, this falls back to
    `dump_json(new_data)`.
    """
    if standard is None:
        standard = dump_json(old_data) == old_text
    if standard:
        return dump_json(new_data)
    try:
        text = old_text.decode("utf-8")
        start = _skip(text, 0)
        end = json.JSONDecoder().raw_decode(text, start)[1]
        writer = _Writer(text, start)
        one_line = "\n" not in text[start:end]
        middle = writer.value(old_data, start, end, new_data, one_line, writer.colon)
        result = (text[:start] + middle + text[end:]).encode("utf-8")
        if json.loads(result) == new_data:
            return result
    except (ValueError, NotPatchable, RecursionError, UnicodeError, TypeError):
        pass
    return dump_json(new_data)


def _skip(text: str, at: int) -> int:
    return _SPACE.match(text, at).end()  # type: ignore[union-attr]  # the pattern always matches


def same(a: Any, b: Any) -> bool:
    """a and b are the same JSON: equal, and of the same JSON types all the way down (1, 1.0 and
    True are equal in Python but are written differently)."""
    if a is b:
        return True
    if a != b:  # cheap, in C, and decides almost every differing pair
        return False
    return _same_types(a, b)


def _same_types(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, dict):
        return isinstance(b, dict) and all(_same_types(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and all(map(_same_types, a, b))
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return math.copysign(1.0, a) == math.copysign(1.0, b)
    return True


class _Writer:
    """Writes new values into one old text, in that text's style."""

    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.unit = _indent_unit(text)
        # Raw UTF-8 in the file, or no escape of a non-ASCII character: people read it as text.
        self.ensure_ascii = text.isascii() and bool(_NON_ASCII_ESCAPE.search(text))
        self.colon = _first_colon(text, start)

    def value(self, old: Any, start: int, end: int, new: Any, one_line: bool, colon: str) -> str:
        """The text for new where old was written at text[start:end], inside a container written
        on one line or not, whose keys are spaced from their values by colon."""
        if same(old, new):
            return self.text[start:end]
        if isinstance(old, dict) and isinstance(new, dict) and old and new:
            return self._object(old, start, end, new)
        if isinstance(old, list) and isinstance(new, list | tuple) and old and new:
            return self._array(old, start, end, new)
        return self.fresh(new, _line_indent(self.text, start), one_line, colon)

    def fresh(
        self, value: Any, indent: str, one_line: bool, colon: str, item_sep: str = ", "
    ) -> str:
        """value as json.dumps writes it in this file's style, starting on a line at indent."""
        if one_line:
            line = json.dumps(value, ensure_ascii=self.ensure_ascii, separators=(item_sep, colon))
            return line if self.ensure_ascii else json_escaped(line)
        dumped = json.dumps(
            value, ensure_ascii=self.ensure_ascii, indent=self.unit, separators=(",", colon)
        )
        if not self.ensure_ascii:
            dumped = json_escaped(dumped)  # a name's byte that is not UTF-8 cannot be raw
        # json.dumps escapes every newline inside a string: each one left is the layout's.
        return dumped.replace("\n", self.newline + indent)

    def _object(self, old: dict, start: int, end: int, new: dict) -> str:
        text = self.text
        spans = object_at(text, start)
        members = spans.members
        one_line = "\n" not in text[start:end]
        if len({m.key for m in members}) != len(members):
            # A key written twice: which bytes to keep is no longer clear, so write it anew.
            return self.fresh(new, _line_indent(text, start), one_line, self.colon)
        last = members[-1]
        colon = text[scanstring(text, last.start + 1)[1] : last.value_start]
        prefix = text[spans.open + 1 : members[0].start]
        suffix = text[last.value_end : spans.close]
        seps = [""] + [text[a.value_end : b.start] for a, b in itertools.pairwise(members)]
        default_sep = seps[1] if len(members) > 1 else ("," + prefix if "\n" in prefix else ", ")
        indent = _line_indent(text, last.start)

        # (position in the old text or None, member text), in the old order with new keys placed
        # after the key that comes before them in new_data.
        placed: list[tuple[int | None, str, str]] = []
        for index, member in enumerate(members):
            if member.key in new:
                value = self.value(
                    old[member.key],
                    member.value_start,
                    member.value_end,
                    new[member.key],
                    one_line,
                    colon,
                )
                placed.append((index, member.key, text[member.start : member.value_start] + value))
        before: str | None = None
        for key, value in new.items():
            if key not in old:
                at = 0
                if before is not None:
                    at = next(i for i, p in enumerate(placed) if p[1] == before) + 1
                head = json.dumps(key, ensure_ascii=self.ensure_ascii) + colon
                placed.insert(at, (None, key, head + self.fresh(value, indent, one_line, colon)))
            before = key
        return self._join(text[spans.open], prefix, seps, default_sep, placed, suffix)

    def _array(self, old: list, start: int, end: int, new: list | tuple) -> str:
        text = self.text
        elements = elements_at(text, start)
        one_line = "\n" not in text[start:end]
        prefix = text[start + 1 : elements[0][0]]
        suffix = text[elements[-1][1] : end - 1]
        seps = [""] + [text[a[1] : b[0]] for a, b in itertools.pairwise(elements)]
        default_sep = seps[1] if len(elements) > 1 else ("," + prefix if "\n" in prefix else ", ")
        neighbour = text[elements[-1][0] : elements[-1][1]]
        indent = _line_indent(text, elements[-1][0])
        # Entries written one to a line: a new one is written on one line too.
        item_one_line = one_line or (
            neighbour[:1] in ("{", "[") and len(neighbour) > 2 and "\n" not in neighbour
        )
        item_sep = _inner_sep(text, elements[-1][0]) if item_one_line else ", "
        colon = _first_colon(text, elements[-1][0]) if neighbour[:1] == "{" else self.colon

        placed: list[tuple[int | None, str, str]] = []
        for i, j in _align(old, new):
            if j is None:
                continue
            if i is None:
                piece = self.fresh(new[j], indent, item_one_line, colon, item_sep)
                placed.append((None, "", piece))
            else:
                a, b = elements[i]
                placed.append((i, "", self.value(old[i], a, b, new[j], one_line, colon)))
        return self._join("[", prefix, seps, default_sep, placed, suffix)

    @staticmethod
    def _join(
        opening: str,
        prefix: str,
        seps: list[str],
        default_sep: str,
        placed: list[tuple[int | None, str, str]],
        suffix: str,
    ) -> str:
        """The container: each kept piece after the separator it had, new ones after the usual
        one, and the first after the opening's own spacing."""
        closing = "}" if opening == "{" else "]"
        out = [opening]
        for k, (index, _, piece) in enumerate(placed):
            if k == 0:
                out.append(prefix)
            elif index is not None and index > 0:
                out.append(seps[index])
            else:
                out.append(default_sep)
            out.append(piece)
        out.append(suffix)
        out.append(closing)
        return "".join(out)


def _first_colon(text: str, start: int) -> str:
    """How the object at start spaces a key from its value, as its first key shows (`: ` if it
    has none)."""
    if text[start : start + 1] != "{":
        return ": "
    key = _skip(text, start + 1)
    if text[key : key + 1] != '"':
        return ": "
    after = scanstring(text, key + 1)[1]
    found = re.compile(r"[ \t]*:[ \t]*").match(text, after)
    return found.group(0) if found else ": "


def _inner_sep(text: str, at: int) -> str:
    """The item separator of the one-line container at `at` (`, ` unless it shows another)."""
    if text[at] == "{":
        ends = [(m.start, m.value_end) for m in object_at(text, at).members]
    elif text[at] == "[":
        ends = elements_at(text, at)
    else:
        return ", "
    return text[ends[0][1] : ends[1][0]] if len(ends) > 1 else ", "


def _line_indent(text: str, at: int) -> str:
    """The spaces and tabs that start the line holding offset `at`."""
    line_start = text.rfind("\n", 0, at) + 1
    # The pattern matches the empty string too, so it always matches.
    return _LINE_LEAD.match(text, line_start).group(0)  # type: ignore[union-attr]


def _indent_unit(text: str) -> str:
    """The file's indentation step: what a bracket's first line adds to the bracket's line."""
    for match in _OPENED.finditer(text):
        outer = _line_indent(text, match.start())
        inner = match.group(1)
        if len(inner) > len(outer) and inner.startswith(outer):
            return inner[len(outer) :]
    return "  "


def _align(old: list, new: list | tuple) -> list[tuple[int | None, int | None]]:
    """Pairs (old index, new index) in order; None on one side for an item removed or added.

    Same length: by position. Otherwise the common head and tail, then a longest common
    subsequence of the middle (by position when the middle is too big for one), with the
    differing runs between matches paired by position.
    """
    n, m = len(old), len(new)
    if n == m:
        return [(i, i) for i in range(n)]
    head = 0
    while head < min(n, m) and same(old[head], new[head]):
        head += 1
    tail = 0
    while tail < min(n, m) - head and same(old[n - 1 - tail], new[m - 1 - tail]):
        tail += 1
    pairs: list[tuple[int | None, int | None]] = [(i, i) for i in range(head)]
    mid_old, mid_new = range(head, n - tail), range(head, m - tail)
    small = len(mid_old) * len(mid_new) <= _LCS_LIMIT
    matches = _lcs(old, new, mid_old, mid_new) if small else []
    i, j = head, head
    for a, b in [*matches, (n - tail, m - tail)]:
        pairs += _gap(range(i, a), range(j, b))
        if a < n - tail:
            pairs.append((a, b))
        i, j = a + 1, b + 1
    pairs += [(n - tail + k, m - tail + k) for k in range(tail)]
    return pairs


def _gap(olds: range, news: range) -> list[tuple[int | None, int | None]]:
    """A run of old items replaced by a run of new ones: paired by position (each pair keeps
    what it can of the old item's text), the rest removed or added."""
    paired = min(len(olds), len(news))
    pairs: list[tuple[int | None, int | None]] = []
    pairs += zip(olds[:paired], news[:paired], strict=True)
    return pairs + [(i, None) for i in olds[paired:]] + [(None, j) for j in news[paired:]]


def _lcs(old: list, new: list | tuple, olds: range, news: range) -> list[tuple[int, int]]:
    """Matching (old, new) indexes of a longest common subsequence of the two ranges."""
    rows, cols = len(olds), len(news)
    lengths = [[0] * (cols + 1) for _ in range(rows + 1)]
    for r in range(rows - 1, -1, -1):
        for c in range(cols - 1, -1, -1):
            if same(old[olds[r]], new[news[c]]):
                lengths[r][c] = lengths[r + 1][c + 1] + 1
            else:
                lengths[r][c] = max(lengths[r + 1][c], lengths[r][c + 1])
    found: list[tuple[int, int]] = []
    r = c = 0
    while r < rows and c < cols:
        if same(old[olds[r]], new[news[c]]):
            found.append((olds[r], news[c]))
            r += 1
            c += 1
        elif lengths[r + 1][c] >= lengths[r][c + 1]:
            r += 1
        else:
            c += 1
    return found

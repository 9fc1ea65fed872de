"""markdown_merge.patch_markdown for one memory's change, run on the sections it touches only.

A patch moves only the lines of the memories in scope, each within its own section (`## ` and
`### ` heading), and takes the count lines at the top from the rendering. So for one memory the
result is the same when the patch runs on the top of the file and the sections holding one of
that memory's lines (in either file), with every other section kept as it is: at 10,000
memories that is a few dozen lines instead of 10,000 parsed twice.

Where a patch could reach further, the whole file is patched instead: a section the rendering
has and the file lacks (it would be added), a count line below the top (it would be replaced),
a "None." line in a section with units (it would go), a heading twice, a carriage return, no
final newline.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from ...basics.model import Kind
from .markdown_merge import patch_markdown

_HEADING = re.compile(rb"^(?:## |### )", re.MULTILINE)
_COUNT = re.compile(
    rb"^\*\*(Last Updated|Total Memories|Active Projects|Completed Projects|Total Runbooks)\*\*: ",
    re.MULTILINE,
)
_NONE = re.compile(rb"^None\.$", re.MULTILINE)
_UNIT = re.compile(rb"^- `([^`\n]+)`(?: - |\s*$)", re.MULTILINE)

Key = tuple[bytes, bytes]
"""A section: its `## ` line and its `### ` line (empty when it has none)."""
_TOP: Key = (b"", b"")


class NotLocal(Exception):
    """The local patch cannot be shown to equal the whole one."""


def _sections(data: bytes) -> dict[Key, tuple[int, int]]:
    """Each section's span of bytes, the top (before the first heading) included."""
    spans: dict[Key, tuple[int, int]] = {}
    starts = [m.start() for m in _HEADING.finditer(data)]
    bounds = [0, *starts, len(data)]
    h2 = b""
    for at, start in enumerate(bounds[:-1]):
        end = bounds[at + 1]
        if at == 0:
            key = _TOP
        else:
            line = data[start : data.find(b"\n", start)]
            if line.startswith(b"## "):
                h2, key = line, (line, b"")
            elif not h2:
                raise NotLocal
            else:
                key = (h2, line)
        if key in spans:
            raise NotLocal
        spans[key] = (start, end)
    return spans


def _holds(data: bytes, span: tuple[int, int], raw: bytes | None) -> bool:
    """Whether the section has a unit line of the name spelled `raw` (None: of any name)."""
    start, end = span
    if raw is None:
        return _UNIT.search(data, start, end) is not None
    needle = b"\n- `" + raw + b"`"
    at = data.find(needle, max(start - 1, 0), end)
    while at != -1:
        line_end = data.find(b"\n", at + 1)
        line = data[at + 1 : line_end if line_end != -1 else len(data)]
        if _UNIT.match(line):
            return True
        at = data.find(needle, at + 1, end)
    return False


def _holding(data: bytes, spans: dict[Key, tuple[int, int]], raw: bytes) -> list[Key]:
    """The sections with a unit line of the name spelled `raw`, found by searching the bytes
    for it rather than reading every line."""
    starts = sorted((start, key) for key, (start, _) in spans.items())
    found: list[Key] = []
    needle = b"\n- `" + raw + b"`"
    at = data.find(needle)
    while at != -1:
        line_end = data.find(b"\n", at + 1)
        if _UNIT.match(data[at + 1 : line_end if line_end != -1 else len(data)]):
            key = starts[bisect.bisect_right(starts, (at + 1, (b"\xff",))) - 1][1]
            if key not in found:
                found.append(key)
        at = data.find(needle, at + 1)
    return found


def spelled(name: str) -> bytes:
    """The one way index.md can spell a name, or NotLocal when it has more than one."""
    if any(c in name for c in "\\\n\r\ufffd") or any(0xD800 <= ord(c) <= 0xDFFF for c in name):
        raise NotLocal
    return name.encode("utf-8")


def _document(data: bytes, spans: dict[Key, tuple[int, int]], keys: list[Key]) -> bytes:
    """The top and these sections, each `### ` one under its own `## ` line."""
    parts = [data[slice(*spans[_TOP])]]
    under = b""
    for key in keys:
        if key[1] and key[0] != under:
            parts.append(key[0] + b"\n")
        under = key[0]
        parts.append(data[slice(*spans[key])])
    return b"".join(parts)


def patch_local(
    ours: bytes,
    theirs: bytes,
    kind: Kind,
    in_scope: Callable[[str], bool],
    name: str,
    block_key: Callable[[bytes, list[bytes]], str | None] | None = None,
) -> bytes:
    """patch_markdown(ours, theirs, ...) for a change whose in-scope lines are the units of one
    memory, `name` (a memory kind's index), from the sections holding them; NotLocal when
    that cannot be shown to give the same. `ours` needs only the top and those sections."""
    if kind.is_project_kind or kind is Kind.PROCEDURAL:
        raise NotLocal
    if b"\r" in theirs or b"\r" in ours or not theirs.endswith(b"\n"):
        raise NotLocal
    raw = spelled(name)
    mine, old = _sections(ours), _sections(theirs)
    first = min((start for key, (start, _) in old.items() if key != _TOP), default=len(theirs))
    if any(m.start() >= first for m in _COUNT.finditer(theirs)):
        raise NotLocal  # a count line below the top: the whole patch replaces it too
    touched = [key for key in _holding(theirs, old, raw) if key != _TOP]
    for key, span in mine.items():
        if key == _TOP or not _holds(ours, span, raw) or key in touched:
            continue
        if key not in old:
            raise NotLocal  # a section the whole patch would add
        touched.append(key)
    if any(key not in old for key in mine):
        raise NotLocal  # a section the whole patch would add
    starts = sorted((start, key) for key, (start, _) in old.items())
    offsets = [start for start, _ in starts]
    for found in _NONE.finditer(theirs):
        key = starts[bisect.bisect_right(offsets, found.start()) - 1][1]
        if key not in touched and _holds(theirs, old[key], None):
            raise NotLocal  # the whole patch drops a "None." wherever its section has units
    touched.sort(key=lambda key: old[key][0])
    patched = patch_markdown(
        _document(ours, mine, [key for key in touched if key in mine]),
        _document(theirs, old, touched),
        kind,
        in_scope,
        block_key,
    )
    if not patched.endswith(b"\n"):
        raise NotLocal
    done = _sections(patched)
    if set(done) - {key for key in touched} - {_TOP} - {(key[0], b"") for key in touched}:
        raise NotLocal
    result = []
    for key, span in old.items():
        if key == _TOP or key in touched:
            result.append(patched[slice(*done[key])] if key in done else b"")
        else:
            result.append(theirs[slice(*span)])
    return b"".join(result)

"""A memory's body as the Markdown source the preview and the reader render.

Two things happen to what is rendered, never to the file. Control characters are escaped (the
Markdown widget would paint them raw). And the `**Status**: active` / `**Started**: ...` lines of
a project's status.md keep their line breaks: Markdown joins consecutive lines into one paragraph,
which ran every field of a project together into a single line of prose. Each such line, and the
line just before one, ends in a hard break (two spaces) unless it is inside a code block.
"""

from __future__ import annotations

import re

from .visible_text import visible_lines

FIELD_LINE = re.compile(r" {0,3}(?:\*\*|__)[^*_\n]+?(?::(?:\*\*|__)|(?:\*\*|__)\s*:)")
"""`**Status**: active`, `**Status:** active`, `__Owner__: dana`: a bold label and a colon."""
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
HARD_BREAK = "  "


def keep_field_lines(text: str) -> str:
    """`text` with a hard break after each bold `Key: value` line and the line before one, so a
    run of them shows one per line; code blocks and every other line are left as they are."""
    lines = text.splitlines(keepends=True)
    prose = _prose_lines(lines)
    fields = [prose[i] and FIELD_LINE.match(line) is not None for i, line in enumerate(lines)]
    out = []
    for index, line in enumerate(lines):
        # A break at a paragraph's end shows nothing: only a line with another after it takes one.
        followed = index + 1 < len(lines) and bool(lines[index + 1].strip())
        before_field = index + 1 < len(lines) and fields[index + 1] and _breaks(line)
        if followed and prose[index] and (fields[index] or before_field):
            body = line.rstrip("\r\n")
            out.append(body.rstrip(" ") + HARD_BREAK + line[len(body) :])
        else:
            out.append(line)
    return "".join(out)


def _prose_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it lies outside a fenced code block (fences included: False)."""
    prose = []
    fence: str | None = None
    for line in lines:
        opened = _FENCE.match(line)
        if fence is not None:
            prose.append(False)
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
        elif opened:
            prose.append(False)
            fence = opened.group(1)
        else:
            prose.append(True)
    return prose


def _breaks(line: str) -> bool:
    # A heading, or an indented code line, ends where its line ends: no break to add.
    stripped = line.lstrip(" ")
    return bool(stripped.strip()) and not stripped.startswith("#") and len(line) - len(stripped) < 4


def markdown_source(body: str) -> str:
    """What the Markdown widget is given for a body: field lines kept apart, controls escaped."""
    return visible_lines(keep_field_lines(body))

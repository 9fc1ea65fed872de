"""A memory's title line: the first `# ` heading of its body, found and rewritten in place.

samantha-llm's search takes the first body line starting with `# ` as the title (text after it,
spaces trimmed) and falls back to the file name's stem. Retitling changes that one line and keeps
every other byte; a body without a heading gets one as its first line, since the person typed a
title and the file name would otherwise go on being used.
"""

from __future__ import annotations

import re

from ..basics.visible import has_hidden_characters
from . import frontmatter

_HEADING = re.compile(r"^# +(.+)$", re.MULTILINE)
"""The heading line as the reader finds the title (see reader.title_of)."""
_BREAKS = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
"""Everything str.splitlines breaks on: samantha-llm reads a title one such line at a time."""


class TitleError(ValueError):
    """A title that cannot be written as one heading line; the message says why."""


def _body_start(text: str) -> int:
    """Where the body begins: after the frontmatter's closing line, as the reader splits it."""
    return len(text) - len(frontmatter.parse(text).body)


def heading_span(text: str) -> tuple[int, int] | None:
    """(start, end) of the title heading's text in `text`: after `# ` and before the line's
    ending (a CR of CRLF is not part of it); None when the body has no `# ` heading."""
    match = _HEADING.search(text, _body_start(text))
    if match is None:
        return None
    end = match.end(1)
    if text[end - 1 : end] == "\r":
        end -= 1
    return match.start(1), end


def current_title(text: str) -> str | None:
    """The heading's text as samantha-llm reads it (spaces trimmed), or None without one."""
    span = heading_span(text)
    return None if span is None else text[span[0] : span[1]].strip()


def title_in_body(body: str) -> str | None:
    """The heading's text in a memory's body (as a record keeps it), or None without one."""
    match = _HEADING.search(body)
    return None if match is None else match.group(1).strip()


def title_error(title: str) -> str | None:
    """Why `title` cannot be a heading line, or None when it can."""
    if not title.strip():
        return "a title cannot be blank"
    if _BREAKS.search(title):
        return "a title is one line; it holds a line break"
    if has_hidden_characters(title):
        return "a title cannot hold control characters"
    return None


def retitle(text: str, title: str) -> str:
    """`text` with its title heading's text replaced by `title`, every other byte unchanged.

    Without a heading, `# title` becomes the body's first line, with a blank line after it when
    text follows. Raises TitleError for a title that is blank or more than one line.
    """
    title = title.strip()
    reason = title_error(title)
    if reason:
        raise TitleError(reason)
    span = heading_span(text)
    if span is not None:
        new = text[: span[0]] + title + text[span[1] :]
    else:
        new = _insert_heading(text, title)
    if current_title(new) != title:
        raise TitleError("the new heading would not read back as the title typed")
    return new


def _insert_heading(text: str, title: str) -> str:
    start = _body_start(text)
    newline = "\r\n" if text[:start].endswith("\r\n") else "\n"
    if start == len(text) and text and not text.endswith("\n"):
        # The closing line has no ending of its own: the heading needs a line of its own.
        return text + newline + "# " + title + newline
    rest = text[start:]
    # Keep a blank line that already opens the body above the heading, as the template has it.
    blank = re.match(r"[ \t]*\r?\n", rest)
    if blank:
        start += blank.end()
        rest = text[start:]
    gap = newline if rest.strip() and not re.match(r"[ \t]*\r?\n", rest) else ""
    return text[:start] + "# " + title + newline + gap + rest


_TEMPLATE_LABEL = re.compile(r"Title:\s+(?=\S)")
"""samantha-llm's long-term template opens with `# Title: Core Lesson or Knowledge`: the label
is the template's placeholder wording, which a memory written to it keeps in its heading."""


def index_title(title: str) -> str:
    """The title an index entry gives a memory: its heading without the long-term template's
    leading `Title: ` label (the file's heading keeps it; samantha-llm's search shows it as is).

    Only that exact label, with text after it, is left out: `Title:` alone, `title: ...` or
    `Titles: ...` are someone's own wording."""
    title = title.strip()
    label = _TEMPLATE_LABEL.match(title)
    return title[label.end() :] if label else title

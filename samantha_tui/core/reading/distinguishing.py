"""A memory's distinguishing line: one short sentence of its own that tells it apart from others
under the same heading.

samantha-llm's worker heads every session memory `# Session Analysis - DATE`, so the heading says
nothing about the session; its `## Overview` does. The line is, in order: the Overview's first
sentence, the first `## Key Decisions` bullet, the first sentence of prose anywhere in the body,
and last the file name's words (`2026-11-30_billing_cron.md` -> "billing cron"; a project's
`status.md` gives its folder's name). Pure string work on the start of the body: it runs for
every memory the catalog lists. The text is as written (control characters and all): whoever
shows it escapes them.
"""

from __future__ import annotations

import re

LINE_CHARS = 100
"""The longest line: cut at a word before this many characters, with an ellipsis."""
READ_CHARS = 4000
"""How much of a body is looked at: the worker's Overview is cut at 500 characters, and its
Key Decisions follow it; a hand-written memory states its point well before this."""

_SECTION = re.compile(r"^##[ \t]+(Overview|Key Decisions)[ \t]*\r?$", re.MULTILINE | re.IGNORECASE)
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]|$)")
_BULLET = re.compile(r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_FENCE = re.compile(r"[ \t]{0,3}(?:```|~~~)")
_RULE = re.compile(r"[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")
_EMPHASIS = re.compile(r"\*+|__|`")
_SPACES = re.compile(r"\s+")
_CHUNK = re.compile(r"^\*\*Chunk \d+\*\*:\s*")
"""The worker's chunk label, when a summary opens with one it did not strip."""
_DATE_PREFIX = re.compile(r"^\d{4}-\d{2}-\d{2}[_-]?")
_SESSION_SUFFIX = re.compile(r"_\d{8}_\d{6}$")
"""The session id the merge adds to a copy whose name was taken (`<stem>_<session_id>.md`)."""


def distinguishing_line(body: str, path: str) -> str:
    """The line that tells this memory apart (see the module's docstring); never empty unless
    the file name has no words either."""
    head = body[:READ_CHARS]
    overview = _section(head, "overview")
    if overview is not None:
        found = _first_sentence(_paragraph(overview))
        if found:
            return found
    decisions = _section(head, "key decisions")
    if decisions is not None:
        found = _first_bullet(decisions)
        if found:
            return found
    found = _first_sentence(_paragraph(_first_prose(head)))
    return found or _cut(file_words(path))


def file_words(path: str) -> str:
    """The file name as words: no date prefix, no `.md`, `_` and `-` as spaces; a project's
    `status.md` (or any file of a project folder) by its folder's name."""
    parts = path.split("/")
    name = parts[-1]
    if name == "status.md" and len(parts) >= 2:
        name = parts[-2]
    stem = name.removesuffix(".md")
    stem = _SESSION_SUFFIX.sub("", _DATE_PREFIX.sub("", stem)) or stem
    return _SPACES.sub(" ", stem.replace("_", " ").replace("-", " ")).strip()


def _section(text: str, name: str) -> str | None:
    """The text of the first `## name` section (up to the next heading), or None without one."""
    for match in _SECTION.finditer(text):
        if match.group(1).lower() == name:
            rest = text[match.end() :]
            following = re.search(r"^[ \t]{0,3}#{1,6}[ \t]", rest, re.MULTILINE)
            return rest if following is None else rest[: following.start()]
    return None


def _first_bullet(section: str) -> str:
    for line in section.splitlines():
        bullet = _BULLET.match(line)
        if bullet:
            return _cut(_without_full_stop(_plain(line[bullet.end() :])))
    return ""


def _first_prose(text: str) -> str:
    """The text from the first line of prose on: not a heading, list item, table, quote mark,
    rule, code or HTML comment."""
    lines = text.splitlines(keepends=True)
    fenced = False
    offset = 0
    for line in lines:
        start = offset
        offset += len(line)
        if _FENCE.match(line):
            fenced = not fenced
            continue
        stripped = line.strip()
        if fenced or not stripped or _HEADING.match(line) or _BULLET.match(line):
            continue
        if stripped.startswith(("|", "<!--", "<")) or _RULE.match(stripped):
            continue
        return text[start:]
    return ""


def _paragraph(text: str) -> str:
    """The first paragraph of text: its lines up to a blank one or a heading, quote marks off."""
    kept: list[str] = []
    for line in text.lstrip("\r\n").splitlines():
        if not line.strip() or (kept and (_HEADING.match(line) or _BULLET.match(line))):
            break
        kept.append(line.strip().lstrip(">").strip())
    return " ".join(kept)


def _first_sentence(text: str) -> str:
    text = _CHUNK.sub("", _plain(text))
    end = _SENTENCE_END.search(text)
    if end is not None:
        text = text[: end.start() + 1]
    return _cut(_without_full_stop(text))


def _without_full_stop(text: str) -> str:
    """A name, not a sentence: a full stop goes; "..." and "?" stay."""
    return text[:-1] if text.endswith(".") and not text.endswith("..") else text


def _plain(text: str) -> str:
    """Markdown's link and emphasis marks off, runs of white space as one space."""
    text = _EMPHASIS.sub("", _LINK.sub(r"\1", text))
    return _SPACES.sub(" ", text).strip()


def _cut(text: str) -> str:
    if len(text) <= LINE_CHARS:
        return text
    room = text[: LINE_CHARS - 1]
    space = room.rfind(" ")
    if space > LINE_CHARS // 2:
        room = room[:space]
    return room.rstrip(" ,;:") + "…"

"""A memory's one-line summary: the first sentence of its first paragraph under the title."""

from __future__ import annotations

import re

MAX_SUMMARY = 200
"""Characters; longer first sentences are cut at a word boundary."""

_TITLE = re.compile(r"^# ")
_LIST_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_FIELD_LINE = re.compile(r"^\*\*[^*]+\*\*:")
_SENTENCE = re.compile(r".+?[.!?](?=\s|$)")
# Blocks that are not prose: headings, tables, fences, rules, comments, `**Key**: value` lines.
_NOT_PROSE = ("#", "|", "```", "~~~", "---", "<!--")


def _paragraphs(lines: list[str]) -> list[list[str]]:
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _prose(block: list[str]) -> str | None:
    first = block[0]
    if first.startswith(_NOT_PROSE) or _FIELD_LINE.match(first):
        return None
    if _LIST_ITEM.match(first):
        return _LIST_ITEM.sub("", first, count=1)
    return " ".join(block)


def cut(text: str, limit: int = MAX_SUMMARY) -> str:
    """Text shortened to `limit` characters at a word boundary, marked with `...`."""
    if len(text) <= limit:
        return text
    head = text[: limit - 3]
    if " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(",;:- ") + "..."


def summary_of(body: str) -> str:
    """The first sentence of the first prose paragraph after the `# ` title; "" when none."""
    lines = body.splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if _TITLE.match(line)), 0)
    for block in _paragraphs(lines[start:]):
        text = _prose(block)
        if text:
            sentence = _SENTENCE.match(text)
            return cut(sentence.group(0) if sentence else text)
    return ""

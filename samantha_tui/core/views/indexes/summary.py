"""A memory's one-line summary: the first sentence of its first paragraph under the title.

This is where samantha-llm's own files keep theirs, template by template (its
core_processes/memory_format.md, and the files its worker and merge write): a session analysis
under `## Overview`, a long-term memory under `## Summary`, a task's status.md under
`## Project Overview`, a finished project's under `## Final Summary`, a short-term memory under
its first section (`## Context`). The templates put the text on the line right after the
heading, with no blank line between, so a heading ends a paragraph of its own.

A runbook drafted by samantha-llm's merge opens with two italic lines, a draft marker and
`*Reason: ...*`; the reason is the summary its merge puts in the index, so it is the summary here.
"""

from __future__ import annotations

import re

MAX_SUMMARY = 200
"""Characters; longer first sentences are cut at a word boundary."""

_TITLE = re.compile(r"^# ")
_HEADING = re.compile(r"^#{1,6}(?:\s|$)")
_LIST_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_FIELD_LINE = re.compile(r"^\*\*[^*]+\*\*:")
_SENTENCE = re.compile(r".+?[.!?](?=\s|$)")
_DRAFT_REASON = re.compile(r"^\*Reason:\s*(?P<reason>.+?)\*$")
"""The reason line of a runbook samantha-llm's merge drafted."""
_DRAFT_NOTE = re.compile(r"^\*Draft\b.*\*$")
"""Its draft marker: says how the file was made, not what it is about."""
# Blocks that are not prose: headings, tables, fences, rules, comments, `**Key**: value` lines.
_NOT_PROSE = ("#", "|", "```", "~~~", "---", "<!--")


def _paragraphs(lines: list[str]) -> list[list[str]]:
    """Blocks of lines between blank lines; a heading is always a block of its own."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        text = line.strip()
        if _HEADING.match(text):
            if current:
                blocks.append(current)
            blocks.append([text])
            current = []
        elif text:
            current.append(text)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _prose(block: list[str]) -> str | None:
    reason = next((m.group("reason") for line in block if (m := _DRAFT_REASON.match(line))), None)
    if reason:
        return reason.strip()
    block = [line for line in block if not _DRAFT_NOTE.match(line)]
    if not block:
        return None
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

"""Characters that would act on a terminal instead of showing, written as visible escapes.

A title, topic, body or file name in a memory tree can hold ESC, BEL, C1 controls or bidi
overrides: passed to a terminal raw they retitle it, set its clipboard (OSC 52), clear the screen
or reorder what is read. Everything shown to a person goes through here first and comes out in
Python's escape notation (`\\x1b`, `\\u202e`), so the characters are seen, not obeyed. The text
itself (the file, the JSON output) is never changed: this is for display only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Bidirectional controls: embeddings, overrides and isolates reorder the text around them, and
# the marks (LRM, RLM, ALM) are invisible; a file name can hide its real extension with them.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# Line and paragraph separators break a line where one line is expected; lone surrogates are
# the bytes of a file name that is not UTF-8, which no terminal encoding can write.
_OTHER = "\u2028\u2029\ud800-\udfff"
_ONE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}{_OTHER}]")
# Multi-line text (a body, a whole command's output) keeps its line breaks and tabs; a carriage
# return stays only as the first half of a Windows line ending, where it moves nothing.
_MULTI_LINE = re.compile(f"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f{_BIDI}{_OTHER}]|\r(?!\n)")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escape_character(char: str) -> str:
    """One character in Python's escape notation: `\\n`, `\\x1b`, `\\x9b`, `\\u202e`, `\\udcff`."""
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """Text for one line: every control, bidi, separator and surrogate character escaped."""
    return _ONE_LINE.sub(lambda match: escape_character(match.group()), text)


def visible_lines(text: str) -> str:
    """Text of several lines: the same, but line breaks and tabs are kept as they are."""
    return _MULTI_LINE.sub(lambda match: escape_character(match.group()), text)


def hidden_characters(text: str, *, multi_line: bool = False) -> Iterator[tuple[int, str]]:
    """Each character `visible` (or `visible_lines`) would escape: its offset and its escape."""
    pattern = _MULTI_LINE if multi_line else _ONE_LINE
    for match in pattern.finditer(text):
        yield match.start(), escape_character(match.group())


def has_hidden_characters(text: str, *, multi_line: bool = False) -> bool:
    """Whether showing this text would change it (so it cannot be edited as shown)."""
    pattern = _MULTI_LINE if multi_line else _ONE_LINE
    return pattern.search(text) is not None


def visible_with_spans(
    text: str, spans: tuple[tuple[int, int], ...] | list[tuple[int, int]]
) -> tuple[str, list[tuple[int, int]]]:
    """`visible(text)` and the same spans (a search's matches) moved to where they now fall."""
    moved = [0] * (len(text) + 1)  # moved[i]: where original offset i lands in the shown text
    out: list[str] = []
    length = 0
    for index, char in enumerate(text):
        moved[index] = length
        piece = visible(char)
        out.append(piece)
        length += len(piece)
    moved[len(text)] = length
    return "".join(out), [(moved[start], moved[end]) for start, end in spans]

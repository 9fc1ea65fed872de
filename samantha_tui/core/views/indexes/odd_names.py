"""File names with bytes that are not UTF-8, in index files that must stay valid text.

Python holds such a byte as a lone surrogate (U+DC80-U+DCFF, "surrogateescape"). In index.json
it is written as the escape `\\udcff`, as json.dumps writes it: samantha-llm's json.load reads it
back to the very same str, and opening that path gives the file. index.md is UTF-8 for people:
there the byte is written as `\\xff`, and read back to the surrogate when lines are matched to
their memories. A line break in a name (`\\n`, `\\r`) would split its index.md line in two, so
there it is written as that escape too; and a backslash of the name itself as `\\\\`, so that a
name holding the text `\\n` or `\\xff` is never read back as another name.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
_SHOWN = re.compile(r"\\(?:x([89a-f][0-9a-f])|([nr\\]))")
_ESCAPED = re.compile("[\n\r\\\\]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\\": "\\\\"}
_UNESCAPES = {"n": "\n", "r": "\r", "\\": "\\"}


def markdown_bytes(text: str) -> bytes:
    """text as UTF-8, each byte of a name that was not UTF-8 written as `\\xNN`."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(_shown, text).encode("utf-8")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def markdown_file(name: str) -> str:
    """A file name for its index.md line: a line break written as `\\n` or `\\r`, a backslash
    as `\\\\` (a byte that is not UTF-8 becomes `\\xNN` when the whole text is encoded)."""
    if "\n" not in name and "\r" not in name and "\\" not in name:
        return name
    return _ESCAPED.sub(lambda m: _ESCAPES[m.group()], name)


def markdown_name(raw: bytes) -> str:
    """A file name as an index.md line writes it, back to the name on disk."""
    text = raw.decode("utf-8", "replace")
    if "\\" not in text:
        return text
    return _SHOWN.sub(_name_character, text)


def _name_character(match: re.Match[str]) -> str:
    if match.group(1) is not None:
        return chr(0xDC00 + int(match.group(1), 16))
    return _UNESCAPES[match.group(2)]


def json_escaped(text: str) -> str:
    """JSON text made by json.dumps(ensure_ascii=False): each lone surrogate escaped as
    `\\udcNN`, so the text can be written as UTF-8 and reads back the same."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)

"""Text folded to a width the way a person reads it: at spaces, then inside a long path or name
after a `/` (or a `-`, `_`, `.`), and mid-character only for a piece longer than the whole width.

Rich folds a word that does not fit its column at any character ("communica" / "tion") and starts
every folded line at the column's edge, which made a YAML value's second line look like a key of
its own. Here continuation lines hang under the value they continue (`hang` columns in).
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

SEPARATORS = ("/", "-_", ".")
"""Where a word too long for a line may break, just after the character, in this order."""
SCRAP = 3
"""Fewer characters than this are not left alone on the next line by a cut at a separator."""


def wrap(text: Text, width: int, hang: int = 0) -> list[Text]:
    """`text` (one line, no newline) as lines of at most `width` cells; lines after the first
    start with `hang` spaces (none where that would leave too little room)."""
    width = max(1, width)
    hang = hang if width - hang >= max(8, width // 3) else 0
    lines: list[Text] = []
    line = text.blank_copy()
    for word in _words(text):
        while word.plain:
            room = width - (hang if lines else 0)
            need = cell_len(word.plain.rstrip(" "))
            if cell_len(line.plain) + need <= room:
                line.append_text(word)
                break
            if line.plain:
                # On a line of its own; a word longer than a whole line is cut from there.
                lines.append(line)
                line = text.blank_copy()
                continue
            cut = _cut(word.plain, room)
            line.append_text(word[:cut])
            word = word[cut:]
            lines.append(line)
            line = text.blank_copy()
    if line.plain or not lines:
        lines.append(line)
    out = []
    for index, each in enumerate(lines):
        each.rstrip()
        out.append(Text(" " * hang) + each if index and hang else each)
    return out


def _cut(plain: str, room: int) -> int:
    """Where to cut a word longer than `room` cells: after the last `/` that fits (else a `-` or
    `_`, else a `.`), unless that leaves too much of the line empty or a scrap (`,`) for the
    next; at `room` cells where no separator does."""
    fits = _fitting(plain, max(1, room))
    length = len(plain.rstrip(" "))
    for group in SEPARATORS:
        end = fits
        # A path's `/` is worth a shorter line than a break inside a name.
        least = fits // 3 if group == "/" else fits // 2
        while (cut := max(plain.rfind(separator, 0, end) for separator in group) + 1) > least:
            if length - cut >= SCRAP:
                return cut
            end = cut - 1
    return fits


def _words(text: Text) -> Iterator[Text]:
    """Each word with the spaces after it."""
    plain = text.plain
    start = 0
    while start < len(plain):
        end = start
        while end < len(plain) and plain[end] != " ":
            end += 1
        while end < len(plain) and plain[end] == " ":
            end += 1
        yield text[start:end]
        start = end


def _fitting(plain: str, room: int) -> int:
    """How many characters of `plain` fit in `room` cells (at least one)."""
    used = 0
    for index, char in enumerate(plain):
        used += cell_len(char)
        if used > room:
            return max(1, index)
    return len(plain)


class Wrapped:
    """Lines of text, each folded by `wrap` at the width it is drawn in, later lines of each
    hanging `hang` columns in."""

    def __init__(self, text: Text, hang: int = 0) -> None:
        self.text = text
        self.hang = hang

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        out = Text(style=self.text.style)
        first = True
        for line in self.text.split("\n", allow_blank=True):
            for part in wrap(line, options.max_width, self.hang):
                if not first:
                    out.append("\n")
                out.append_text(part)
                first = False
        out.no_wrap = True
        out.overflow = "crop"
        yield out

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        lines = self.text.plain.split("\n")
        widest = max((cell_len(line) for line in lines), default=0)
        return Measurement(min(widest, 8), widest).clamp(max_width=options.max_width)

"""Tree text on screen: control characters shown as escapes (`\\x1b`), never sent to the terminal.

Two layers. Where user text becomes `Text` or `Content` (table cells, the preview, dialogs,
notices, the palettes) it passes through `shown` / `visible_text`, so a person sees `\\x1b]0;`
where the title holds ESC ] 0 ;. Under that, `ControlCharacterFilter` runs over every line the app
paints and drops any such character that reached a strip anyway (they take no cell, so nothing
moves): a widget someone adds later cannot leak a terminal command even if it forgets the first.
"""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.segment import Segment
from rich.style import Style, StyleType
from rich.text import Text
from textual.color import Color
from textual.content import Content
from textual.filter import LineFilter

from ..core.basics.visible import has_hidden_characters, hidden_characters, visible, visible_lines

__all__ = [
    "ControlCharacterFilter",
    "shown",
    "shown_content",
    "visible",
    "visible_lines",
    "visible_renderable",
    "visible_text",
]


def shown(value: str, style: StyleType = "", *, multi_line: bool = False) -> Text:
    """User text as a `Text` (never markup) with its control characters escaped."""
    return Text(visible_lines(value) if multi_line else visible(value), style=style)


def shown_content(value: str) -> Content:
    """User text as a `Content` (never markup) with its control characters escaped."""
    return Content(visible(value))


def visible_text(text: Text, *, multi_line: bool = False) -> Text:
    """The same `Text` with each control character written as its escape, styles and search
    highlights kept on the characters around it (the escape takes the character's style)."""
    found = list(hidden_characters(text.plain, multi_line=multi_line))
    if not found:
        return text
    out = text.blank_copy()
    start = 0
    for offset, escape in found:
        out.append_text(text[start:offset])
        piece = text[offset : offset + 1]
        styles = [span.style for span in piece.spans]
        out.append(escape, style=Style.combine(_rich(s) for s in styles) if styles else None)
        start = offset + 1
    out.append_text(text[start:])
    return out


def visible_renderable(renderable: RenderableType) -> RenderableType:
    """`visible_text` (keeping line breaks) for a Text or each Text of a Group; other renderables
    (tables of rows built with `shown`) as they are."""
    if isinstance(renderable, Text):
        return visible_text(renderable, multi_line=True)
    if isinstance(renderable, Group):
        return Group(*(visible_renderable(part) for part in renderable.renderables))
    return renderable


def _rich(style: str | Style) -> Style:
    return Style.parse(style) if isinstance(style, str) else style


# C0, DEL, C1, bidi controls, line separators: all zero cells wide, so dropping them keeps every
# strip its width. Lone surrogates (a non-UTF-8 file name) are one cell: they become U+FFFD.
_ZERO_WIDTH = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
_SURROGATE = re.compile("[\ud800-\udfff]")


class ControlCharacterFilter(LineFilter):
    """The last guard: no segment the app paints carries a character that acts on the terminal."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if not any(has_hidden_characters(segment.text) for segment in segments):
            return segments
        return [
            Segment(_SURROGATE.sub("\ufffd", _ZERO_WIDTH.sub("", text)), style, control)
            if not control
            else Segment(text, style, control)
            for text, style, control in segments
        ]

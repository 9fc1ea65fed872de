"""A memory's body drawn as Markdown in a single widget: the preview's body.

Textual's Markdown widget mounts a widget for every paragraph, heading, bullet and table cell, and
mounts them all again for each new source: a cursor move in the list cost a tenth of a second of
CPU doing it, and the app's boot a third of its time composing and styling those widgets. Here the
source is parsed once per memory and drawn as one Rich renderable in one Static, so moving to
another memory repaints the pane and mounts nothing.

The source is markdown_source()'s (controls escaped), and what the parser makes of it is escaped
again: a character reference (`&#x202e;`) becomes the character it names, which the source could
not show. HTML in it is shown as the text it is, not dropped: a memory that holds `<details>`
keeps every word on screen. Links show their address after the text and are not made clickable;
a code block's language only picks its colours.
"""

from __future__ import annotations

from typing import ClassVar

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich.console import JustifyMethod
from rich.markdown import Heading, Markdown, MarkdownContext
from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ...core.basics.visible import visible_lines

LITERAL_HTML = MarkdownIt("commonmark", {"html": False}).enable("strikethrough").enable("table")
"""CommonMark with tables and strikethrough, as Rich's own parser, but HTML left as text."""


HEADING_STYLES = {
    "h1": Style(bold=True),
    "h2": Style(bold=True),
    "h3": Style(bold=True, italic=True),
    "h4": Style(italic=True),
    "h5": Style(italic=True),
    "h6": Style(italic=True, dim=True),
}
"""Headings in the text's own colour, bold, and never underlined: Rich's coloured, underlined
headings read as links (a link shows in blue, its address underlined), on a dark theme as on a
light one."""


class LeftHeading(Heading):
    """Every heading at the left edge, as the fields and the reader show theirs, in
    HEADING_STYLES."""

    LEVEL_ALIGN: ClassVar[dict[str, JustifyMethod]] = dict.fromkeys(
        ("h1", "h2", "h3", "h4", "h5", "h6"), "left"
    )

    def on_enter(self, context: MarkdownContext) -> None:
        self.text = Text()
        context.enter_style(HEADING_STYLES.get(self.tag, HEADING_STYLES["h6"]))


class BodyMarkdown(Markdown):
    """Rich's Markdown with LITERAL_HTML's parse and left-aligned headings."""

    elements: ClassVar = {**Markdown.elements, "heading_open": LeftHeading}

    def __init__(self, source: str) -> None:
        # Rich parses what it is given with its own parser, which drops HTML: it is given nothing
        # and the tokens are LITERAL_HTML's.
        super().__init__("", code_theme="ansi_dark", hyperlinks=False)
        self.markup = source
        self.parsed = LITERAL_HTML.parse(source)
        for token in self.parsed:
            _escape_controls(token)


def _escape_controls(token: Token) -> None:
    """Controls and bidi marks in a token's text, and its children's, shown as escapes."""
    if token.content:
        token.content = visible_lines(token.content)
    for child in token.children or ():
        _escape_controls(child)


class MarkdownBody(Static):
    """A body as Markdown; `show` the same source again and nothing is redrawn."""

    DEFAULT_CSS = """
    MarkdownBody {
        height: auto;
    }
    """

    source: str = ""
    """The Markdown source on show."""

    def show(self, source: str) -> None:
        if source == self.source:
            return
        self.source = source
        self.update(BodyMarkdown(source))

    def show_text(self, text: Text) -> None:
        """Plain text, not Markdown (a text too long to lay out as Markdown)."""
        # No Markdown source holds a NUL (markdown_source escapes it): the next show redraws.
        self.source = "\x00"
        self.update(text)

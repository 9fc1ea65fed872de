"""The preview body as Markdown: what it shows of hostile or unusual Markdown, drawn off screen."""

from __future__ import annotations

import io

from rich.console import Console

from samantha_tui.ui.markdown_source import markdown_source
from samantha_tui.ui.widgets.markdown_body import BodyMarkdown

FORBIDDEN = ("\x1b", "\x07", "\x9b", "\x7f", "\u202e")


def drawn(body: str, width: int = 80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(BodyMarkdown(markdown_source(body)))
    return out.getvalue()


def test_character_references_to_controls_show_as_escapes() -> None:
    text = drawn("Right to left &#x202e;here&#8238; and `&#x202e;` kept.\n")
    assert not any(char in text for char in FORBIDDEN), repr(text)
    assert text.count("\\u202e") == 2  # the two references; in code a reference stays literal
    assert "&#x202e;" in text


def test_raw_controls_in_text_and_code_show_as_escapes() -> None:
    text = drawn("bell \x07 and esc \x1b[2J\n\n```\ncode \x9b31m\n```\n")
    assert not any(char in text for char in FORBIDDEN), repr(text)
    assert "\\x07" in text and "\\x1b[2J" in text and "\\x9b31m" in text


def test_html_shows_as_text_and_markup_stays_literal() -> None:
    text = drawn("<details>hidden?</details>\n\nInline <b>bold</b> and [red]not red[/red].\n")
    assert "<details>hidden?</details>" in text
    assert "<b>bold</b>" in text
    assert "[red]not red[/red]" in text


def test_headings_lists_tables_and_links_keep_their_words() -> None:
    body = (
        "# Title\n\nSome *emphasis*.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "[the docs](https://example.com/x)\n"
    )
    lines = [line.strip() for line in drawn(body).splitlines()]
    assert lines[0] == "Title", "headings start at the left edge"
    assert "• one" in lines and "• two" in lines
    assert any("a" in line and "b" in line for line in lines)
    assert "the docs (https://example.com/x)" in lines

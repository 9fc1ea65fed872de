"""What of a memory is embedded: its title, its topics and its prose, bounded.

The model averages the vectors of the words it is given, so every word it sees pulls the result
towards it. The title and topics say what a memory is about in the fewest words, so they come
first; the body follows without what carries no meaning in words: code fences (a shell command
or a stack trace drowns the sentence that explains it), Markdown marks, link targets, HTML tags
and table rules. The text is cut at MAX_CHARS: the opening of a memory says what it is about, a
long tail would only dilute it, and the model pads a batch to its longest text.

Structured lines are not what a memory says either, and are left out too: the Session Metadata
section samantha-llm's worker ends every session analysis with (its workspace path, duration and
session id differ between any two sessions and would read as opposed values), the worker's own
section headings (every session analysis has the same six, which would make any two of them
alike), and lines of frontmatter fields copied into a body (`date: ...`, `session_id: ...`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...basics.model import Memory

MAX_CHARS = 1000
RECIPE = "text2"
"""The version of what is embedded: vectors kept for another recipe are embedded again."""

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?(^[ \t]*\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"<[^>\n]{1,200}>")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t:|-]+\|[ \t:|-]*$", re.MULTILINE)
_LINE_MARKS = re.compile(r"^[ \t]*(?:#{1,6}|>|[-*+]|\d+[.)])[ \t]+", re.MULTILINE)
_RULE = re.compile(r"^[ \t]*[-=]{3,}[ \t]*$", re.MULTILINE)
_RULE_PAIRS = ("--", "==", "-=", "=-")
_INLINE_MARKS = "*`|"
_METADATA_SECTION = re.compile(
    r"^##[ \t]+Session Metadata[ \t]*$.*?(?=^#{1,2}[ \t]|\Z)", re.MULTILINE | re.DOTALL
)
_WORKER_HEADINGS = re.compile(
    r"^##[ \t]+(?:Overview|Key Decisions|Patterns & Insights|Key Learnings|"
    r"User Preferences & Working Style|Action Items)[ \t]*$",
    re.MULTILINE,
)
_FIELD_LINES = re.compile(
    r"^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?(?:date|topics|importance|type|project|reference_count|"
    r"session_id|session id|duration_minutes|duration|workspace|status|created|updated|"
    r"last_updated|tags|critical)(?:\*\*)?[ \t]*:(?:\*\*)?[ \t].*$",
    re.MULTILINE | re.IGNORECASE,
)
"""A frontmatter field's line in a body, or one of the worker's metadata bullets
(`- **Duration**: 180 minutes`) outside its section."""
_CHECKBOX = re.compile(r"^([ \t]*[-*+][ \t]+)\[[ xX]\][ \t]+", re.MULTILINE)


def embedding_text(memory: Memory) -> str:
    """The words of `memory` the model is given, at most MAX_CHARS characters."""
    named = _unmarked(_prose(_without_title(memory.body, memory.title)))
    return _joined(memory.title, memory.topics, _spaced(named))


def texts_of(memory: Memory) -> tuple[str, str]:
    """The embedding text of `memory`, and the text its claims are read from (polarity.py):
    the same words, but for names with underscores kept whole (`clock_skew_seconds: 30` is a
    setting; "clock skew seconds" is three words), and each list item and heading ended as a
    clause is (a bullet without a stop is not the start of the next one's sentence). The
    Markdown is read once for both."""
    marked = _prose(_without_title(memory.body, memory.title))
    named = _unmarked(marked)
    claimed = marked.replace(_LINE_START, ";") if _LINE_START in marked else marked
    return _joined(memory.title, memory.topics, _spaced(named)), _joined(
        memory.title, memory.topics, claimed
    )


_LINE_START = "\ue000"
"""Where _prose took a list mark or a heading's hashes: a character no text writes (private
use), which str.split() keeps as a word of its own."""


def _unmarked(marked: str) -> str:
    """_prose's text without its _LINE_START marks, single-spaced."""
    if _LINE_START not in marked:
        return marked
    return " ".join(marked.replace(_LINE_START, " ").split())


def _spaced(named: str) -> str:
    """Single-spaced prose (as _prose gives it) with its underscores read as spaces."""
    if "_" not in named:
        return named
    spaced = named.replace("_", " ")
    # Only an underscore beside a space, another underscore or an end makes a run of spaces.
    if "  " in spaced or spaced.startswith(" ") or spaced.endswith(" "):
        return " ".join(spaced.split())
    return spaced


def _joined(title: str, topics: Sequence[str], body: str) -> str:
    """Title, topics and `body` (single-spaced already: _prose made it so), each single-spaced,
    joined by " . ", cut at MAX_CHARS."""
    parts = (" ".join(title.split()), " ".join(" ".join(topics).split()), body)
    return " . ".join(part for part in parts if part)[:MAX_CHARS]


def prose(markdown: str) -> str:
    """Markdown as the words a reader reads: no code blocks, marks, link targets or tags."""
    return " ".join(_unmarked(_prose(markdown)).replace("_", " ").split())


def _prose(markdown: str) -> str:
    """prose(), but for underscores, kept, and a _LINE_START where a line's mark was."""
    # Twice what is kept: enough for what the marks and code blocks take out.
    text = _without_structure(markdown[: MAX_CHARS * 2])
    text = _FENCE.sub(" ", text) if "```" in text or "~~~" in text else text
    text = _LINK.sub(r"\1", text) if "](" in text else text
    text = _TAG.sub(" ", text) if "<" in text else text
    text = _TABLE_RULE.sub(" ", text) if "|" in text else text
    text = _LINE_MARKS.sub(f" {_LINE_START} ", text)
    # A rule is three or more of - and =: a text without two of them side by side has none.
    if any(pair in text for pair in _RULE_PAIRS):
        text = _RULE.sub(" ", text)
    for mark in _INLINE_MARKS:  # a replace per mark is several times a translate's speed
        if mark in text:
            text = text.replace(mark, " ")
    return " ".join(text.split())


def _without_structure(markdown: str) -> str:
    """`markdown` without the lines that are records rather than claims (see the module)."""
    if "Session Metadata" in markdown:
        markdown = _METADATA_SECTION.sub("", markdown)
    if "## " in markdown:
        markdown = _WORKER_HEADINGS.sub("", markdown)
    if ":" in markdown:
        markdown = _FIELD_LINES.sub("", markdown)
    if "[" in markdown:
        markdown = _CHECKBOX.sub(r"\1", markdown)
    return markdown


def _without_title(body: str, title: str) -> str:
    """The body without its first `# ` heading when that is the title (it is said once)."""
    stripped = body.lstrip()
    first, _, rest = stripped.partition("\n")
    if first.startswith("# ") and first[2:].strip() == title.strip():
        return rest
    return body

"""What of a memory is embedded: its title, its topics and its prose, bounded.

The model averages the vectors of the words it is given, so every word it sees pulls the result
towards it. The title and topics say what a memory is about in the fewest words, so they come
first; the body follows without what carries no meaning in words: code fences (a shell command
or a stack trace drowns the sentence that explains it), Markdown marks, link targets, HTML tags
and table rules. The text is cut at MAX_CHARS: the opening of a memory says what it is about, a
long tail would only dilute it, and the model pads a batch to its longest text.
"""

from __future__ import annotations

import re

from ...basics.model import Memory

MAX_CHARS = 1500

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?(^[ \t]*\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"<[^>\n]{1,200}>")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t:|-]+\|[ \t:|-]*$", re.MULTILINE)
_MARKS = re.compile(
    r"(^[ \t]*(#{1,6}|>|[-*+]|\d+[.)])[ \t]+)|[*_`|]+|^[ \t]*[-*_=]{3,}[ \t]*$", re.MULTILINE
)
_SPACE = re.compile(r"\s+")


def embedding_text(memory: Memory) -> str:
    """The words of `memory` the model is given, at most MAX_CHARS characters."""
    body = _without_title(memory.body, memory.title)
    parts = [memory.title, " ".join(memory.topics), prose(body)]
    return _SPACE.sub(" ", " . ".join(part for part in parts if part.strip())).strip()[:MAX_CHARS]


def prose(markdown: str) -> str:
    """Markdown as the words a reader reads: no code blocks, marks, link targets or tags."""
    text = _FENCE.sub(" ", markdown[: MAX_CHARS * 4])
    text = _LINK.sub(r"\1", text)
    text = _TAG.sub(" ", text)
    text = _TABLE_RULE.sub(" ", text)
    text = _MARKS.sub(" ", text)
    return _SPACE.sub(" ", text).strip()


def _without_title(body: str, title: str) -> str:
    """The body without its first `# ` heading when that is the title (it is said once)."""
    stripped = body.lstrip()
    first, _, rest = stripped.partition("\n")
    if first.startswith("# ") and first[2:].strip() == title.strip():
        return rest
    return body

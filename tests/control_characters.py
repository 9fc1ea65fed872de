"""Control characters a tree can hold (an OSC 0 title change, an OSC 52 clipboard write, a clear
screen, BEL, C1 CSI, DEL, a right-to-left override), a tree holding them in its titles, topics,
project names, bodies and file names, and the check that text holds none of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import LT, ST, TASKS, make_tree

EVIL = "\x1b]0;pwned\x07 \x1b]52;c;cHduZWQ=\x07 \x1b[2J \x9b31m \x7f \u202eexe.md"
FORBIDDEN = ("\x1b", "\x07", "\x9b", "\x7f", "\u202e")
NAME = "n\x1b[2J\x07\x9b\x7f\u202e"
"""The same classes of character, in file and folder names."""
TITLE = f"st {EVIL}"


def assert_clean(text: str) -> None:
    for char in FORBIDDEN:
        assert char not in text, f"{char!r} reached the output: {text[:300]!r}"


# --- a tree full of control characters -----------------------------------------------------------

RECENT = f"{ST}/2026-06-10_{NAME}.md"
OLD = f"{ST}/2026-04-01_old {NAME}.md"
CRITICAL = f"{LT}/2026-01-10_{NAME}.md"
TASK = f"{TASKS}/{NAME}/status.md"
DONE = f"{TASKS}/done {NAME}/status.md"


def quoted(value: str) -> str:
    """YAML double quotes: control characters as YAML escapes, read back as the characters."""
    return json.dumps(value)


def memory(title: str, date: str = "2026-06-10", extra: str = "") -> str:
    topics = ", ".join(quoted(t) for t in (f"t{EVIL}", "ci"))
    return (
        f"---\ndate: {date}\ntopics: [{topics}]\nproject: {quoted(NAME)}\n{extra}---\n\n"
        f"# {title}\n\nbody {EVIL}\n\nline two {EVIL}\n"
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path / "root",
        {
            RECENT: memory(TITLE, extra="importance: medium\n"),
            OLD: memory(f"old {EVIL}", "2026-04-01", f"importance: {quoted(EVIL)}\n"),
            CRITICAL: memory(f"lt {EVIL}", "2026-01-10", "critical: true\nimportance: high\n"),
            TASK: memory(f"task {EVIL}", extra="status: active\n"),
            DONE: memory(f"done {EVIL}", extra="status: completed\n"),
        },
    )

"""Trees holding odd inputs: a named pipe in a project and in short-term memory, JSON nested a
thousand deep in every index and status file, and index files that cannot be read."""

from __future__ import annotations

import faulthandler
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from samantha_tui.core.writing.store import Store

from .conftest import ST, TASKS, TODAY, make_tree, memory_text

LOW = memory_text(date="2026-01-01", topics="[odd]", importance="low")
OFTEN = memory_text(date="2026-06-01", topics="[odd]", importance="low", reference_count="12")
DONE = memory_text(date="2026-05-01", topics="[odd]", status="completed")
DEEP = "[" * 1000 + "]" * 1000


def store_over(root: Path) -> Store:
    store = Store(root, lambda: TODAY)
    store.scan()
    return store


# --- named pipes ---------------------------------------------------------------------------------


PIPE_WATCHDOG_SECONDS = 120
"""A pipe opened by mistake waits forever: past this, the test process ends with its traceback
(a crash the run reports), instead of the suite hanging."""


@pytest.fixture
def piped(tmp_path: Path) -> Iterator[Path]:
    root = make_tree(tmp_path / "cerebrum", {f"{TASKS}/proj/status.md": DONE})
    os.mkfifo(root / TASKS / "proj" / "pipe")
    os.mkfifo(root / ST / "pipe.md")
    faulthandler.dump_traceback_later(PIPE_WATCHDOG_SECONDS, exit=True)
    try:
        yield root
    finally:
        faulthandler.cancel_dump_traceback_later()


# --- JSON nested too deep ------------------------------------------------------------------------


@pytest.fixture
def deep(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path / "cerebrum",
        {
            f"{ST}/2026-01-01_old.md": LOW,
            f"{ST}/2026-06-01_often.md": OFTEN,
            f"{ST}/index.json": DEEP,
            f"{TASKS}/pending-updates/20260601_120000_x.json": DEEP,
            ".ai/subconscious/.ai/sessions/20260601_120000/status.json": DEEP,
            ".ai/procedural-memory/.ai/index.json": DEEP,
        },
    )


# --- a broken index is never rewritten by a change -----------------------------------------------

BROKEN = {
    "deep": DEEP.encode(),
    "list": b"[1,2,3]",
    "not json": b'{\n  "last_updated": "2026-06-01",\n<<<<<<< HEAD\n',
    "not utf-8": b'{"last_updated": "\xff"}',
}

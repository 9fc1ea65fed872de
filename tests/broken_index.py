"""A tree whose short-term index.json is not JSON (a merge left its conflict markers in it), and
the memory text its files and the odd trees' files hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import LT, ST, make_tree, memory_text

TEXT = memory_text(date="2026-06-01", topics="[odd]", importance="low")


# --- an index.json that is not JSON --------------------------------------------------------------

BROKEN = '{\n  "last_updated": "2026-06-01",\n<<<<<<< HEAD\n  "total_memories": 3\n'


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path / "cerebrum", {f"{ST}/a.md": TEXT, f"{LT}/b.md": TEXT, f"{ST}/index.json": BROKEN}
    )

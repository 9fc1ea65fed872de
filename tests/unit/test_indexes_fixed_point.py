"""`samantha-tui index` settles in one run: a second run finds every index up to date.

On a tree made the way samantha-llm makes one (its worker's index keeps every entry in `recent`
however old, with its own summaries) and on the demo, whose indexes drift on purpose."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import samantha_llm_like as like
from samantha_tui.cli import main

from ..conftest import TODAY


def _tree(kind: str, tmp_path: Path, demo_root: Path) -> Path:
    if kind == "demo":
        return demo_root  # written fresh in tmp_path for this test
    root = tmp_path / "made"
    like.write_tree(root, 300, seed=5, today=TODAY)
    return root


@pytest.mark.parametrize("kind", ["samantha-llm-like", "demo"])
def test_a_second_index_run_changes_nothing(kind, tmp_path, demo_root, capsys) -> None:
    root = _tree(kind, tmp_path, demo_root)
    assert main(["index", str(root)]) == 0
    first = capsys.readouterr().out
    assert "rewritten" in first, first
    before = {p: p.read_bytes() for p in root.rglob("index.*")}
    assert main(["index", str(root)]) == 0
    assert "up to date" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in root.rglob("index.*")} == before

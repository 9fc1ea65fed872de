"""`review` and the curation commands: a plan is printed, and applied only with --yes."""

from __future__ import annotations

import json
from pathlib import Path

from samantha_tui.cli import main

from ..conftest import ST


def files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in (root / ".ai").rglob("*")
        if p.is_file()
    }


def test_review_lists_every_rule_and_the_sessions_awaiting_merge(demo_root: Path, capsys) -> None:
    assert main(["review", str(demo_root), "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert set(review) == {
        "prune",
        "promote",
        "escalate",
        "dedupe",
        "complete",
        "apply updates",
        "sessions awaiting merge",
    }
    assert all(
        item["reason"]
        for name, items in review.items()
        if name != "sessions awaiting merge"
        for item in items
    )
    assert len(review["sessions awaiting merge"]) == 1


def test_a_plan_without_yes_changes_nothing(demo_root: Path, capsys) -> None:
    before = files(demo_root)
    for command in ("prune", "promote", "escalate", "dedupe", "complete"):
        assert main([command, "--tree", str(demo_root)]) == 0
    out = capsys.readouterr().out
    assert "run again with --yes to apply" in out
    assert files(demo_root) == before


def test_prune_with_yes_trashes_exactly_the_plan_and_reindexes(demo_root: Path, capsys) -> None:
    assert main(["index", str(demo_root)]) == 0  # start from indexes that agree with the files
    capsys.readouterr()
    main(["prune", str(demo_root)])
    planned = [
        line.split("  (")[0]
        for line in capsys.readouterr().out.splitlines()
        if line.startswith(".ai/")
    ]
    assert planned, "the demo has stale low-importance memories to prune"
    assert main(["prune", str(demo_root), "--yes"]) == 0
    assert "their index entries patched" in capsys.readouterr().out
    for path in planned:
        assert not (demo_root / path).exists()
    assert main(["trash", "list", "--tree", str(demo_root)]) == 0
    listed = capsys.readouterr().out
    assert all(path in listed for path in planned)
    index = json.loads((demo_root / ST / "index.json").read_text())
    indexed = json.dumps(index)
    assert not any(Path(path).name in indexed for path in planned)
    assert main(["index", "--check", str(demo_root)]) == 0

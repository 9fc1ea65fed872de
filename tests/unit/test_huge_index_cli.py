"""An `index.json` of 100,000 entries (tens of megabytes, as years of a worker appending would
make) met by every command: each finishes with a message or its result, never a traceback or a
hang, and a change keeps every entry it cannot account for, byte for byte in meaning.

A soak test: each command reads and, for a change, rewrites the whole file (5-30 s a command on
two shared cores), so `make soak` runs it, not `make test`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.core.writing import journal

from ..conftest import ST, TASKS, make_tree, memory_text
from ..pilot import reindexed

pytestmark = pytest.mark.soak

WORKTREE = Path(__file__).resolve().parents[2]
N = 100_000
HANG = 300
"""Seconds a command may take before it counts as hung."""
PROCEDURAL = ".ai/procedural-memory/.ai"
STALE = f"{ST}/2026-01-01_stale.md"
FRESH = f"{ST}/2026-06-10_fresh.md"


def memory_entry(n: int) -> dict[str, Any]:
    return {
        "file": f"2025-01-01_gone_{n}.md",
        "date": "2025-01-01",
        "title": f"Gone {n}",
        "summary": "Known only to the index.",
        "importance": "high",
        "type": "note",
        "project": "p",
        "topics": ["old"],
        "references": 0,
    }


def short_term() -> dict[str, Any]:
    return {
        "last_updated": "2026-01-01",
        "total_memories": N,
        "critical": [],
        "high_priority": [],
        "recent": {"high_importance": [memory_entry(n) for n in range(N)], "medium_importance": []},
        "stats": {
            "by_importance": {"high": N, "medium": 0, "low": 0},
            "by_type": {},
            "by_project": {},
        },
    }


def current_tasks() -> dict[str, Any]:
    project = {"status": "Phase 1", "started": "2025-01-01", "summary": "s", "topics": ["old"]}
    return {
        "last_updated": "2026-01-01",
        "active_count": N,
        "active": [
            {"name": f"project {n}", **project, "files": [f"p{n}/status.md"]} for n in range(N)
        ],
        "blocked": [],
        "recently_completed": [],
    }


def procedural() -> dict[str, Any]:
    triggers = {"positive": {"repo_signals": ["r"], "keywords": ["k"]}, "negative": []}
    return {
        "last_updated": "2026-01-01",
        "total_runbooks": N,
        "runbooks": [
            {
                "file": f"runbook_{n}.md",
                "domain": f"domain {n}",
                "summary": "s",
                "triggers": triggers,
                "confidence": 0.5,
                "corrections_count": 0,
            }
            for n in range(N)
        ],
        "loading_strategy": {"minimum_positive_categories": 2, "negative_signals_are_veto": True},
    }


HUGE = {"short-term": (ST, short_term), "current-tasks": (TASKS, current_tasks)}
HUGE["procedural"] = (PROCEDURAL, procedural)


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """In a child process: a hang fails the test, never the suite."""
    env = {**os.environ, "PYTHONPATH": str(WORKTREE)}
    return subprocess.run(
        [sys.executable, "-m", "samantha_tui", *args, "--tree", str(root)],
        capture_output=True,
        text=True,
        timeout=HANG,
        env=env,
    )


def made_here(item: Any) -> bool:
    """An entry this test wrote into the index: it names no file of the tree."""
    if not isinstance(item, dict):
        return False
    file, name = str(item.get("file")), str(item.get("name", ""))
    return "gone_" in file or "runbook_" in file or name.startswith("project ")


def unaccounted(data: dict[str, Any]) -> list[Any]:
    """The entries naming no file, from every list of the index, in order."""
    found: list[Any] = []
    for value in data.values():
        for items in value.values() if isinstance(value, dict) else [value]:
            if isinstance(items, list):
                found += [item for item in items if made_here(item)]
    return found


@pytest.mark.parametrize("kind", HUGE)
def test_every_command_takes_an_index_of_100_000_entries(tmp_path: Path, kind: str) -> None:
    folder, build = HUGE[kind]
    files = {
        STALE: memory_text(date="2026-01-01", topics="[a]", importance="low"),
        FRESH: memory_text(date="2026-06-10", topics="[a]", importance="high"),
        f"{TASKS}/gw/status.md": memory_text(date="2026-06-01", topics="[a]", status="active"),
    }
    root = reindexed(make_tree(tmp_path / "cerebrum", files))
    index = root / folder / "index.json"
    data = {**json.loads(index.read_bytes()), **build()}
    index.write_text(json.dumps(data, indent=2), encoding="utf-8")
    kept = unaccounted(data)
    assert len(kept) == N

    for command in (
        ("check",),
        ("search", "fresh"),
        ("index", "--check"),
        ("bootstrap",),
        ("health",),
        ("review",),
        ("set", str(root / FRESH), "importance=medium"),
        ("prune", "--yes"),
        ("index",),
    ):
        done = cli(root, *command)
        assert done.returncode in (0, 1), (command, done.returncode, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (command, done.stderr[-2000:])
        assert journal.pending(root) is None, command
        # Every entry the files cannot account for is still there after each command.
        assert unaccounted(json.loads(index.read_bytes())) == kept, command
    assert b"importance: medium" in (root / FRESH).read_bytes()
    assert not (root / STALE).exists(), "pruned"
    assert cli(root, "index", "--check").returncode in (0, 1)

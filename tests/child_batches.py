"""A tree of prune candidates, and a real batch run on it in a child process that pauses when told,
its lock and journal held. A second writer gives up after 0.4 s in every test that imports them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from samantha_tui.core.writing import tree_lock

from .conftest import ST, make_tree
from .pilot import reindexed

WORKTREE = Path(__file__).resolve().parents[1]
OLD_LOW = [f"{ST}/2026-0{n}-01_old_low_{n}.md" for n in (1, 2, 3)]
"""Prune candidates: low importance, more than 30 days old."""
KEEP = [f"{ST}/2026-06-1{n}_recent_{n}.md" for n in range(6)]
SHORT_WAIT = "0.4"

# A child that runs a real batch and, when `pause_at` operations are done, says so and waits (its
# journal is on disk, the lock held) until told to go on. `go`, when given, is waited for first.
BATCH = """
import json, sys, time
from pathlib import Path
from samantha_tui.core.basics import plans
from samantha_tui.core.writing import door, tree_lock
from samantha_tui.core.writing.store import Store
root, paused, release, go = (Path(a) for a in sys.argv[1:5])
pause_at, ops, name = int(sys.argv[5]), json.loads(sys.argv[6]), sys.argv[7]
step_seconds = float(sys.argv[8])
tree_lock.name_this_process(name)
real, seen = door.run_operation, []
def pausing(store, op):
    if len(seen) == pause_at:
        paused.write_text("paused")
        while not release.exists():
            time.sleep(0.01)
    seen.append(op)
    time.sleep(step_seconds)
    return real(store, op)
door.run_operation = pausing
store = Store(root)
store.scan()
if str(go) != "-":
    while not go.exists():
        time.sleep(0.005)
operations = tuple(
    plans.Operation(op["action"], op["path"], values=op.get("values", {})) for op in ops
)
door.apply(store, plans.Plan(name, operations))
print("done")
"""


def note(title: str, date: str, importance: str) -> str:
    return (
        f"---\ndate: {date}\ntopics: [lock]\nimportance: {importance}\n---\n\n"
        f"# {title}\n\nWhat {title.lower()} says.\n"
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    files = {rel: note(f"Old {n}", f"2026-0{n}-01", "low") for n, rel in enumerate(OLD_LOW, 1)}
    files |= {rel: note(f"Recent {n}", f"2026-06-1{n}", "medium") for n, rel in enumerate(KEEP)}
    return reindexed(make_tree(tmp_path / "cerebrum", files))


@pytest.fixture(autouse=True)
def _short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    # The children and the CLI calls below read it too: a second writer gives up after 0.4 s.
    monkeypatch.setenv(tree_lock.WAIT_ENV, SHORT_WAIT)


def files(root: Path) -> dict[str, bytes]:
    """Every file of the tree but the lock file itself (it holds only who is writing)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).as_posix() != tree_lock.LOCK_FILE
    }


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(WORKTREE)}


def wait_for(path: Path, process: subprocess.Popen, seconds: float = 60.0) -> None:
    """Until `path` appears; a minute only catches a hang (the message names what never came)."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.01)


def start_batch(
    root: Path,
    tmp_path: Path,
    ops: list[dict],
    pause_at: int,
    name: str = "prune --yes",
    go: Path | None = None,
    step_seconds: float = 0.0,
    tag: str = "",
) -> tuple[subprocess.Popen, Path, Path]:
    paused, release = tmp_path / f"paused{tag}", tmp_path / f"release{tag}"
    args = [root, paused, release, go or "-", pause_at, json.dumps(ops), name, step_seconds]
    process = subprocess.Popen(
        [sys.executable, "-c", BATCH, *map(str, args)],
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return process, paused, release


def trash_ops() -> list[dict]:
    """A prune-like batch: trash the old memories, mark a recent one."""
    ops = [{"action": "trash", "path": rel} for rel in OLD_LOW]
    return [*ops, {"action": "edit", "path": KEEP[0], "values": {"importance": "high"}}]

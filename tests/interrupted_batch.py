"""A tree holding a batch's worth of candidates (escalate, promote, complete, apply an update), the
batch of them all, a crash at any of its operations, and the tree's files to compare before and
after."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from samantha_tui.core.basics import plans
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import door, impact, journal, trash
from samantha_tui.core.writing.store import Store

from .conftest import ST, TASKS, TODAY, make_tree
from .pilot import reindexed

PROMOTE = f"{ST}/2026-05-20_deploy_steps.md"
KEEP = f"{ST}/2026-06-01_cache_rule.md"
BILLING = f"{TASKS}/billing"
PENDING = f"{TASKS}/pending-updates/20260614_101500_search.json"


def note(title: str, **fields: str) -> str:
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{lines}---\n\n# {title}\n\nWhat {title.lower()} says.\n"


class Crash(BaseException):
    """Stands for the process dying: nothing in the app catches it."""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A batch's worth of candidates (escalate, promote, complete, apply an update), indexed."""
    files = {
        PROMOTE: note(
            "Deploy steps",
            date="2026-05-20",
            topics="[ci]",
            importance="medium",
            reference_count="6",
        ),
        KEEP: note("Cache rule", date="2026-06-01", topics="[cache]", importance="medium"),
        f"{BILLING}/status.md": note(
            "Billing", date="2026-05-01", topics="[b]", status="completed"
        ),
        f"{BILLING}/notes.md": "# Notes\n\nKeep these.\n",
        f"{TASKS}/search/status.md": note(
            "Search", date="2026-05-02", topics="[s]", status="active"
        ),
        PENDING: '{"project_name": "search", "proposed_changes": {"status": "Phase 2"}}\n',
    }
    return reindexed(make_tree(tmp_path / "cerebrum", files))


def store_of(root: Path) -> Store:
    store = Store(root, lambda: TODAY)
    store.scan()
    return store


def batch(store: Store) -> plans.Plan:
    """Every candidate of every rule, as the review screen combines them (7 operations)."""
    proposals = lifecycle.review(store.tree, TODAY)
    picked = {p.name: [c.path for c in p.candidates] for p in proposals if p.candidates}
    plan = impact.combine(proposals, picked)
    assert len(plan.operations) == 7
    return plan


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file but the trash's and the journal's."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
        and not path.relative_to(root).as_posix().startswith((trash.TRASH_DIR, journal.JOURNAL_DIR))
    }


def everything(root: Path) -> dict[str, bytes | None]:
    """Every file and folder, journal and trash included: what "nothing was written" compares."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes() if path.is_file() else None
        for path in sorted(root.rglob("*"))
    }


def crash_after(monkeypatch: pytest.MonkeyPatch, store: Store, plan: plans.Plan, done: int) -> None:
    """Apply plan as a crash leaves it: the process dies as operation `done` (0-based) starts."""
    real = door.run_operation
    calls = 0

    def run(store: Store, op: plans.Operation) -> plans.Operation:
        nonlocal calls
        calls += 1
        if calls > done:
            raise Crash
        return real(store, op)

    with monkeypatch.context() as patch:
        patch.setattr(door, "run_operation", run)
        with pytest.raises(Crash):
            door.apply(store, plan)


@pytest.fixture
def states(root: Path, tmp_path: Path) -> Iterator[tuple[dict[str, bytes], dict[str, bytes]]]:
    """(before, after) of the batch, the after one from an uninterrupted run on a copy."""
    done = tmp_path / "done"
    shutil.copytree(root, done)
    store = store_of(done)
    door.apply(store, batch(store))
    yield snapshot(root), snapshot(done)

"""The watcher: which outside changes matter, and how fast and how coalesced they arrive."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from watchfiles import Change

from samantha_tui.core.reading.watch import FileBatch, batch_of, watch_tree
from samantha_tui.core.writing.atomic import StoreError

from ..conftest import LT, ST, TASKS, make_tree

PENDING = f"{TASKS}/pending-updates"
WAIT = 60
"""Seconds a batch may take to arrive: generous, for a loaded machine (a second is the aim)."""
SESSION = ".ai/subconscious/.ai/sessions/20260615_101500"
ADDED, MODIFIED, DELETED = Change.added, Change.modified, Change.deleted


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "cerebrum", {f"{ST}/n.md": "x", f"{TASKS}/api/status.md": "x"})


def batch(root: Path, *changes: tuple[Change, str]) -> FileBatch | None:
    return batch_of(root, {(change, str(root / rel)) for change, rel in changes})


def test_memory_files_and_folders_are_paths(root: Path) -> None:
    (root / LT / "topic").mkdir()
    assert batch(root, (MODIFIED, f"{ST}/n.md"), (ADDED, f"{LT}/topic")) == FileBatch(
        paths=(f"{LT}/topic", f"{ST}/n.md")
    )
    # Gone, so it may have been a folder whose files sent no events of their own.
    assert batch(root, (DELETED, f"{LT}/old-topic")) == FileBatch(paths=(f"{LT}/old-topic",))


def test_project_folders_and_companions(root: Path) -> None:
    (root / TASKS / "api" / "diagram.png").write_bytes(b"png")
    assert batch(root, (ADDED, f"{TASKS}/api/diagram.png")) == FileBatch(
        paths=(f"{TASKS}/api/diagram.png",)
    )
    # Editing a companion that is not Markdown changes nothing the store holds.
    assert batch(root, (MODIFIED, f"{TASKS}/api/diagram.png")) is None
    assert batch(root, (DELETED, f"{TASKS}/gone")) == FileBatch(paths=(f"{TASKS}/gone",))
    # A file deeper in the project is one of its companions too; editing it changes nothing.
    assert batch(root, (ADDED, f"{TASKS}/api/deep/x.md")) == FileBatch(
        paths=(f"{TASKS}/api/deep/x.md",)
    )
    assert batch(root, (MODIFIED, f"{TASKS}/api/deep/x.md")) is None


def test_indexes_pending_sessions_and_trash_are_flags(root: Path) -> None:
    assert batch(root, (MODIFIED, f"{ST}/index.json"), (ADDED, f"{LT}/index.md")) == FileBatch(
        indexes=True
    )
    assert batch(root, (ADDED, f"{PENDING}/20260615_api.json")) == FileBatch(
        paths=(f"{PENDING}/20260615_api.json",), pending=True
    )
    assert batch(root, (ADDED, f"{PENDING}/notes.txt")) is None
    assert batch(
        root, (MODIFIED, f"{SESSION}/status.json"), (ADDED, f"{SESSION}/memories/a.md")
    ) == FileBatch(paths=(f"{SESSION}/memories/a.md", f"{SESSION}/status.json"), sessions=True)
    assert batch(root, (ADDED, f"{SESSION}/transcript.txt")) is None
    assert batch(root, (ADDED, ".ai/.trash/20260615-101500/n.md")) == FileBatch(trash=True)


def test_dot_ai_itself_going_away_touches_everything(root: Path) -> None:
    shutil.rmtree(root / ".ai")
    assert batch(root, (DELETED, ".ai"), (DELETED, ST)) == FileBatch(
        paths=(".ai", ST), indexes=True, pending=True, sessions=True, trash=True
    )


@pytest.mark.parametrize(
    "rel",
    [
        f"{ST}/.n.md.k2j4h1.tmp",  # the store's own temporary file
        f"{ST}/.n.md.swp",
        f"{ST}/n.md~",
        f"{ST}/4913",
        f"{ST}/.#n.md",
        f"{ST}/.hidden/n.md",
        f"{ST}/notes.txt",
        f"{LT}/topic/index.md",
        ".ai/subconscious/.ai/logs/run.log",
        ".ai/README.md",
        ".git/index",
        "README.md",
    ],
)
def test_everything_else_is_ignored(root: Path, rel: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x")
    assert batch(root, (ADDED, rel), (MODIFIED, rel)) is None


def test_a_folder_touched_in_place_is_ignored(root: Path) -> None:
    assert batch(root, (MODIFIED, ST), (MODIFIED, f"{TASKS}/api"), (MODIFIED, ".ai")) is None


def test_paths_through_a_symlinked_root_are_found(root: Path, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(root)
    assert batch_of(link, {(MODIFIED, str(root / ST / "n.md"))}) == FileBatch(paths=(f"{ST}/n.md",))


@contextlib.asynccontextmanager
async def watching(
    root: Path, force_polling: bool = False
) -> AsyncIterator[asyncio.Queue[tuple[float, FileBatch]]]:
    """Run watch_tree in a task, feeding (arrival time, batch) into a queue; always stopped."""
    stop = asyncio.Event()
    queue: asyncio.Queue[tuple[float, FileBatch]] = asyncio.Queue()

    async def run() -> None:
        async for found in watch_tree(root, stop, force_polling=force_polling):
            queue.put_nowait((time.monotonic(), found))

    task = asyncio.create_task(run())
    await asyncio.sleep(0.2)  # the OS watch is in place once the task has started
    try:
        yield queue
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout=WAIT)


async def test_an_edit_appears_within_a_second(root: Path) -> None:
    async with watching(root) as queue:
        started = time.monotonic()
        (root / ST / "n.md").write_text("changed")
        arrived, found = await asyncio.wait_for(queue.get(), timeout=WAIT)
    assert found == FileBatch(paths=(f"{ST}/n.md",))
    assert arrived - started < 1.0


async def test_polling_can_be_forced_for_filesystems_without_notifications(root: Path) -> None:
    # The poller compares whole-second modification times: make the edit land in another second.
    os.utime(root / ST / "n.md", (time.time() - 60, time.time() - 60))
    async with watching(root, force_polling=True) as queue:
        (root / ST / "n.md").write_text("changed")
        _, found = await asyncio.wait_for(queue.get(), timeout=WAIT)
    assert found == FileBatch(paths=(f"{ST}/n.md",))


async def test_a_missing_root_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"cannot watch .*/gone: the folder no longer exists"):
        await asyncio.wait_for(anext(watch_tree(tmp_path / "gone")), timeout=WAIT)


async def test_a_burst_of_500_files_arrives_in_very_few_batches(root: Path) -> None:
    rels = {f"{ST}/2026-06-15_note_{n}.md" for n in range(500)}
    batches: list[FileBatch] = []
    async with watching(root) as queue:
        for rel in rels:
            (root / rel).write_text("x" * 500)
        seen: set[str] = set()
        while not rels <= seen:
            batches.append((await asyncio.wait_for(queue.get(), timeout=WAIT))[1])
            seen.update(batches[-1].paths)
    assert len(batches) <= 3
    assert seen == rels


async def test_without_dot_ai_the_root_is_watched(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    async with watching(root) as queue:
        (root / "README.md").write_text("not ours")
        (root / ST).mkdir(parents=True)
        _, found = await asyncio.wait_for(queue.get(), timeout=WAIT)
    assert ".ai" in found.paths and found.indexes


async def test_the_watch_survives_dot_ai_being_replaced(root: Path) -> None:
    async with watching(root) as queue:
        shutil.rmtree(root / ".ai")
        _, gone = await asyncio.wait_for(queue.get(), timeout=WAIT)
        await asyncio.sleep(0.2)
        (root / ST).mkdir(parents=True)
        (root / ST / "back.md").write_text("x")
        seen: set[str] = set()
        while f"{ST}/back.md" not in seen and ".ai" not in seen:
            seen.update((await asyncio.wait_for(queue.get(), timeout=WAIT))[1].paths)
    assert ".ai" in gone.paths

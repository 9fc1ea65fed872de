"""One writer at a time per tree, with real processes: a second writer waits a bounded time, then
names the holder and writes nothing; the lock dies with its process, even on kill -9; two batches
started together both end whole; commands refuse while an interrupted change waits; within one
process the lock is re-entrant and thread-safe; and a lock file that is odd or cannot be made is
refused in words."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics import plans
from samantha_tui.core.basics.model import Severity
from samantha_tui.core.reading.watch import batch_of
from samantha_tui.core.writing import door, journal, trash, tree_lock
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.store import Store

from ..child_batches import (
    KEEP,
    SHORT_WAIT,
    _short_wait,
    child_env,
    files,
    root,
    start_batch,
    trash_ops,
    wait_for,
)
from ..conftest import ST, TODAY
from ..pilot import reindexed

__all__ = ["_short_wait", "root"]  # the fixtures, from child_batches.py


# A child that holds the tree's lock, as a batch in another terminal would, until told to stop.
HOLDER = """
import sys, time
from pathlib import Path
from samantha_tui.core.writing import tree_lock
root, held, release = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
tree_lock.name_this_process(sys.argv[4])
with tree_lock.hold(root):
    held.write_text("held")
    while not release.exists():
        time.sleep(0.01)
"""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m samantha_tui ARGS` in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "samantha_tui", *args],
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=60,
    )


@pytest.fixture
def holder(root: Path, tmp_path: Path) -> Iterator[subprocess.Popen]:
    """A child process holding the tree's lock as `prune --yes`."""
    held, release = tmp_path / "held", tmp_path / "release"
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root), str(held), str(release), "prune --yes"],
        env=child_env(),
    )
    try:
        wait_for(held, process)
        yield process
    finally:
        release.write_text("go")
        process.wait(timeout=60)


# --- a second writer waits, then names the holder and writes nothing ---------------------------


def test_a_second_writer_waits_then_names_the_holder_and_writes_nothing(
    root: Path, holder: subprocess.Popen
) -> None:
    before = files(root)
    for args in (
        ["set", str(root / KEEP[1]), "importance=high"],
        ["unset", str(root / KEEP[1]), "importance"],
        ["prune", str(root), "--yes"],
        ["trash", "empty", "--older-than", "0", "--tree", str(root)],
        ["recover", "--finish", str(root)],
    ):
        started = time.monotonic()
        done = cli(*args)
        waited = time.monotonic() - started
        assert done.returncode == 1, (args, done.stdout, done.stderr)
        assert f"pid {holder.pid}, `prune --yes`, since " in done.stderr, (args, done.stderr)
        assert "nothing was" in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert waited >= float(SHORT_WAIT), (args, waited)
        assert files(root) == before, args
    # In this process too: the wait is bounded, and the error says who holds the tree.
    with pytest.raises(tree_lock.TreeBusy) as busy, tree_lock.hold(root, wait=0.1):
        pass
    assert busy.value.holder.pid == holder.pid and busy.value.holder.command == "prune --yes"
    assert "another samantha-tui (pid" in str(busy.value) and "try again when it is done" in str(
        busy.value
    )


def test_trash_empty_waits_for_the_holder_and_keeps_every_entry(root: Path, tmp_path: Path) -> None:
    store = Store(root, lambda: TODAY)
    store.scan()
    entry = store.trash(KEEP[5])
    held, release = tmp_path / "held", tmp_path / "release"
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root), str(held), str(release), "dedupe --yes"],
        env=child_env(),
    )
    try:
        wait_for(held, process)
        done = cli("trash", "empty", "--older-than", "0", "--tree", str(root))
        assert done.returncode == 1 and "`dedupe --yes`" in done.stderr, done.stderr
        assert [e.id for e in trash.entries(root)] == [entry.id]
    finally:
        release.write_text("go")
        process.wait(timeout=60)
    # Once the holder is gone, the same command goes through.
    done = cli("trash", "empty", "--older-than", "0", "--tree", str(root))
    assert done.returncode == 0, done.stderr
    assert trash.entries(root) == []


# --- the lock dies with its process ------------------------------------------------------------


def test_the_lock_dies_with_its_process_even_on_kill_9(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    before = files(root)
    process, paused, _release = start_batch(root, tmp_path, trash_ops(), pause_at=2)
    wait_for(paused, process)
    with pytest.raises(tree_lock.TreeBusy), tree_lock.hold(root, wait=0.05):
        pass
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)  # reaped, and its pipes read to the end and closed
    # Free at once, with no wait: the kernel dropped the lock with the process.
    started = time.monotonic()
    with tree_lock.hold(root, wait=0):
        assert tree_lock.holds(root)
    assert time.monotonic() - started < 0.2
    assert not tree_lock.holds(root)
    # Now its journal is what it is: an interrupted change, to finish or roll back.
    assert main(["recover", str(root)]) == 1
    assert "interrupted: prune --yes, 2 of 4 steps done" in capsys.readouterr().out
    (problem,) = journal.problems(root)
    assert problem.severity is Severity.ERROR and "was interrupted" in problem.message
    assert main(["recover", "--rollback", str(root)]) == 0
    assert files(root) == before


# --- commands refuse while an interrupted change waits -----------------------------------------


def test_every_command_refuses_while_an_interrupted_change_waits(
    root: Path, tmp_path: Path
) -> None:
    before = files(root)
    process, paused, _release = start_batch(root, tmp_path, trash_ops(), pause_at=2)
    wait_for(paused, process)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)  # reaped, and its pipes read to the end and closed
    entries = trash.entries(root)
    assert len(entries) == 2  # what the journal needs to roll back
    interrupted = files(root)
    for args in (
        ["trash", "empty", "--older-than", "0", "--tree", str(root)],
        ["trash", "restore", entries[0].id, "--tree", str(root)],
        ["set", str(root / KEEP[1]), "importance=high"],
        ["unset", str(root / KEEP[1]), "importance"],
        ["prune", str(root), "--yes"],
    ):
        done = cli(*args)
        assert done.returncode == 1, (args, done.stdout, done.stderr)
        assert "an earlier change was interrupted" in done.stderr, (args, done.stderr)
        assert files(root) == interrupted, args
    assert [e.id for e in trash.entries(root)] == [e.id for e in entries]
    # Recovery itself still uses the store while the journal waits.
    done = cli("recover", "--rollback", str(root))
    assert done.returncode == 0, done.stderr
    assert files(root) == before


# --- two batches started together --------------------------------------------------------------


def test_two_batches_started_together_both_end_whole(root: Path, tmp_path: Path) -> None:
    halves = {
        "a": [{"action": "edit", "path": rel, "values": {"topics": ["a"]}} for rel in KEEP[:3]],
        "b": [{"action": "edit", "path": rel, "values": {"topics": ["b"]}} for rel in KEEP[3:]],
    }
    for round_ in range(3):
        go = tmp_path / f"go{round_}"
        children = {
            tag: start_batch(
                root,
                tmp_path,
                ops,
                pause_at=-1,
                name=f"batch {tag}",
                go=go,
                step_seconds=0.05,
                tag=f"{tag}{round_}",
            )[0]
            for tag, ops in halves.items()
        }
        go.write_text("go")
        for tag, child in children.items():
            out, err = child.communicate(timeout=60)
            assert child.returncode == 0 and "done" in out, (tag, err)
        # Whole: every edit of both, no journal left (neither removed the other's), and the
        # index entries of both patched.
        assert not (root / journal.JOURNAL_DIR).exists()
        for tag, ops in halves.items():
            for op in ops:
                assert f"topics: [{tag}]" in (root / op["path"]).read_text()
        index = (root / ST / "index.json").read_text()
        assert index.count('"a"') >= 3 and index.count('"b"') >= 3
        assert cli("index", str(root), "--check").returncode == 0
        for rel in KEEP:  # back to a neutral topic, so the next round changes every file again
            text = (root / rel).read_text()
            for tag in halves:
                text = text.replace(f"topics: [{tag}]", "topics: [lock]")
            (root / rel).write_text(text)
        reindexed(root)


# --- within one process: re-entrant and thread-safe --------------------------------------------


def test_re_entrant_within_a_thread_and_shared_by_two_stores(root: Path) -> None:
    first, second = Store(root, lambda: TODAY), Store(root, lambda: TODAY)
    first.scan()
    second.scan()
    with tree_lock.hold(root, wait=0):
        with tree_lock.hold(Path(os.fspath(root) + "/"), wait=0):
            # Two stores of one tree, a batch and its store calls: one hold, no deadlock.
            door.apply(
                first,
                plans.Plan(
                    "two",
                    tuple(
                        plans.Operation("edit", rel, values={"importance": "high"})
                        for rel in KEEP[:2]
                    ),
                ),
            )
            second.scan()
            second.edit(KEEP[2], {"importance": "low"})
        assert tree_lock.holds(root)
        holder = json.loads((root / tree_lock.LOCK_FILE).read_text())
        assert holder["pid"] == os.getpid() and holder["since"]
    assert not tree_lock.holds(root)
    assert (root / tree_lock.LOCK_FILE).read_bytes() == b""  # a released lock names nobody


def test_another_thread_waits_the_bounded_time_then_gets_it(root: Path) -> None:
    taken, release = threading.Event(), threading.Event()
    results: list[str] = []

    def holding() -> None:
        with tree_lock.hold(root, wait=0):
            taken.set()
            release.wait(60)

    thread = threading.Thread(target=holding)
    thread.start()
    taken.wait(60)
    started = time.monotonic()
    try:
        with tree_lock.hold(root, wait=0.2):
            results.append("got it")
    except tree_lock.TreeBusy as busy:
        results.append(str(busy))
    assert time.monotonic() - started >= 0.2
    assert f"pid {os.getpid()}" in results[0]
    release.set()
    thread.join(10)
    with tree_lock.hold(root, wait=0):
        assert tree_lock.holds(root)


# --- a hostile or unlockable tree --------------------------------------------------------------


@pytest.mark.parametrize("what", ["link", "folder", "fifo"])
def test_a_lock_file_that_is_not_a_regular_file_is_refused(
    root: Path, tmp_path: Path, what: str
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours\n")
    lock = root / tree_lock.LOCK_FILE
    lock.unlink()  # left by the fixture's index writes
    if what == "link":
        lock.symlink_to(outside)
    elif what == "folder":
        lock.mkdir()
    else:
        os.mkfifo(lock)
    before = files(root)
    store = Store(root, lambda: TODAY)
    store.scan()
    with pytest.raises(StoreError, match=r"\.ai/\.lock is .*nothing was written; move it away"):
        store.edit(KEEP[0], {"importance": "high"})
    assert files(root) == before and outside.read_text() == "not yours\n"


def test_the_lock_never_makes_a_vanished_tree_come_back(root: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    bare.mkdir()
    with tree_lock.hold(bare, wait=0):
        pass
    assert not (bare / ".ai").exists()
    store = Store(root, lambda: TODAY)
    store.scan()
    gone = tmp_path / "moved"
    root.rename(gone)
    with pytest.raises(StoreError, match="no longer there"):
        store.edit(KEEP[0], {"importance": "high"})
    assert not root.exists()


def test_a_lock_file_that_cannot_be_made_leaves_the_write_its_own_message(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def read_only(path, flags, *args, **kwargs):
        if os.fspath(path).endswith(tree_lock.LOCK_FILE):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real_open(path, flags, *args, **kwargs)

    (root / tree_lock.LOCK_FILE).unlink()  # left by the fixture's index writes
    monkeypatch.setattr(os, "open", read_only)
    store = Store(root, lambda: TODAY)
    store.scan()
    store.edit(KEEP[0], {"importance": "high"})  # only the lock file is refused: the write goes on
    assert "importance: high" in (root / KEEP[0]).read_text()
    assert not (root / tree_lock.LOCK_FILE).exists()


def test_the_watcher_and_the_scan_pass_over_the_lock_file(root: Path) -> None:
    with tree_lock.hold(root, wait=0):
        pass
    lock = os.fspath(root / tree_lock.LOCK_FILE)
    assert batch_of(root, [(1, lock), (2, lock), (3, lock)]) is None
    store = Store(root, lambda: TODAY)
    tree = store.scan()
    assert not any(".lock" in p.path for p in tree.all_problems)
    assert not any(".lock" in m.path for m in tree.memories)

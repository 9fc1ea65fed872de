"""No change wedges the tree (issue 30): an index step that meets samantha-llm's lock-free worker
patches again; a batch that could not finish (a link out of the tree, a folder it may not write, a
full disk) refuses before its first step; what a command says about its journal is true; a journal
left behind is finished by the next change, or the refusal names the very command to run; and a
trashed symbolic link is never restored as a memory."""

from __future__ import annotations

import datetime as dt
import errno
import json
import os
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics import plans
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import atomic, door, edits, journal, store, trash
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.recovery import ROLLBACK, recover
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TODAY
from ..interrupted_batch import KEEP, batch, everything, root, snapshot, states, store_of
from ..pilot import index_check

__all__ = ["root", "states"]  # the fixtures, from interrupted_batch.py

ST_INDEX = f"{ST}/index.json"
INDEXES_RECORD = f"{journal.JOURNAL_DIR}/{journal.INDEXES_FILE}"


# --- a lock-free writer at the index step --------------------------------------------------------


def worker_rewrites(path: Path) -> None:
    """What samantha-llm's worker does: load index.json, change it, write it back, no lock."""
    data = json.loads(path.read_bytes())
    data["worker_writes"] = data.get("worker_writes", 0) + 1
    path.write_text(json.dumps(data, indent=2) + "\n")


def writer_at_index_step(
    monkeypatch: pytest.MonkeyPatch, root: Path, times: int | None
) -> Callable[[], int]:
    """The worker rewrites the short-term index.json between the index step's read of it and
    its write, `times` times (None: every time); returns how many times it did."""
    real = Store.write_file
    count = 0

    def write_file(self: Store, rel: str, data: bytes, expected: Any) -> None:
        nonlocal count
        at_index_step = (root / INDEXES_RECORD).exists()
        if rel == ST_INDEX and at_index_step and (times is None or count < times):
            count += 1
            worker_rewrites(root / ST_INDEX)
        real(self, rel, data, expected)

    monkeypatch.setattr(Store, "write_file", write_file)
    return lambda: count


def test_an_index_step_that_meets_a_lock_free_writer_patches_again(
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    states: tuple[dict[str, bytes], dict[str, bytes]],
) -> None:
    _, after = states
    rewrites = writer_at_index_step(monkeypatch, root, times=2)
    applied = door.apply(store_of(root), batch(store_of(root)))
    assert rewrites() == 2 and applied.ran == 7
    assert not (root / journal.JOURNAL_DIR).exists()
    # The worker's writes are kept, and the batch's entries patched in over them.
    written = json.loads((root / ST_INDEX).read_bytes())
    assert written.pop("worker_writes") == 2
    assert written == json.loads(after[ST_INDEX])
    assert {k: v for k, v in snapshot(root).items() if k != ST_INDEX} == {
        k: v for k, v in after.items() if k != ST_INDEX
    }


def test_a_writer_that_never_stops_leaves_a_journal_whose_rollback_keeps_its_work(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bounded: after a few tries the journal stays (and says so); rolling it back puts back
    the index.json the worker last wrote, not the one the batch first read."""
    rewrites = writer_at_index_step(monkeypatch, root, times=None)
    with pytest.raises(StoreError, match="recover --finish") as refused:
        door.apply(store_of(root), batch(store_of(root)))
    assert "every step was applied" in str(refused.value)
    tries = rewrites()
    assert 1 < tries <= 10
    monkeypatch.undo()
    last = (root / ST_INDEX).read_bytes()
    assert json.loads(last)["worker_writes"] == tries
    found = journal.pending(root)
    assert found is not None and found.indexes is not None
    recover(store_of(root), ROLLBACK)
    assert (root / ST_INDEX).read_bytes() == last


# --- a batch that could not finish refuses before its first step ---------------------------------


def test_an_index_linked_out_of_the_tree_refuses_the_batch_before_its_first_step(
    root: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes((root / ST_INDEX).read_bytes())
    (root / ST_INDEX).unlink()
    (root / ST_INDEX).symlink_to(outside)
    untouched = everything(root)
    with pytest.raises(StoreError) as refused:
        door.apply(store_of(root), batch(store_of(root)))
    said = str(refused.value)
    assert ST_INDEX in said and "symbolic link" in said and "no step was taken" in said
    assert everything(root) == untouched and not (root / journal.JOURNAL_DIR).exists()
    assert outside.read_bytes() == (root / ST_INDEX).read_bytes()


def test_a_folder_on_the_way_linked_elsewhere_refuses_the_batch_before_its_first_step(
    root: Path, tmp_path: Path
) -> None:
    """A link inside the tree too: recovery refuses any journal naming a path through a link,
    so a batch writing through one could leave a journal nobody can finish."""
    real = tmp_path / "long-term-elsewhere"
    shutil.move(root / LT, real)
    (root / LT).symlink_to(real, target_is_directory=True)
    untouched = everything(root)
    plan = lifecycle.promote(store_of(root).tree, TODAY).plan()
    with pytest.raises(StoreError, match="symbolic link") as refused:
        door.apply(store_of(root), plan)
    assert LT in str(refused.value) and "no step was taken" in str(refused.value)
    assert everything(root) == untouched


def test_a_full_disk_foreseen_refuses_the_batch_before_its_first_step(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.statvfs

    class Nearly:
        f_bavail, f_frsize, f_bsize = 1, 4096, 4096

    def statvfs(path: Any) -> Any:
        return Nearly if str(root) in str(path) else real(path)

    monkeypatch.setattr(os, "statvfs", statvfs)
    untouched = everything(root)
    with pytest.raises(StoreError, match="the disk is full") as refused:
        door.apply(store_of(root), batch(store_of(root)))
    assert "no step was taken" in str(refused.value)
    assert everything(root) == untouched


def test_a_folder_it_may_not_write_refuses_the_batch_before_its_first_step(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tests run as root, whom no mode stops: the folder is made one the user may not write
    # by the answer to the question the check asks.
    real = os.access
    denied = str(root / LT)

    def access(path: Any, mode: int, **options: Any) -> bool:
        return False if str(path) == denied and mode & os.W_OK else real(path, mode, **options)

    monkeypatch.setattr(os, "access", access)
    untouched = everything(root)
    plan = lifecycle.promote(store_of(root).tree, TODAY).plan()
    with pytest.raises(StoreError, match="permission was denied to write in") as refused:
        door.apply(store_of(root), plan)
    assert LT in str(refused.value) and "no step was taken" in str(refused.value)
    assert everything(root) == untouched


def test_a_read_only_index_file_refuses_the_batch_before_its_first_step(root: Path) -> None:
    """Made read-only on purpose, the index file is never written: seen before the first step
    rather than after the last."""
    (root / ST_INDEX).chmod(0o444)
    untouched = everything(root)
    with pytest.raises(StoreError, match="read-only") as refused:
        door.apply(store_of(root), batch(store_of(root)))
    assert ST_INDEX in str(refused.value) and "no step was taken" in str(refused.value)
    assert everything(root) == untouched and not (root / journal.JOURNAL_DIR).exists()


# --- what a command says about its journal is true -----------------------------------------------


def full_disk_from(monkeypatch: pytest.MonkeyPatch, nth: int) -> None:
    """Every atomic write from the nth on fails as a full disk does (and the disk stays full)."""
    real, calls = atomic.write_atomic, 0

    def write_atomic(*args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        if calls >= nth:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(*args, **kwargs)

    for module in (atomic, journal, store, trash):
        monkeypatch.setattr(module, "write_atomic", write_atomic)


def test_on_a_full_disk_what_promote_says_of_its_journal_is_true(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills at each write of a promotion in turn (its journal's records, its copy,
    the trash's record, its index files): whatever the refusal says is so."""
    for nth in range(1, 16):
        tree = tmp_path / f"full-{nth}"
        shutil.copytree(root, tree)
        before = snapshot(tree)
        plan = lifecycle.promote(store_of(tree).tree, TODAY).plan()
        with monkeypatch.context() as patch:
            full_disk_from(patch, nth)
            try:
                door.apply(store_of(tree), plan)
            except StoreError as error:
                said = str(error)
            else:
                break  # the disk filled after the last write: nothing to say
        waiting = journal.pending(tree)
        assert "free some space" in said, said
        if waiting is None:
            assert "recover" not in said, said
            assert snapshot(tree) == before, said
            assert not (tree / journal.JOURNAL_DIR).exists(), said
        else:
            assert "no step was taken" not in said and "nothing was changed" not in said, said
            assert "samantha-tui recover --" in said, said
            recover(store_of(tree), ROLLBACK)
            assert snapshot(tree) == before, said
    else:
        pytest.fail("the promotion never completed")
    assert nth > 3


# --- a journal left behind ------------------------------------------------------------------------


def test_the_next_change_finishes_a_batch_that_only_lacked_its_index_files(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with monkeypatch.context() as patch:
        writer_at_index_step(patch, root, times=None)
        with pytest.raises(StoreError, match="recover --finish"):
            door.apply(store_of(root), batch(store_of(root)))
    assert journal.pending(root) is not None
    # The worker is done; the next change of any kind finishes the batch first.
    target = f"{LT}/2026-06-15_deploy_steps.md"
    assert main(["set", "--tree", str(root), str(root / target), "critical=true"]) == 0
    said = capsys.readouterr()
    assert "finished the interrupted change" in said.out + said.err
    assert not (root / journal.JOURNAL_DIR).exists()
    assert b"critical: true" in (root / target).read_bytes()
    assert index_check(root, capsys) == 0


def test_a_change_refused_by_a_journal_names_the_commands_to_run(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ..interrupted_batch import crash_after

    store = store_of(root)
    crash_after(monkeypatch, store, batch(store), 3)
    tree = shlex.quote(str(root))
    op = plans.Operation("edit", KEEP, values={"critical": True})
    with pytest.raises(StoreError) as refused:
        door.apply(store_of(root), plans.Plan("mark", (op,)), reindex=False)
    said = str(refused.value)
    assert f"samantha-tui recover --finish --tree {tree}" in said
    assert f"samantha-tui recover --rollback --tree {tree}" in said
    # A command that only reads says so too, once, on stderr.
    assert main(["review", "--tree", str(root)]) == 0
    err = capsys.readouterr().err
    assert f"samantha-tui recover --finish --tree {tree}" in err


# --- a trashed symbolic link ---------------------------------------------------------------------


def test_a_trashed_symbolic_link_is_not_restored_as_a_memory(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("---\ndate: 2026-06-01\n---\n\n# Not a memory\n")
    link = root / ST / "2026-06-02_linked.md"
    link.symlink_to(outside)
    entry = trash.put(root, link.relative_to(root).as_posix(), dt.datetime(2026, 6, 15, 10))
    assert entry.item(root).is_symlink()
    untouched = everything(root)

    with pytest.raises(StoreError, match="symbolic link") as refused:
        door.apply(store_of(root), edits.restore(entry))
    assert "not restored" in str(refused.value) and "no step was taken" in str(refused.value)
    assert everything(root) == untouched
    assert main(["trash", "restore", entry.id, "--tree", str(root)]) == 1
    assert "symbolic link" in capsys.readouterr().err
    assert everything(root) == untouched and not link.is_symlink()

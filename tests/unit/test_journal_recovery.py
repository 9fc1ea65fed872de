"""The journal of a batch and recovery from it: an interrupted batch is found (never written to by
looking), refuses new changes, is reported by `check`, and is finished or rolled back to exactly
the after or the before tree, by the core and by `samantha-tui recover`."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics import plans
from samantha_tui.core.views.indexes import plan_updates
from samantha_tui.core.writing import door, journal, trash
from samantha_tui.core.writing.atomic import StoreError, digest_bytes
from samantha_tui.core.writing.recovery import FINISH, ROLLBACK, recover
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TODAY
from ..interrupted_batch import (
    KEEP,
    PROMOTE,
    Crash,
    batch,
    crash_after,
    everything,
    root,
    snapshot,
    states,
    store_of,
)
from ..pilot import index_check

__all__ = ["root", "states"]  # the fixtures, from interrupted_batch.py


# --- the journal while a batch runs -------------------------------------------------------------


def test_a_batch_leaves_no_journal_and_a_single_write_keeps_none(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_of(root)
    applied = door.apply(store, batch(store))
    assert not (root / journal.JOURNAL_DIR).exists()
    assert {f"{ST}/index.json", f"{LT}/index.json", f"{LT}/index.md"} <= set(applied.indexes)

    def no_journal(*args: object) -> None:
        raise AssertionError("a single atomic write needs no journal")

    monkeypatch.setattr(journal, "begin", no_journal)
    op = plans.Operation("edit", KEEP, values={"critical": True}, touch_updated=False)
    door.apply(store, plans.Plan("mark", (op,)), reindex=False)
    assert b"critical: true" in (root / KEEP).read_bytes()


def crash_in_regeneration(monkeypatch: pytest.MonkeyPatch, store: Store, plan: plans.Plan) -> None:
    """Apply plan as a crash leaves it: every operation done, one index file rewritten."""

    def regenerate(store: Store, kinds: object, **options: object) -> None:
        first = plan_updates(store.tree, store.root, TODAY, kinds, options.get("scope"))[0]
        store.write_file(first.path, first.new, digest_bytes(first.old or b""))
        raise Crash

    with monkeypatch.context() as patch:
        patch.setattr(door, "regenerate", regenerate)
        with pytest.raises(Crash):
            door.apply(store, plan)


def test_an_interrupted_batch_finishes_or_rolls_back_whole(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    states: tuple[dict[str, bytes], dict[str, bytes]],
) -> None:
    """Cut before the first, a middle and the last of the 7 operations, and while the indexes are
    regenerated (test_crash_safety.py cuts at every file-system call)."""
    before, after = states
    for done in (0, 3, 6, 7):
        cut = tmp_path / f"cut-{done}"
        shutil.copytree(root, cut)
        store = store_of(cut)
        if done < 7:
            crash_after(monkeypatch, store, batch(store), done)
        else:
            crash_in_regeneration(monkeypatch, store, batch(store))
        found = journal.pending(cut)
        assert found is not None and found.describe().endswith(f", {done} of 7 steps done")
        assert sorted(found.done) == list(range(done))
        assert sorted(found.steps) == list(range(min(done + 1, 7)))
        assert (found.indexes is not None) == (done == 7)
        if done == 7:
            assert snapshot(cut) not in (before, after)  # one index file is new, the rest old

        finished = tmp_path / f"finished-{done}"
        shutil.copytree(cut, finished)
        assert recover(store_of(finished), FINISH).steps == 7 - done
        assert snapshot(finished) == after and journal.pending(finished) is None
        assert recover(store_of(cut), ROLLBACK).steps == done
        assert snapshot(cut) == before and not (cut / journal.JOURNAL_DIR).exists()


def test_an_interrupted_recovery_can_itself_be_finished_or_rolled_back(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    states: tuple[dict[str, bytes], dict[str, bytes]],
) -> None:
    before, after = states
    store = store_of(root)
    crash_after(monkeypatch, store, batch(store), 5)
    # Rolling back dies after undoing two steps (the third restore from the trash never runs).
    real_restore, restores = Store.restore, 0

    def restore(self: Store, entry_id: str) -> str:
        nonlocal restores
        restores += 1
        if restores == 2:
            raise Crash
        return real_restore(self, entry_id)

    with monkeypatch.context() as patch:
        patch.setattr(Store, "restore", restore)
        with pytest.raises(Crash):
            recover(store_of(root), ROLLBACK)
    found = journal.pending(root)
    assert found is not None and len(found.done) < 5

    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    recover(store_of(copy), FINISH)
    assert snapshot(copy) == after
    recover(store_of(root), ROLLBACK)
    assert snapshot(root) == before


def test_a_rollback_cut_after_undoing_an_index_update_still_ends_whole(
    root: Path, monkeypatch: pytest.MonkeyPatch, states: tuple[dict[str, bytes], dict[str, bytes]]
) -> None:
    """The indexes' old bytes go back first and are then forgotten: a second rollback must not
    put back the index.json that still held the applied project update."""
    before, _ = states
    store = store_of(root)
    crash_in_regeneration(monkeypatch, store, batch(store))
    # Rolling back undoes the operations newest first; the first one (an escalation) comes last,
    # put back by the second write_bytes (the completed task's status.md is the first): the
    # rollback dies there, the project update already undone.
    real, calls = Store.write_bytes, 0

    def write_bytes(self: Store, *args: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise Crash
        return real(self, *args)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(Store, "write_bytes", write_bytes)
        with pytest.raises(Crash):
            recover(store_of(root), ROLLBACK)
    found = journal.pending(root)
    assert found is not None and found.indexes is None and sorted(found.steps) == [0]
    recover(store_of(root), ROLLBACK)
    assert snapshot(root) == before


def test_rolling_back_leaves_a_file_another_program_changed_since(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_of(root)
    crash_after(monkeypatch, store, batch(store), 3)
    (root / PROMOTE).write_bytes((root / PROMOTE).read_bytes() + b"\nAdded by hand.\n")
    changed = (root / PROMOTE).read_bytes()

    with pytest.raises(StoreError, match="changed since") as refused:
        recover(store_of(root), ROLLBACK)
    assert "samantha-tui recover" in str(refused.value)
    assert (root / PROMOTE).read_bytes() == changed and journal.pending(root) is not None


def test_a_half_move_in_a_copied_tree_is_one_file_not_two(root: Path, tmp_path: Path) -> None:
    """A copy keeps no hard links: the two names of a half-moved file become two equal files."""
    store = store_of(root)
    op = plans.Operation("trash", KEEP)
    writer = journal.begin(root, "delete", [plans.encode(op)], "2026-06-15T10:00:00")
    writer.step(0, [journal.Before(KEEP, journal.content_digest(root / KEEP))])
    # What trash.put leaves when killed between linking the item and unlinking the source.
    entry = trash.put(root, KEEP, dt.datetime(2026, 6, 15, 10, 0))
    os.link(entry.item(root), root / KEEP)
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    assert not os.path.samefile(copy / KEEP, trash.item_path(copy, entry.id, KEEP))

    finished = recover(store_of(copy), FINISH)
    assert finished.steps == 1 and not (copy / KEEP).exists()
    assert [e.path for e in trash.entries(copy)] == [KEEP]
    rolled = recover(store, ROLLBACK)
    assert rolled.steps == 1 and (root / KEEP).exists() and trash.entries(root) == []


def test_recovery_sweeps_what_killed_writes_left(root: Path) -> None:
    """Without a journal: temporary files of the atomic writer and trash entries holding nothing."""
    litter = [
        f"{ST}/.2026-06-01_cache_rule.md.abcd1234.tmp",
        f"{journal.JOURNAL_DIR}/.step-0.json.zz_9yx8w.tmp",
    ]
    for rel in litter:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(b"half a fi")
    shell = root / trash.TRASH_DIR / "20260615-100000"
    shell.mkdir(parents=True)
    (shell / trash.ORIGIN_FILE).write_text(json.dumps({"path": KEEP, "trashed_at": "x"}))
    before = snapshot(root)

    done = recover(store_of(root), FINISH)
    assert done.name is None
    # The journal folder held no plan, only a temporary file: a removal cut short, it goes too.
    shells = [f"{trash.TRASH_DIR}/20260615-100000", journal.JOURNAL_DIR]
    assert sorted(done.removed) == sorted([*litter, *shells])
    assert done.describe() == "nothing was interrupted; removed 4 leftover file(s)"
    assert snapshot(root) == {k: v for k, v in before.items() if k not in litter}
    assert not shell.exists() and not (root / journal.JOURNAL_DIR).exists()


def test_operations_survive_the_journal_unchanged() -> None:
    ops = [
        plans.Operation(
            "edit",
            KEEP,
            "reason",
            values={"completed": TODAY, "seen": dt.datetime(2026, 6, 15, 9, 30), "n": 3},
            unset=("critical",),
            expected="abc",
            touch_updated=False,
        ),
        plans.Operation("add", KEEP, data=b"---\ndate: 2026-06-15\n---\n\xe2\x9c\x93\n"),
        plans.Operation(
            "project-fields", "x", target="search", values={"status": None, "tags": ["a", "b"]}
        ),
        plans.Operation("restore", KEEP, target="20260615-100000"),
    ]
    for op in ops:
        assert plans.decode(json.loads(json.dumps(plans.encode(op)))) == op


# --- refusing, reporting, and reading only ------------------------------------------------------


def test_a_pending_journal_refuses_changes_is_a_problem_and_reading_writes_nothing(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_of(root)
    crash_after(monkeypatch, store, batch(store), 2)
    untouched = everything(root)

    store_of(root)
    op = plans.Operation("edit", KEEP, values={"critical": True})
    with pytest.raises(StoreError, match="earlier change was interrupted") as refused:
        door.apply(store_of(root), plans.Plan("mark", (op,)), reindex=False)
    assert "samantha-tui recover" in str(refused.value)

    assert main(["check", str(root)]) == 1
    out = capsys.readouterr().out
    assert (
        f"{journal.JOURNAL_DIR}: an earlier change was interrupted: review: escalate 1, "
        "apply updates 1, promote 1, complete 1, 2 of 7 steps done; run `samantha-tui recover`"
    ) in out
    assert main(["recover", str(root)]) == 1
    shown = capsys.readouterr()
    assert shown.out.startswith("interrupted: review: escalate 1, apply updates 1, promote 1")
    assert "--rollback" in shown.err
    assert everything(root) == untouched


def test_a_damaged_journal_is_reported_and_blocks_changes(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (root / journal.JOURNAL_DIR).mkdir()
    (root / journal.JOURNAL_DIR / journal.PLAN_FILE).write_text("{not json")
    with pytest.raises(StoreError, match="cannot be read"):
        journal.pending(root)
    op = plans.Operation("edit", KEEP, values={"critical": True})
    with pytest.raises(StoreError, match="remove that folder by hand"):
        door.apply(store_of(root), plans.Plan("mark", (op,)))
    assert main(["check", str(root)]) == 1
    assert "cannot be read" in capsys.readouterr().out

    plan = {"name": "tidy", "started": "2026-06-15T10:00:00", "operations": [{"bogus": 1}]}
    (root / journal.JOURNAL_DIR / journal.PLAN_FILE).write_text(json.dumps(plan))
    with pytest.raises(StoreError, match="has the action None, which samantha-tui never makes"):
        recover(store_of(root), FINISH)
    # Paths it may act on, but values no operation can hold.
    odd = {"action": "edit", "path": KEEP, "values": 5}
    plan["operations"] = [odd]
    (root / journal.JOURNAL_DIR / journal.PLAN_FILE).write_text(json.dumps(plan))
    with pytest.raises(StoreError, match="operations that cannot be read"):
        recover(store_of(root), FINISH)
    assert main(["recover", "--rollback", str(root)]) == 1
    assert "remove that folder by hand" in capsys.readouterr().err


def test_recover_command_finishes_rolls_back_and_says_so(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    states: tuple[dict[str, bytes], dict[str, bytes]],
) -> None:
    before, after = states
    assert main(["recover", str(root)]) == 0
    assert capsys.readouterr().out == "nothing was interrupted\n"
    store = store_of(root)
    crash_after(monkeypatch, store, batch(store), 4)
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)

    assert main(["recover", "--finish", str(copy)]) == 0
    assert capsys.readouterr().out.startswith("finished: review: escalate 1, apply updates 1")
    assert snapshot(copy) == after and index_check(copy, capsys) == 0
    assert main(["recover", "--rollback", "--tree", str(root)]) == 0
    assert "(4 step(s) rolled back)" in capsys.readouterr().out
    assert snapshot(root) == before and index_check(root, capsys) == 0
    with pytest.raises(SystemExit) as both:
        main(["recover", "--finish", "--rollback", str(root)])
    assert both.value.code == 2 and "not allowed with" in capsys.readouterr().err

"""Batches act only on what their plan saw: a file changed (in place, replaced, deleted) after the
plan was made keeps its change, its step is skipped and reported, the rest of the batch goes on;
undo and recovery follow the skipped steps, in one process and against a second real one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from samantha_tui.core.basics import plans
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import door, impact, journal, trash
from samantha_tui.core.writing.atomic import digest_bytes
from samantha_tui.core.writing.recovery import FINISH, ROLLBACK, recover
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TASKS, TODAY, make_tree
from ..other_program_edits import marked_critical, replace_atomically, trash_digests
from ..processes import in_memory_folder

WORKTREE = Path(__file__).resolve().parents[2]


def old_note(name: str) -> str:
    return f"---\ndate: 2020-01-01\ntopics: [old]\nimportance: low\n---\n\n# {name}\n\nStale.\n"


@pytest.fixture
def four(tmp_path: Path) -> tuple[Store, list[str]]:
    paths = [f"{ST}/2020-01-01_note_{n}.md" for n in range(4)]
    root = make_tree(tmp_path / "cerebrum", {p: old_note(p) for p in paths})
    store = Store(root, lambda: TODAY)
    store.scan()
    return store, paths


# --- one process --------------------------------------------------------------------------------


def test_changed_replaced_and_deleted_files_are_skipped_and_the_rest_is_trashed(four) -> None:
    store, (edited, replaced, deleted, kept) = four
    root = store.root
    seen = {p: (root / p).read_bytes() for p in (edited, replaced, deleted, kept)}
    plan = lifecycle.prune(store.tree).plan()
    assert len(plan.operations) == 4 and all(op.seen for op in plan.operations)

    with open(root / edited, "r+b") as handle:  # an edit in place, same inode
        handle.seek(0, os.SEEK_END)
        handle.write(b"A line added after the plan.\n")
    replace_atomically(root / replaced, marked_critical(seen[replaced]))
    os.unlink(root / deleted)
    now = {p: (root / p).read_bytes() for p in (edited, replaced)}

    applied = door.apply(store, plan)

    assert {(s.path, s.reason) for s in applied.skipped} == {
        (edited, door.CHANGED),
        (replaced, door.CHANGED),
        (deleted, door.GONE),
    }
    assert applied.ran == 1 and applied.touched == (kept,)
    assert {p: (root / p).read_bytes() for p in (edited, replaced)} == now
    assert not (root / deleted).exists() and not (root / kept).exists()
    assert trash_digests(root) == {kept: digest_bytes(seen[kept])}
    assert not (root / journal.JOURNAL_DIR).exists()

    # Undo holds only the step that ran: the changed files stay as the other program left them.
    assert [op.action for op in applied.inverse.operations] == ["restore"]
    door.apply(store, applied.inverse)
    assert (root / kept).read_bytes() == seen[kept]
    assert {p: (root / p).read_bytes() for p in (edited, replaced)} == now
    assert trash.entries(root) == []


def test_the_cli_reports_each_skipped_file_and_a_true_total(four, capsys) -> None:
    from samantha_tui.cli import main

    store, paths = four
    # The plan is made from the scan; the other program writes between the scan and the move.
    real_scan = Store.scan

    def scan_then_other_program(self: Store):
        tree = real_scan(self)
        replace_atomically(self.root / paths[1], b"---\ndate: 2020-01-01\ncritical: true\n---\n")
        return tree

    Store.scan = scan_then_other_program  # type: ignore[method-assign]
    try:
        assert main(["prune", "--yes", str(store.root)]) == 0
    finally:
        Store.scan = real_scan  # type: ignore[method-assign]
    out = capsys.readouterr().out
    assert f"skipped: {paths[1]} changed since the plan was made" in out
    assert "applied: 3 of 4 operation(s); skipped 1 whose file changed" in out
    assert (store.root / paths[1]).exists()
    assert sorted(trash_digests(store.root)) == sorted(p for p in paths if p != paths[1])


def test_a_file_written_between_the_check_and_the_move_comes_back(four, monkeypatch) -> None:
    store, paths = four
    root = store.root
    plan = lifecycle.prune(store.tree).plan()
    newer = marked_critical((root / paths[2]).read_bytes())
    real_move = trash.move_into_new_folder

    def other_program_first(source: Path, target: Path) -> None:
        if source == root / paths[2]:
            replace_atomically(source, newer)  # after the check, before the rename
        real_move(source, target)

    monkeypatch.setattr(trash, "move_into_new_folder", other_program_first)
    applied = door.apply(store, plan)

    assert [(s.path, s.reason) for s in applied.skipped] == [(paths[2], door.CHANGED)]
    assert (root / paths[2]).read_bytes() == newer
    assert paths[2] not in trash_digests(root)
    assert len(trash.entries(root)) == 3
    assert store.get(paths[2]) is not None and store.get(paths[2]).critical
    assert len(applied.inverse.operations) == 3


def test_a_skipped_step_takes_the_steps_that_depend_on_it_along(tmp_path: Path) -> None:
    promote = f"{ST}/2026-05-20_deploy_steps.md"
    status = f"{TASKS}/billing/status.md"
    files = {
        promote: "---\ndate: 2026-05-20\ntopics: [ops]\nreference_count: 6\n---\n\n# Deploy\n",
        status: "---\ndate: 2026-05-01\ntopics: [billing]\nstatus: completed\n---\n\n# Billing\n",
    }
    root = make_tree(tmp_path / "cerebrum", files)
    store = Store(root, lambda: TODAY)
    store.scan()
    proposals = [lifecycle.promote(store.tree, TODAY), lifecycle.complete(store.tree, TODAY)]
    plan = impact.combine(proposals, {"promote": [promote], "complete": [f"{TASKS}/billing"]})
    for rel in (promote, status):
        path = root / rel
        path.write_bytes(path.read_bytes() + b"\nWritten after the plan.\n")
    after = {rel: (root / rel).read_bytes() for rel in (promote, status)}

    applied = door.apply(store, plan)

    assert applied.ran == 0 and len(applied.skipped) == 4
    assert {s.reason for s in applied.skipped} == {door.CHANGED, door.AFTER_SKIPPED}
    assert {rel: (root / rel).read_bytes() for rel in (promote, status)} == after
    assert list((root / ".ai/long-term-memory/.ai").glob("2*.md")) == []
    assert not (root / ".ai/work-experience/.ai/billing").exists()


def test_an_edit_then_a_copy_of_the_same_file_in_one_batch_is_not_a_change(tmp_path) -> None:
    rel = f"{ST}/2026-01-02_often_used.md"
    text = "---\ndate: 2026-01-02\ntopics: [x]\nimportance: medium\nreference_count: 12\n---\n"
    root = make_tree(tmp_path / "cerebrum", {rel: text + "\n# Often used\n"})
    store = Store(root, lambda: TODAY)
    store.scan()
    proposals = [lifecycle.escalate(store.tree), lifecycle.promote(store.tree, TODAY)]
    plan = impact.combine(proposals, {"escalate": [rel], "promote": [rel]})
    applied = door.apply(store, plan)
    assert applied.skipped == ()
    copies = list((root / ".ai/long-term-memory/.ai").glob("2*.md"))
    assert len(copies) == 1 and b"critical: true" in copies[0].read_bytes()


def test_an_operation_without_the_field_decodes_to_no_check() -> None:
    op = plans.Operation("trash", f"{ST}/a.md", "old", seen="abc")
    assert plans.decode(plans.encode(op)) == op
    old = {k: v for k, v in plans.encode(op).items() if k != "seen"}
    assert plans.decode(old).seen is None


# --- recovery -----------------------------------------------------------------------------------


class Crash(BaseException):
    """Stands for the process dying in the middle of a batch."""


def killed_prune(store: Store, paths: list[str], monkeypatch, at: int) -> None:
    """Prune with paths[0] changed after the plan, the process dying as step `at` begins."""
    plan = lifecycle.prune(store.tree).plan()
    replace_atomically(store.root / paths[0], marked_critical((store.root / paths[0]).read_bytes()))
    real_step = door.run_step

    def dying(store_, writer, index, op, undo):
        if index == at:
            raise Crash
        return real_step(store_, writer, index, op, undo)

    monkeypatch.setattr(door, "run_step", dying)
    with pytest.raises(Crash):
        door.apply(store, plan)
    monkeypatch.setattr(door, "run_step", real_step)


@pytest.mark.parametrize("mode", [FINISH, ROLLBACK])
def test_a_killed_batch_with_a_skipped_step_finishes_and_rolls_back(four, monkeypatch, mode):
    store, paths = four
    root = store.root
    seen = {p: (root / p).read_bytes() for p in paths}
    killed_prune(store, paths, monkeypatch, at=2)
    changed = (root / paths[0]).read_bytes()
    waiting = journal.pending(root)
    assert waiting is not None and sorted(waiting.done) == [0, 1] and sorted(waiting.steps) == [1]
    assert journal.skipped_steps(root) == {0: door.CHANGED}

    done = recover(Store(root, lambda: TODAY), mode)

    assert journal.pending(root) is None
    assert (root / paths[0]).read_bytes() == changed, "the skipped file is never touched"
    if mode == FINISH:
        assert done.steps == 2
        assert trash_digests(root) == {p: digest_bytes(seen[p]) for p in paths[1:]}
    else:
        assert done.steps == 1
        assert trash.entries(root) == []
        assert {p: (root / p).read_bytes() for p in paths[1:]} == {p: seen[p] for p in paths[1:]}


def test_finishing_leaves_a_task_whose_status_changed_where_it_is(tmp_path, monkeypatch) -> None:
    status = f"{TASKS}/billing/status.md"
    text = "---\ndate: 2026-05-01\ntopics: [billing]\nstatus: completed\n---\n\n# Billing\n"
    root = make_tree(tmp_path / "cerebrum", {status: text})
    store = Store(root, lambda: TODAY)
    store.scan()
    plan = lifecycle.complete(store.tree, TODAY).plan()
    (root / status).write_bytes(text.encode() + b"\nA note written after the plan.\n")
    after = (root / status).read_bytes()
    real_skipped = journal.Writer.skipped

    def dying(writer, index, reason):
        if index == 1:  # the move, skipped after its status.md's edit was
            raise Crash
        real_skipped(writer, index, reason)

    monkeypatch.setattr(journal.Writer, "skipped", dying)
    with pytest.raises(Crash):
        door.apply(store, plan)
    monkeypatch.setattr(journal.Writer, "skipped", real_skipped)
    assert journal.skipped_steps(root) == {0: door.CHANGED}
    assert recover(Store(root, lambda: TODAY), FINISH).steps == 0
    assert (root / status).read_bytes() == after
    assert not (root / ".ai/work-experience/.ai/billing").exists()


# --- a second real process ----------------------------------------------------------------------

OTHER_PROGRAM = textwrap.dedent(
    """
    import json, os, sys, time
    root, listing, report = sys.argv[1:4]
    paths = json.load(open(listing))
    journal = os.path.join(root, ".ai", ".journal")
    deadline = time.monotonic() + 120
    while not os.path.isdir(journal) and time.monotonic() < deadline:
        time.sleep(0.001)
    changed, late = {}, 0
    for rel in paths:
        path = os.path.join(root, rel)
        try:
            raw = open(path, "rb").read()
        except FileNotFoundError:
            late += 1  # the batch took it first
            continue
        new = raw.replace(b"importance: low\\n", b"importance: low\\ncritical: true\\n", 1)
        tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".other")
        with open(tmp, "wb") as handle:
            handle.write(new)
        os.replace(tmp, path)
        changed[rel] = new.decode()
    json.dump({"changed": changed, "late": late}, open(report, "w"))
    """
)


@pytest.fixture
def memory_folder(tmp_path: Path) -> Iterator[Path]:
    """The race's tree lives in memory: the 3,000 steps' fsyncs (eight a step) cost nothing
    there, and the two processes see each other's renames and writes as on disk."""
    with in_memory_folder(tmp_path, "samantha-race-") as folder:
        yield folder


def test_prune_against_a_second_process_marking_candidates_critical(
    tmp_path: Path, memory_folder: Path
) -> None:
    count, every = 3000, 3
    paths = [f"{ST}/2020-01-{1 + n % 28:02d}_candidate_{n:05d}.md" for n in range(count)]
    root = make_tree(memory_folder / "cerebrum", {p: old_note(p) for p in paths})
    seen = {p: digest_bytes((root / p).read_bytes()) for p in paths}
    # The other program works from the end of the batch's order, so the two meet part way.
    targets = sorted(paths)[::every][::-1]
    listing = tmp_path / "targets.json"
    listing.write_text(json.dumps(targets))
    script = tmp_path / "other.py"
    script.write_text(OTHER_PROGRAM)
    report = tmp_path / "report.json"
    env = {**os.environ, "PYTHONPATH": str(WORKTREE)}
    started = time.monotonic()
    prune = subprocess.Popen(
        [sys.executable, "-m", "samantha_tui", "prune", "--yes", str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    other = subprocess.Popen([sys.executable, str(script), str(root), str(listing), str(report)])
    out, err = prune.communicate(timeout=600)
    assert other.wait(timeout=600) == 0
    assert prune.returncode == 0, err
    elapsed = time.monotonic() - started
    written = json.loads(report.read_text())
    changed = {rel: text.encode() for rel, text in written["changed"].items()}

    in_trash = trash_digests(root)
    # Nothing the plan did not see went to the trash: each item is its path's plan-time bytes.
    assert all(in_trash[rel] == seen[rel] for rel in in_trash)
    # Every file the other program changed is at its place with its new bytes.
    assert all((root / rel).read_bytes() == data for rel, data in changed.items())
    at_place = {p for p in paths if (root / p).exists()}
    assert at_place | set(in_trash) == set(paths)
    assert at_place <= set(changed)
    # The other program reads a file, then replaces it, without the tree's lock: a file the batch
    # trashed between the two comes back at its place. Both versions are kept: the trash holds the
    # bytes the plan saw, the place the other program's (both checked above).
    rewritten = at_place & set(in_trash)
    skipped = at_place - rewritten
    assert len(changed) > 0 and len(skipped) > 0, (len(changed), written["late"])
    skipped_lines = [line for line in out.splitlines() if line.startswith("skipped: ")]
    assert {line.split(" ")[1] for line in skipped_lines} == skipped
    assert f"skipped {len(skipped)} whose file changed" in out
    print(
        f"\nrace: {count} candidates, other process changed {len(changed)} "
        f"(found {written['late']} already trashed, rewrote {len(rewritten)} once trashed), "
        f"skipped {len(skipped)}, trashed {len(in_trash)}, {elapsed:.1f} s"
    )
    shutil.rmtree(root)

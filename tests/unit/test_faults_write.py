"""Faults while writing, in every write path of the core: each operation under each fault it can
meet leaves the tree byte-identical, no temporary file, a refusal a person can act on, records
that match the disk, and succeeds once the fault is gone. A plan that meets a fault part way is
rolled back whole.

The faults are injected (see faults.py): disk full from write or fsync, a read-only folder, a
permission denied, renames and links failing, an unlink failing half way through a move, and a
file made read-only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.writing import door
from samantha_tui.core.writing.atomic import StoreError, digest_bytes
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TASKS, TODAY, make_tree
from ..faults import (
    FAULTS,
    READ_ONLY_FILE,
    Faults,
    assert_plain,
    assert_records_match_disk,
    snapshot,
    temporary_files,
)
from ..pilot import ALPHA, BETA, memory
from ..store_spy import Change, on_change

WORK = ".ai/work-experience/.ai"
A, B = ALPHA, BETA
C = f"{ST}/2026-06-08_gamma_note.md"
PROJECT = f"{TASKS}/payments"
STATUS = f"{PROJECT}/status.md"
NEW = f"{ST}/2026-06-15_new_note.md"
IN_NEW_FOLDER = f"{LT}/caching/retry_budget.md"
INDEX = f"{ST}/index.json"
PENDING = f"{TASKS}/pending-updates/20260615_120000_payments.json"
WRITES = {"disk full on write", "disk full on fsync"}
NAMES = {"read-only folder", "permission denied", "rename fails"}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    root = make_tree(
        tmp_path / "cerebrum",
        {
            A: memory("Alpha rule", "importance: medium\n"),
            B: memory("Beta note"),
            C: memory("Gamma note"),
            STATUS: memory("Payments", "status: active\n"),
            f"{PROJECT}/notes.md": "# Notes\n\nKeep these.\n",
        },
    )
    built = Store(root, lambda: TODAY)
    built.scan()
    Curator(built).reindex()
    return built


@dataclass(frozen=True)
class Op:
    """One write path: how to run it, the file its refusal must name, the faults it can meet."""

    name: str
    run: Callable[[Store, dict[str, Any]], object]
    names: str
    faults: frozenset[str]
    done: Callable[[Store, dict[str, Any]], bool]
    setup: Callable[[Store, dict[str, Any]], None] = lambda store, ctx: None
    unlinks_in: str = ST
    """Where the moved file lives: an unlink failing there is the second half of a move."""
    file: str = ""
    """The file a read-only-file fault makes read-only."""


def _put_in_trash(store: Store, ctx: dict[str, Any]) -> None:
    ctx["id"] = store.trash(C).id


def _new_index(store: Store) -> bytes:
    return (store.root / INDEX).read_bytes().replace(b'"total_memories"', b'"total"')


OPS = [
    Op(
        "edit",
        lambda s, ctx: s.edit(A, {"critical": True}),
        A,
        frozenset(WRITES | NAMES | {READ_ONLY_FILE}),
        lambda s, ctx: b"critical: true\n" in (s.root / A).read_bytes() and s.get(A).critical,
        file=A,
    ),
    Op(
        "create",
        lambda s, ctx: s.create(NEW, {"date": TODAY, "topics": ["ci"]}, "# New note\n"),
        NEW,
        frozenset(WRITES | NAMES),
        lambda s, ctx: (s.root / NEW).is_file() and s.get(NEW) is not None,
    ),
    Op(
        "add_file in a new folder",
        lambda s, ctx: s.add_file(IN_NEW_FOLDER, memory("Retry budget").encode()),
        IN_NEW_FOLDER,
        frozenset(WRITES | NAMES),
        lambda s, ctx: s.get(IN_NEW_FOLDER) is not None,
    ),
    Op(
        "write_bytes",
        lambda s, ctx: s.write_bytes(
            A, memory("Alpha, rewritten").encode(), digest_bytes((s.root / A).read_bytes())
        ),
        A,
        frozenset(WRITES | NAMES | {READ_ONLY_FILE}),
        lambda s, ctx: s.get(A).title == "Alpha, rewritten",
        file=A,
    ),
    Op(
        "write_file index",
        lambda s, ctx: s.write_file(
            INDEX, _new_index(s), digest_bytes((s.root / INDEX).read_bytes())
        ),
        INDEX,
        frozenset(WRITES | NAMES | {READ_ONLY_FILE}),
        lambda s, ctx: b'"total"' in (s.root / INDEX).read_bytes(),
        file=INDEX,
    ),
    Op(
        "write_file new in a new folder",
        lambda s, ctx: s.write_file(
            PENDING, json.dumps({"project_name": "payments"}).encode(), None
        ),
        PENDING,
        frozenset(WRITES | NAMES),
        lambda s, ctx: (s.root / PENDING).is_file(),
    ),
    Op(
        "move",
        lambda s, ctx: s.move(B, f"{LT}/2026-06-09_beta_note.md"),
        B,
        frozenset(NAMES | {"unlink fails"}),
        lambda s, ctx: s.get(f"{LT}/2026-06-09_beta_note.md") is not None and s.get(B) is None,
    ),
    Op(
        "move folder",
        lambda s, ctx: s.move(PROJECT, f"{WORK}/payments"),
        PROJECT,
        frozenset(NAMES),
        lambda s, ctx: s.get(f"{WORK}/payments/status.md") is not None and s.get(STATUS) is None,
    ),
    Op(
        "trash",
        lambda s, ctx: s.trash(C),
        C,
        frozenset(WRITES | NAMES),  # one rename into its entry folder: there is no unlink
        lambda s, ctx: s.get(C) is None and [e.path for e in s.trash_entries()] == [C],
    ),
    Op(
        "trash folder",
        lambda s, ctx: s.trash(STATUS),
        PROJECT,
        frozenset(WRITES | NAMES),
        lambda s, ctx: not (s.root / PROJECT).exists() and len(s.trash_entries()) == 1,
    ),
    Op(
        "restore",
        lambda s, ctx: s.restore(ctx["id"]),
        C,
        frozenset(NAMES | {"unlink fails"}),
        lambda s, ctx: (s.root / C).read_text() == memory("Gamma note") and not s.trash_entries(),
        setup=_put_in_trash,
        unlinks_in=".ai/.trash",
    ),
]
CASES = [
    pytest.param(op, FAULTS[name], id=f"{op.name}-{name}")
    for op in OPS
    for name in FAULTS
    if name in op.faults
]


@pytest.mark.parametrize(("op", "fault"), CASES)
def test_a_fault_changes_nothing_and_a_retry_succeeds(
    store: Store, monkeypatch: pytest.MonkeyPatch, op: Op, fault
) -> None:
    ctx: dict[str, Any] = {}
    op.setup(store, ctx)
    before = snapshot(store.root)
    trash_before = store.trash_listing()
    faults = Faults(monkeypatch, store.root)
    scope = (op.unlinks_in,) if fault.name == "unlink fails" else ("",)
    faults.arm(fault, file=store.root / op.file if op.file else None, scope=scope)

    with pytest.raises(StoreError) as refused:
        op.run(store, ctx)

    assert faults.fired or fault.name == READ_ONLY_FILE, "the fault never happened: update OPS"
    assert_plain(str(refused.value), op.names, fault.advice)
    faults.clear()
    assert snapshot(store.root) == before
    assert temporary_files(store.root) == []
    assert store.trash_listing() == trash_before
    assert_records_match_disk(store)

    op.run(store, ctx)
    assert op.done(store, ctx)
    assert temporary_files(store.root) == []
    assert_records_match_disk(store)


def test_every_operation_meets_every_fault_it_can() -> None:
    """The matrix itself: each write path is tried under at least the faults of its kind."""
    assert len(CASES) == 54
    assert {op.name for op in OPS} >= {"edit", "create", "write_bytes", "move", "trash", "restore"}


PLAN = Plan(
    "tidy up",
    (
        Operation("edit", A, values={"critical": True}, touch_updated=False),
        Operation("edit", B, values={"importance": "high"}, touch_updated=False),
        Operation("trash", C),
    ),
)
# The plan's steps are two edits and a trashing: none of them unlinks anything.
AT_SECOND = [n for n in FAULTS if n != "unlink fails"]
AT_THIRD = [n for n in FAULTS if n not in (READ_ONLY_FILE, "unlink fails")]
PLAN_CASES = [pytest.param(2, FAULTS[n], id=f"2nd-{n}") for n in AT_SECOND] + [
    pytest.param(3, FAULTS[n], id=f"3rd-{n}") for n in AT_THIRD
]


@pytest.mark.parametrize(("position", "fault"), PLAN_CASES)
def test_a_plan_meeting_a_fault_part_way_is_rolled_back_whole(
    store: Store, monkeypatch: pytest.MonkeyPatch, position: int, fault
) -> None:
    before = snapshot(store.root)
    faults = Faults(monkeypatch, store.root)
    done: list[Change] = []

    def count(change: Change) -> None:
        # Armed once the operations before `position` are done; it hits that operation's files
        # (the memory folder, the trash) once, as a passing fault would, so the undo can run.
        done.append(change)
        if len(done) == position - 1:
            scope = (ST,) if fault.name == "unlink fails" else (ST, ".ai/.trash")
            faults.arm(fault, file=store.root / B, scope=scope, once=True)

    on_change(store, count)
    with pytest.raises(StoreError) as refused:
        door.apply(store, PLAN)

    assert faults.fired or fault.name == READ_ONLY_FILE
    named = B if position == 2 else C
    assert_plain(str(refused.value), named, fault.advice)
    assert str(refused.value).startswith("tidy up: ")
    faults.clear()
    assert snapshot(store.root) == before
    assert temporary_files(store.root) == []
    assert store.trash_entries() == []
    assert_records_match_disk(store)

    door.apply(store, PLAN)
    assert store.get(A).critical and store.get(B).importance == "high" and store.get(C) is None
    assert temporary_files(store.root) == []
    assert_records_match_disk(store)


@pytest.mark.parametrize("name", ["disk full on write", "read-only folder"])
def test_a_fault_that_stays_loses_nothing_and_the_batch_can_be_rolled_back_after(
    store: Store, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The fault persists after the first operation, so undoing it meets the fault too."""
    from samantha_tui.core.writing import journal, recovery

    before = snapshot(store.root)
    versions = {rel: {store.root.joinpath(rel).read_bytes()} for rel in (A, B, C)}
    faults = Faults(monkeypatch, store.root)
    armed: list[Change] = []

    def arm_after_the_first(change: Change) -> None:
        if not armed:
            armed.append(change)
            faults.arm(FAULTS[name])

    on_change(store, arm_after_the_first)

    with pytest.raises(StoreError) as refused:
        door.apply(store, PLAN)

    assert faults.fired
    assert "\n" not in str(refused.value) and "Errno" not in str(refused.value)
    faults.clear()
    assert temporary_files(store.root) == []
    versions[A].add(memory("Alpha rule", "importance: medium\ncritical: true\n").encode())
    for rel in (A, B, C):
        assert (store.root / rel).read_bytes() in versions[rel], f"{rel} is neither old nor new"
    if journal.pending(store.root) is not None:
        recovery.recover(store, "rollback")
    assert snapshot(store.root) == before


def test_short_writes_still_write_every_byte_and_a_stalled_write_is_a_full_disk(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write
    stall: list[bool] = []

    def one_byte_at_a_time(fd: int, data) -> int:
        if not os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            return real_write(fd, data)
        return 0 if stall else real_write(fd, bytes(data[:1]))

    monkeypatch.setattr(os, "write", one_byte_at_a_time)
    store.edit(A, {"critical": True}, touch_updated=False)
    assert (store.root / A).read_bytes() == memory(
        "Alpha rule", "importance: medium\ncritical: true\n"
    ).encode()
    stall.append(True)
    with pytest.raises(StoreError, match="the disk is full"):
        store.edit(B, {"critical": True})
    assert (store.root / B).read_text() == memory("Beta note")
    assert temporary_files(store.root) == []

"""Killed at any point: a forked child runs one operation with a hook that ends it (os._exit(137))
at the N-th call of a primitive that changes files, for N = 0, 1, 2, ... until the operation runs to
its end. After each kill: every file is a whole version the uninterrupted run gave it (old, new, or
between two steps of a batch), never a torn one; no content is gone (each file's bytes, in some
version, are still in the tree or its trash); and recovery, finishing on one copy and rolling back
on another, leaves exactly the after or the before tree (so `samantha-tui index --check` after
`samantha-tui index`, clean on those two trees, is clean on every recovered one).

A killed process leaves the page cache to the kernel: fsync changes nothing these tests can see, so
it is counted as a kill point but not carried out (on this disk it costs 4 ms a call).
"""

from __future__ import annotations

import builtins
import gc
import io
import os
import shutil
import subprocess
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics import plans
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import door, impact, journal, trash, tree_lock
from samantha_tui.core.writing.atomic import digest_bytes
from samantha_tui.core.writing.recovery import FINISH, ROLLBACK, recover
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TASKS, TODAY, make_tree
from ..pilot import reindexed
from ..processes import in_memory_folder

KILLED = 137
# Calls that change what is on disk. os.open counts when it creates or truncates; os.write and the
# write of a file object, when killed, first let half their bytes through (a torn write).
PLAIN = ("fsync", "chmod", "replace", "rename", "link", "unlink", "rmdir", "mkdir", "symlink")
CHANGING = os.O_CREAT | os.O_TRUNC

ESCALATE = f"{ST}/2026-06-01_cache_rule.md"
PROMOTE = f"{ST}/2026-05-20_deploy_steps.md"
BILLING = f"{TASKS}/billing"
SEARCH = f"{TASKS}/search"
PENDING = f"{TASKS}/pending-updates/20260614_101500_search.json"
WORK = ".ai/work-experience/.ai"
LONG = ".ai/long-term-memory/.ai"


def note(title: str, **fields: str) -> str:
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{lines}---\n\n# {title}\n\nWhat {title.lower()} says, in its own words.\n"


FILES = {
    ESCALATE: note("Cache rule", date="2026-06-01", topics="[cache]", importance="medium"),
    PROMOTE: note(
        "Deploy steps", date="2026-05-20", topics="[ci]", importance="medium", reference_count="6"
    ),
    f"{BILLING}/status.md": note(
        "Billing export", date="2026-05-01", topics="[b]", status="completed"
    ),
    f"{BILLING}/notes.md": "# Notes\n\nKeep these.\n",
    f"{SEARCH}/status.md": note("Search rewrite", date="2026-05-02", topics="[s]", status="active"),
    PENDING: '{"project_name": "search", "proposed_changes": {"status": "Phase 2 - API done"}}\n',
}
# Where a file's content lives once the operation is done (the ones that move or are copied).
RENAMES = {
    f"{BILLING}/status.md": f"{WORK}/billing/status.md",
    f"{BILLING}/notes.md": f"{WORK}/billing/notes.md",
    PROMOTE: f"{LONG}/{TODAY.isoformat()}_deploy_steps.md",
}


# --- the hook ---------------------------------------------------------------------------------


class _Handle:
    """A file object whose writes are primitives too."""

    def __init__(self, handle: Any, hit: Callable[[Callable[[], object] | None], None]) -> None:
        self._handle = handle
        self._hit = hit

    def write(self, data: bytes) -> int:
        self._hit(lambda: (self._handle.write(data[: len(data) // 2]), self._handle.flush()))
        return self._handle.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def __enter__(self) -> _Handle:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.__exit__(*exc)


@contextmanager
def hooked(
    hit: Callable[[Callable[[], object] | None], None], after: Callable[[], None] = lambda: None
) -> Iterator[None]:
    """Call hit(torn) before every primitive (torn: what a kill lets through first) and after()
    once it returned."""
    saved = {name: getattr(os, name) for name in (*PLAIN, "open", "write")}
    saved_open = builtins.open

    def plain(original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            hit(None)
            try:
                return original(*args, **kwargs)
            finally:
                after()

        return call

    def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & CHANGING:
            return plain(saved["open"])(path, flags, *args, **kwargs)
        return saved["open"](path, flags, *args, **kwargs)

    def os_write(fd: int, data: bytes) -> int:
        hit(lambda: saved["write"](fd, bytes(data[: len(data) // 2])))
        try:
            return saved["write"](fd, data)
        finally:
            after()

    def file_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if not set(mode) & set("wax+"):
            return saved_open(file, mode, *args, **kwargs)
        hit(None)
        return _Handle(saved_open(file, mode, *args, **kwargs), hit)

    for name in PLAIN:
        setattr(os, name, plain(saved[name]))
    os.open, os.write = os_open, os_write
    builtins.open = io.open = file_open
    try:
        yield
    finally:
        for name, original in saved.items():
            setattr(os, name, original)
        builtins.open = io.open = saved_open


def killer(at: int) -> Callable[[Callable[[], object] | None], None]:
    calls = 0

    def hit(torn: Callable[[], object] | None) -> None:
        nonlocal calls
        if calls == at:
            if torn is not None:
                torn()
            os._exit(KILLED)
        calls += 1

    return hit


# --- trees and what they hold -----------------------------------------------------------------


def files(root: Path) -> dict[str, bytes]:
    """Every file outside the trash and the journal, the atomic writer's leftovers and the lock
    file (it holds only who was writing) aside."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        rel_base = base.relative_to(root).as_posix()
        if rel_base in (trash.TRASH_DIR, journal.JOURNAL_DIR):
            dirnames.clear()
            continue
        for name in filenames:
            rel = f"{rel_base}/{name}"
            if not journal.TEMPORARY.match(name) and rel != tree_lock.LOCK_FILE:
                found[rel] = (base / name).read_bytes()
    return dict(sorted(found.items()))


def trashed(root: Path) -> Counter[tuple[str, str | None]]:
    """What the trash holds: (where it came from, its content digest) for each entry."""
    return Counter(
        (entry.path, journal.content_digest(entry.item(root))) for entry in trash.entries(root)
    )


def every_digest(root: Path) -> set[str]:
    """Digests of every whole file in the tree and its trash (not the journal's kept copies)."""
    return {
        digest_bytes(path.read_bytes())
        for path in root.rglob("*")
        if path.is_file()
        and not path.relative_to(root).as_posix().startswith(journal.JOURNAL_DIR)
        and not journal.TEMPORARY.match(path.name)
    }


@dataclass
class Scenario:
    name: str
    operation: Callable[[Store], Callable[[], object]]
    """Given the scanned store, prepares (writing nothing) and returns the operation to run."""
    setup: Callable[[Store], object] = lambda store: None
    before: dict[str, bytes] = field(default_factory=dict)
    after: dict[str, bytes] = field(default_factory=dict)
    versions: dict[str, set[bytes]] = field(default_factory=dict)
    """Every whole version of each file the uninterrupted run went through."""


def store_of(root: Path) -> Store:
    store = Store(root, lambda: TODAY)
    store.scan()
    return store


def pristine(tmp_path: Path, scenario: Scenario) -> Path:
    root = reindexed(make_tree(tmp_path / "pristine", FILES))
    scenario.setup(store_of(root))
    scenario.before = files(root)
    return root


def reference_run(tmp_path: Path, root: Path, scenario: Scenario) -> int:
    """Run the operation uninterrupted, seeing the tree after each primitive; count them."""
    work = tmp_path / "reference"
    shutil.copytree(root, work)
    run = scenario.operation(store_of(work))
    versions: dict[str, set[bytes]] = {rel: {data} for rel, data in scenario.before.items()}
    calls = 0

    def count(torn: object) -> None:
        nonlocal calls
        calls += 1

    def seen() -> None:
        for rel, data in files(work).items():
            versions.setdefault(rel, set()).add(data)

    with hooked(count, seen):
        run()
    scenario.after = files(work)
    scenario.versions = versions
    return calls


def run_killed(root: Path, scenario: Scenario, at: int, failure: Path) -> int:
    """Fork a child that runs the operation on root and is killed at primitive `at`; its status.

    The test process's objects are frozen out of the collector's sight first (as the gc module
    advises before a fork): a collection in the child would otherwise walk, and so copy, every
    page the parent holds."""
    gc.freeze()
    pid = os.fork()
    if pid != 0:
        gc.unfreeze()
    if pid == 0:
        try:
            run = scenario.operation(store_of(root))
            with hooked(killer(at)):
                run()
        except BaseException:
            failure.write_text(traceback.format_exc())
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def check_killed(root: Path, scenario: Scenario) -> None:
    """Every file a whole version; every file's content, in some version, still somewhere."""
    now = files(root)
    for rel, data in now.items():
        assert data in scenario.versions.get(rel, ()), f"{rel} is torn or foreign"
    digests = every_digest(root)
    for rel in scenario.before:
        wanted = scenario.versions[rel] | scenario.versions.get(RENAMES.get(rel, rel), set())
        assert {digest_bytes(v) for v in wanted} & digests, f"{rel} is lost"


def check_recovered(
    root: Path, scenario: Scenario, mode: str, was_pending: bool
) -> dict[str, bytes]:
    """The whole before or after tree, nothing left over; returns it."""
    state = files(root)
    if was_pending:
        expected = scenario.before if mode == ROLLBACK else scenario.after
        assert state == expected, f"{mode} did not give the whole {mode} state"
    else:
        assert state in (scenario.before, scenario.after)
    assert journal.pending(root) is None and not (root / journal.JOURNAL_DIR).exists()
    assert journal.temporary_files(root) == []
    listing = trash.listing(root)
    assert listing.damaged == () and listing.problem is None
    folder = root / trash.TRASH_DIR
    entries = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    assert entries == sorted(entry.id for entry in listing.entries), "an empty trash entry is left"
    return state


def copy_pristine(source: Path, target: Path) -> None:
    """shutil.copytree(source, target), done by cp -a where there is one: the same files, modes and
    times, in a few milliseconds instead of tens."""
    if CP is None:
        shutil.copytree(source, target)
        return
    subprocess.run([CP, "-a", "--", str(source), str(target)], check=True)


CP = shutil.which("cp")


def copy_tree(source: Path, target: Path) -> None:
    """Copy a tree keeping its hard links: a file killed half-way through a move has two names."""
    first: dict[tuple[int, int], str] = {}

    def copy(src: str, dst: str) -> str:
        status = os.lstat(src)
        key = (status.st_dev, status.st_ino)
        if key in first:
            os.link(first[key], dst)
        else:
            shutil.copy2(src, dst)
            first[key] = dst
        return dst

    shutil.copytree(source, target, symlinks=True, copy_function=copy)


def indexes_clean(root: Path) -> bool:
    """`samantha-tui index`, then `samantha-tui index --check` finds nothing, on a copy of root."""
    copy = root.with_name(f"{root.name}-indexed")
    shutil.copytree(root, copy)
    return main(["index", "--tree", str(copy)]) == 0 and (
        main(["index", "--check", "--tree", str(copy)]) == 0
    )


def kill_everywhere(tmp_path: Path, scenario: Scenario, journaled: bool) -> int:
    """Kill at every primitive in turn; returns the number of kill points tried."""
    root = pristine(tmp_path, scenario)
    before_trash = trashed(root)
    expected_calls = reference_run(tmp_path, root, scenario)
    after_trash = trashed(tmp_path / "reference")
    assert indexes_clean(root) and indexes_clean(tmp_path / "reference")
    failure = tmp_path / "child-failure.txt"
    pendings = 0
    at = 0
    while True:
        work = tmp_path / f"killed-{at}"
        copy_pristine(root, work)
        code = run_killed(work, scenario, at, failure)
        assert code in (0, KILLED), failure.read_text() if failure.exists() else code
        if code == 0:
            assert files(work) == scenario.after
            break
        check_killed(work, scenario)
        was_pending = journal.pending(work) is not None
        pendings += was_pending
        recoveries = [(ROLLBACK, work)]
        if was_pending:
            # Without a journal both ways only sweep up: one is enough.
            recoveries.append((FINISH, tmp_path / f"finished-{at}"))
            copy_tree(work, recoveries[1][1])
        for mode, copy in recoveries:
            recover(Store(copy, lambda: TODAY), mode)  # it reads the tree itself
            state = check_recovered(copy, scenario, mode, was_pending)
            wanted = after_trash if state == scenario.after else before_trash
            held = trashed(copy)
            # Rolling back may trash what the batch created; nothing trashed before goes missing.
            assert held == wanted if mode == FINISH or not was_pending else held >= wanted, (
                at,
                mode,
                held,
                wanted,
            )
            shutil.rmtree(copy)
        at += 1
    assert at == expected_calls, "the kill points differ from the uninterrupted run's primitives"
    assert (pendings > 0) == journaled
    print(f"{scenario.name}: {at} kill points, {pendings} left a journal")
    return at


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    """Where the trees of the kill points go: in memory (/dev/shm) when the system has it, else
    tmp_path. What a kill leaves does not depend on it; copying hundreds of trees is faster."""
    with in_memory_folder(tmp_path, "samantha-kills-") as folder:
        yield folder


# --- the operations ---------------------------------------------------------------------------


def edit_memory(store: Store) -> Callable[[], object]:
    return lambda: store.edit(ESCALATE, {"importance": "high"})


def complete_task(store: Store) -> Callable[[], object]:
    plan = lifecycle.complete(store.tree, TODAY, ["billing"]).plan()
    assert [op.action for op in plan.operations] == ["edit", "move"]
    return lambda: door.apply(store, plan)


def review_batch(store: Store) -> Callable[[], object]:
    """Every candidate of every rule, combined as the review screen combines them."""
    proposals = lifecycle.review(store.tree, TODAY)
    picked = {p.name: [c.path for c in p.candidates] for p in proposals if p.candidates}
    plan = impact.combine(proposals, picked)
    actions = Counter(op.action for op in plan.operations)
    assert actions == {"edit": 2, "trash": 2, "copy": 1, "move": 1, "project-fields": 1}
    return lambda: door.apply(store, plan)


def trash_escalate(store: Store) -> None:
    store.trash(ESCALATE)


def restore_memory(store: Store) -> Callable[[], object]:
    """As the trash screen restores: a one-operation plan."""
    entry = store.trash_entries()[0]
    operation = plans.Operation("restore", entry.path, "restored by you", target=entry.id)
    return lambda: door.apply(store, plans.Plan("restore", (operation,)))


@pytest.mark.parametrize(
    ("scenario", "journaled", "at_least"),
    [
        (Scenario("memory edit (Store.edit)", edit_memory), False, 6),
        (Scenario("task completed (edit + folder move)", complete_task), True, 40),
        (Scenario("review batch (7 operations + indexes)", review_batch), True, 150),
        (Scenario("trash restore", restore_memory, setup=trash_escalate), True, 30),
    ],
    ids=["edit", "move", "review-batch", "restore"],
)
def test_killed_at_every_point(
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    scenario: Scenario,
    journaled: bool,
    at_least: int,
) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    # Hundreds of trees are read once each: a record cache would only be written, never used.
    monkeypatch.setenv("SAMANTHA_TUI_CACHE", "off")
    assert kill_everywhere(scratch, scenario, journaled) >= at_least

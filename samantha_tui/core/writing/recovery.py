"""Finish or roll back a batch a crash interrupted, from its journal and what is on disk.

Operations the journal records as done are trusted; the one it was in the middle of is judged by
what is on disk: not started, half done (a file moved by link-then-unlink, found under both names)
or done. Rolling back goes newest first, so each operation is judged with
every later one already undone, and the journal forgets each step as it is undone: recovery killed
part way can itself be finished or rolled back.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from ..basics import plans
from ..basics.model import kind_of_path
from ..basics.progress import report as report_progress
from ..views.indexes import drift, kinds_affected
from ..views.indexes.scope import Scope
from . import door, index_retry, journal, trash
from .atomic import StoreError, digest_of
from .index_writes import regenerate
from .journal import Before, Done, Journal
from .store import Store
from .tree_lock import writes_tree

FINISH = "finish"
ROLLBACK = "rollback"
IN_PROGRESS = (
    "a change is in progress in another process ({holder}); it was not interrupted, so nothing "
    "was finished or rolled back; try again when it is done"
)


class State(Enum):
    NOT_DONE = "not done"
    HALF = "half done"
    DONE = "done"


@dataclass(frozen=True)
class Recovered:
    """What recovery did."""

    name: str | None
    """The interrupted batch; None when nothing was pending."""
    mode: str
    steps: int
    """Operations it ran, completed or undone."""
    removed: tuple[str, ...]
    """Leftovers it removed (temporary files, empty trash entries, a journal's remains)."""

    def describe(self) -> str:
        """One line for a person."""
        leftovers = f"; removed {len(self.removed)} leftover file(s)" if self.removed else ""
        if self.name is None:
            return f"nothing was interrupted{leftovers}"
        verb = "finished" if self.mode == FINISH else "rolled back"
        return f"{verb}: {self.name} ({self.steps} step(s) {verb}){leftovers}"


@writes_tree(busy=IN_PROGRESS)
def recover(store: Store, mode: str) -> Recovered:
    """Bring an interrupted batch to its whole after (FINISH) or whole before (ROLLBACK) state.

    Finishing regenerates the indexes of the kinds the batch touched; rolling back puts the index
    files' bytes back. Either way the atomic writer's stale temporary files and empty trash entries
    go. A step that cannot be judged raises, leaving the journal for another try. The store's
    records follow every change it makes. It holds the tree's lock from before it reads the
    journal: a batch still running in another process is never taken for an interrupted one.
    """
    if mode not in (FINISH, ROLLBACK):
        raise ValueError(f"recover: unknown mode {mode!r}")
    root = store.root
    found = journal.pending(root)
    removed = _remove_temporary(root)
    steps = 0
    if found is not None:
        try:
            ops = [plans.decode(data) for data in found.operations]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StoreError(
                f"the journal in {journal.JOURNAL_DIR} names operations that cannot be read; "
                "look at it, then remove that folder by hand"
            ) from None
        store.scan()
        writer = journal.Writer(root)
        try:
            if mode == FINISH:
                steps = _finish(store, found, ops, writer)
            else:
                steps = _rollback(store, found, ops, writer)
        except (StoreError, OSError) as error:
            verb = "finish" if mode == FINISH else "roll back"
            why = (error.strerror or error) if isinstance(error, OSError) else error
            raise StoreError(
                f"cannot {verb} {found.name}: {why}; "
                "fix that, then run `samantha-tui recover` again"
            ) from None
        writer.close()
    removed += trash.sweep(root)
    if journal.leftovers(root):
        journal.remove_leftovers(root)
        removed.append(journal.JOURNAL_DIR)
    return Recovered(found.name if found else None, mode, steps, tuple(removed))


def _remove_temporary(root: Path) -> list[str]:
    removed = journal.temporary_files(root)
    for rel in removed:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(root / rel)
    return removed


FINISHING = "Finishing the interrupted change: {count} steps"
ROLLING_BACK = "Rolling back the interrupted change: {count} steps"


# --- finishing --------------------------------------------------------------------------------


def _finish(
    store: Store, found: Journal, ops: list[plans.Operation], writer: journal.Writer
) -> int:
    count = 0
    left_out = journal.skipped_steps(store.root)
    progress = door.Progress()
    for index, planned in enumerate(ops):
        report_progress(index, len(ops), FINISHING)
        op, skipped = progress.next(planned)
        if index in left_out:
            progress.skipped.append(door.Skipped(op.path, left_out[index]))
            continue
        if index in found.done:
            progress.ran(op, found.done[index].after.get(op.path))
            continue
        if skipped is not None:
            writer.skipped(index, skipped.reason)
            progress.skipped.append(skipped)
            continue
        before = found.steps.get(index)
        state = judge(store, op, before, None) if before is not None else State.NOT_DONE
        if state is State.DONE:
            if _trashed_changed(store, op, before or ()):
                writer.skipped(index, door.CHANGED)
                progress.skipped.append(door.Skipped(op.path, door.CHANGED))
                continue
            writer.done(index, done := _done_now(store, op, before or ()))
            progress.ran(op, done.after.get(op.path))
            continue
        if state is State.HALF:
            writer.done(index, _complete_half(store, op, before or ()))
        elif (skipped := door.run_step(store, writer, index, op, [])) is not None:
            progress.skipped.append(skipped)  # as the batch would have
            continue
        else:
            progress.ran(op, journal.content_digest(store.root / op.path))
        count += 1
    report_progress(len(ops), len(ops), FINISHING)
    touched = [path for op in ops for path in plans.touched_by(op)]
    kinds = kinds_affected(touched)
    recorded = door.index_files(store, kinds) if found.indexes is None else list(found.indexes)
    if found.indexes is None:
        writer.indexes(recorded)
    # Only the batch's own entries: the rest of each index stays as it is. Meeting samantha-llm's
    # lock-free worker, patch again over what it wrote.
    scope = Scope(frozenset(touched))
    index_retry.patching_again(
        store, writer, recorded, lambda: regenerate(store, kinds, scope=scope, explain=False)
    )
    return count


def _trashed_changed(store: Store, op: plans.Operation, before: tuple[Before, ...]) -> bool:
    """A trashing cut short after its move, where what went into the trash is not what the plan
    saw: it is brought back while its place is free (the batch would have done so), and True."""
    if op.action != "trash" or op.seen is None:
        return False
    entry = next((e for e in trash.entries(store.root) if e.path == before[0].path), None)
    if entry is None or journal.content_digest(entry.item(store.root)) == before[0].digest:
        return False
    try:
        door.put_back_if_changed(store, op, entry)
    except door.Stale:
        return True
    return False


def _done_now(store: Store, op: plans.Operation, before: tuple[Before, ...]) -> Done:
    """The record of an operation found done on disk."""
    if op.action == "trash":
        return Done(trash_id=_trashed(store.root, op, before[0]).id)
    if op.action in ("restore", "move"):
        return Done()
    return Done({before[0].path: journal.content_digest(store.root / before[0].path)})


def _complete_half(store: Store, op: plans.Operation, before: tuple[Before, ...]) -> Done:
    """Finish a move found under both names: drop the name it was leaving."""
    root = store.root
    if op.action == "trash":
        entry = _twin_in_trash(root, before[0].path)
        _drop(root / before[0].path, entry.item(root))
        store.absorb([before[0].path])
        return Done(trash_id=entry.id)
    if op.action == "restore":
        _drop(trash.item_path(root, op.target or "", op.path), root / op.path)
        store.absorb([op.path])
        return Done()
    _drop(root / op.path, root / (op.target or ""))
    store.absorb([op.path, op.target or ""])
    return Done()


# --- rolling back -----------------------------------------------------------------------------


def _rollback(
    store: Store, found: Journal, ops: list[plans.Operation], writer: journal.Writer
) -> int:
    if found.indexes is not None:
        for item in found.indexes:
            _put_back(store, item)
        writer.indexes_undone()
    count = 0
    started = sorted(found.steps, reverse=True)
    for done, index in enumerate(started):
        report_progress(done, len(started), ROLLING_BACK)
        op, before = ops[index], found.steps[index]
        writer.undoing(index)
        state = judge(store, op, before, found.done.get(index))
        if state is State.DONE:
            _undo_done(store, op, before, found.done.get(index))
        elif state is State.HALF:
            _undo_half(store, op, before)
        writer.undone(index)
        count += state is not State.NOT_DONE
    report_progress(len(started), len(started), ROLLING_BACK)
    return count


def _put_back(store: Store, item: Before) -> None:
    """Give a file the bytes it had (an index the batch created goes to the trash)."""
    now = digest_of(store.root / item.path)
    if now == item.digest:
        return
    if item.digest is None:
        store.trash(item.path)
    elif item.kept is None:
        raise StoreError(f"the journal kept no copy of {item.path}")
    elif store.get(item.path) is not None:
        store.write_bytes(item.path, item.kept, now or "")
    else:
        store.write_file(item.path, item.kept, now)


def _undo_done(
    store: Store, op: plans.Operation, before: tuple[Before, ...], done: Done | None
) -> None:
    if op.action in ("edit", "write", "project-fields", "index"):
        _put_back(store, before[0])
    elif op.action in ("add", "copy"):
        store.trash(before[0].path)
    elif op.action == "trash":
        entry_id = done.trash_id if done is not None else None
        if entry_id is None or not trash.item_path(store.root, entry_id, before[0].path).exists():
            entry_id = _trashed(store.root, op, before[0]).id
        store.restore(entry_id)
    elif op.action == "restore":
        store.trash(op.path)
    else:
        store.move(op.target or "", op.path)


def _undo_half(store: Store, op: plans.Operation, before: tuple[Before, ...]) -> None:
    """Undo a move found under both names: drop the name it was going to."""
    root = store.root
    if op.action == "trash":
        entry = _twin_in_trash(root, before[0].path)
        _drop(entry.item(root), root / before[0].path)
    elif op.action == "restore":
        _drop(root / op.path, trash.item_path(root, op.target or "", op.path))
        store.absorb([op.path])
    else:
        _drop(root / (op.target or ""), root / op.path)
        store.absorb([op.target or ""])


# --- judging ----------------------------------------------------------------------------------


def judge(
    store: Store, op: plans.Operation, before: tuple[Before, ...], done: Done | None
) -> State:
    """Whether an operation happened, by what is on disk now compared with what it found before.

    `done` is its journal record when it completed: a file changed since then is not ours to undo.
    """
    root = store.root
    if op.action in ("edit", "write", "project-fields", "index", "add", "copy"):
        item = before[0]
        now = journal.content_digest(root / item.path)
        if now == item.digest:
            return State.NOT_DONE
        if now is None:
            raise StoreError(f"{item.path} is gone since {op.describe()}")
        if done is not None and done.after.get(item.path) not in (None, now):
            raise StoreError(f"{item.path} changed since {op.describe()}; it is left as it is")
        return State.DONE
    if op.action == "trash":
        path = before[0].path
        if not _exists(root / path):
            return State.DONE
        return State.HALF if _linked_entry(root, path) is not None else State.NOT_DONE
    if op.action == "restore":
        there, home = trash.item_path(root, op.target or "", op.path), root / op.path
        return _moved(there, home, f"{op.path} is neither in the trash nor back at its place")
    source, target = root / op.path, root / (op.target or "")
    return _moved(source, target, f"{op.path} is neither at {op.path} nor at {op.target}")


def _moved(source: Path, target: Path, lost: str) -> State:
    at_source, at_target = _exists(source), _exists(target)
    if at_source and at_target:
        # Something else at the target would make the move refuse: it did not happen.
        return State.HALF if _same(source, target) else State.NOT_DONE
    if at_source:
        return State.NOT_DONE
    if at_target:
        return State.DONE
    raise StoreError(lost)


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _same(first: Path, second: Path) -> bool:
    """One file under two names, or two files with the same bytes (a copy of the tree keeps no
    links): dropping either name loses nothing."""
    try:
        if not (first.is_file() and second.is_file()):
            return False
        return os.path.samefile(first, second) or digest_of(first) == digest_of(second)
    except OSError:
        return False


def _linked_entry(root: Path, rel: str) -> trash.TrashEntry | None:
    """The trash entry holding the very file still at rel (a trashing cut short), if any."""
    for entry in trash.entries(root):
        if entry.path == rel and _same(entry.item(root), root / rel):
            return entry
    return None


def _twin_in_trash(root: Path, rel: str) -> trash.TrashEntry:
    entry = _linked_entry(root, rel)
    if entry is None:
        raise StoreError(f"the trash holds no second name of {rel}")
    return entry


def _trashed(root: Path, op: plans.Operation, item: Before) -> trash.TrashEntry:
    """The newest trash entry holding what the trashing took from item.path."""
    for entry in trash.entries(root):
        if entry.path == item.path and journal.content_digest(entry.item(root)) == item.digest:
            return entry
    raise StoreError(f"cannot find what {op.describe()} put in the trash")


def _drop(name: Path, twin: Path) -> None:
    """Remove one of two names of the same bytes; refuses when they differ."""
    if not _same(name, twin):
        raise StoreError(f"{name} and {twin} hold different bytes; nothing was removed")
    os.unlink(name)
    with contextlib.suppress(OSError):
        fd = os.open(name.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- what recovery would touch ----------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """The files finishing and rolling back would change, one line per operation, in order."""

    finish: tuple[str, ...]
    rollback: tuple[str, ...]


def preview(store: Store, found: Journal) -> Preview:
    """What `recover` would do to which root-relative files, judged from disk; writes nothing.

    Each step is judged as recovery judges it (one that never ran is left out of a rollback,
    one found done out of finishing); a step that cannot be judged says so.
    """
    try:
        ops = [plans.decode(data) for data in found.operations]
    except (KeyError, TypeError, ValueError, AttributeError):
        unreadable = ("nothing: the journal names operations that cannot be read",)
        return Preview(unreadable, unreadable)
    finish, rollback = _finish_lines(store, found, ops), _rollback_lines(store, found, ops)
    return Preview(tuple(finish), tuple(rollback))


def _finish_lines(store: Store, found: Journal, ops: list[plans.Operation]) -> list[str]:
    lines: list[str] = []
    for index, op in enumerate(ops):
        if index in found.done:
            continue
        before = found.steps.get(index)
        try:
            state = judge(store, op, before, None) if before is not None else State.NOT_DONE
        except (StoreError, OSError) as error:
            lines.append(f"stop: cannot tell whether it did {op.describe()} ({error})")
            continue
        if state is State.HALF:
            lines.append(f"finish: {_forward(op, before)} (found half done)")
        elif state is State.NOT_DONE:
            lines.append(_forward(op, before))
    touched = [path for op in ops for path in plans.touched_by(op)]
    files = [item.path for item in door.index_files(store, kinds_affected(touched))]
    lines += [f"write {path} (the entries of the changed files)" for path in files]
    return lines


def _forward(op: plans.Operation, before: tuple[Before, ...] | None) -> str:
    """An operation not yet done, said by the files it changes."""
    if op.action == "trash":
        # A project's status.md takes its folder along (the store's rule), known once started.
        return f"move {before[0].path if before else _trash_target(op.path)} to the trash"
    if op.action == "restore":
        return f"restore {op.path} from trash entry {op.target}"
    if op.action == "copy":
        return f"create {op.target} (a copy of {op.path})"
    if op.action == "project-fields":
        return f"write {op.path} (project {op.target})"
    if op.action in ("edit", "write"):
        return f"rewrite {op.path}"
    return op.describe()


def _trash_target(rel: str) -> str:
    kind = kind_of_path(rel)
    project = kind is not None and kind.is_project_kind
    if project and rel.endswith("/status.md") and rel.count("/") > 3:
        return rel.rsplit("/", 1)[0]
    return rel


def _rollback_lines(store: Store, found: Journal, ops: list[plans.Operation]) -> list[str]:
    lines = [
        f"put back {item.path}"
        if item.digest is not None
        else f"move {item.path} to the trash (the change created it)"
        for item in found.indexes or ()
        if digest_of(store.root / item.path) != item.digest
    ]
    for index in sorted(found.steps, reverse=True):
        op, before = ops[index], found.steps[index]
        try:
            state = judge(store, op, before, found.done.get(index))
        except (StoreError, OSError) as error:
            lines.append(f"stop: cannot tell whether it did {op.describe()} ({error})")
            continue
        if state is not State.NOT_DONE:
            half = " (found half done)" if state is State.HALF else ""
            lines.append(_backward(op, before) + half)
    return lines


def _backward(op: plans.Operation, before: tuple[Before, ...]) -> str:
    """Undoing an operation that ran, said by the files it changes."""
    item = before[0]
    if op.action in ("edit", "write", "project-fields", "index"):
        if item.digest is None:
            return f"move {item.path} to the trash (the change created it)"
        return f"put back the previous content of {item.path}"
    if op.action in ("add", "copy"):
        return f"move {item.path} to the trash"
    if op.action == "trash":
        return f"restore {item.path} from the trash"
    if op.action == "restore":
        return f"move {op.path} back to the trash"
    return f"move {op.target} back to {op.path}"


# --- index drift a kill can leave ---------------------------------------------------------------


def index_drift(store: Store) -> tuple[str, ...]:
    """The index files that differ from the memory files, as one line each; none when in step.

    A change made without its index writes (`set --no-index`, a file saved in an editor, another
    program) leaves drift that no journal records: this is how `recover` still finds it. Reads
    the whole tree.
    """
    store.scan()
    report = drift(store.tree, store.root, store.today())
    return tuple(
        f"{kind.path} ({kind.kind.label}) drifted from the memory files"
        for kind in report.kinds
        if kind.drifted
    )

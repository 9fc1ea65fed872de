"""The one door: a plan (plans.py) applied to the tree as one unit.

If any operation fails, the ones already
done are undone in reverse order, so a plan lands whole or not at all. Applying returns the inverse
plan: applying that is "undo". A batch is journaled (see journal.py) so that a crash part way leaves
it to be finished or rolled back from what is on disk (see recovery.py).

`apply` is the one door every change goes through, from the headless commands and from the app
(whose Curator adds the undo history and the search index): it takes the tree's lock, journals,
runs the steps, patches the indexes inside the same journal and reports what changed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..basics import progress
from ..basics.json_read import NotRegular, read_regular
from ..basics.model import Kind, Memory, kind_of_path
from ..basics.plans import UNDO, Operation, Plan, encode, touched_by
from ..reading import frontmatter
from ..reading.reader import MAX_FILE_BYTES, memory_from_bytes
from ..views.indexes import kinds_affected
from ..views.indexes.plan import INDEX_JSON, INDEX_MD
from ..views.indexes.scope import Scope
from . import index_retry, journal, preflight, trash
from .atomic import ConflictError, StoreError, digest_bytes, failure
from .index_writes import regenerate
from .project_index import set_project_fields
from .store import Store
from .tree_lock import writes_tree

if TYPE_CHECKING:
    from ..views.indexes import IndexUpdate

# Operations that are one atomic file write: alone in a plan, a crash leaves them old or new.
_ONE_WRITE = ("edit", "write", "add", "copy", "project-fields", "index")


@dataclass(frozen=True)
class Skipped:
    """A step left out because its file is no longer what the plan saw."""

    path: str
    reason: str

    def describe(self) -> str:
        """`<path> <reason>`, one line for a person."""
        return f"{self.path} {self.reason}"

    @property
    def by_change(self) -> bool:
        """Skipped because its file changed (or went) since the plan, not by its rule."""
        return self.reason.startswith((CHANGED, GONE, AFTER_SKIPPED))


class Stale(Exception):
    """A step's file changed (or went) since the plan was made: the step is skipped."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path} {reason}")
        self.skipped = Skipped(path, reason)


CHANGED = "changed since the plan was made"
GONE = "is gone since the plan was made"
AFTER_SKIPPED = "was left alone: an earlier step on it was skipped"


def skipped_why(skipped: Sequence[Skipped]) -> str:
    """What the skipped steps have in common, after `skipped N`: that their files changed, or
    (when a rule refused any) that their files no longer allow it."""
    if all(step.by_change for step in skipped):
        return "whose file changed since the plan was made"
    if not any(step.by_change for step in skipped):
        return "whose file no longer allows it (each said above)"
    return "whose file changed since the plan was made or no longer allows it (each said above)"


@dataclass(frozen=True)
class Applied:
    """What applying a plan did; `inverse` undoes it (only the steps that ran)."""

    plan: Plan
    inverse: Plan
    touched: tuple[str, ...]
    indexes: tuple[str, ...] = ()
    """Index files rewritten afterwards (when applied with reindex)."""
    skipped: tuple[Skipped, ...] = ()
    """Steps not applied because their file changed since the plan was made."""
    updates: tuple[IndexUpdate, ...] = ()
    """The index files rewritten, with their bytes before and after (what an undo puts back)."""
    index_error: str | None = None
    """Why the indexes were not brought in step, when the caller asked to be told rather than
    refused (the steps themselves all landed)."""
    finished_first: str | None = None
    """An interrupted change this one finished before it began (see leftover.py), in words."""
    steps_ran: tuple[int, ...] = ()
    """The numbers of the plan's operations that ran (the others were skipped)."""

    @property
    def ran(self) -> int:
        """How many operations were applied."""
        return len(self.inverse.operations)


IndexStep = Callable[[Store, tuple[str, ...], dict[str, Memory]], Sequence["IndexUpdate"]]
"""How a change's indexes are brought in step once its steps ran: (store, the paths the steps
touched, their records before the change) -> the index files written. Run inside the change's
journal, after the index files' bytes are recorded, so a crash while it writes is recovered."""


@writes_tree
def apply(
    store: Store,
    plan: Plan,
    reindex: bool = True,
    *,
    indexes: IndexStep | None = None,
    also_journal: Iterable[Kind] = (),
    report_index_error: bool = False,
    finish_first: Callable[[Store], str | None] | None = None,
) -> Applied:
    """Apply every operation or none (on a failure, undo what was done and raise), then patch
    the indexes of the kinds it touched: the one door every change goes through.

    Refused while an interrupted batch waits to be finished or rolled back. A batch (anything
    more than one atomic write, a change and its index files included) is journaled from before
    its first operation until its indexes are written. The tree's lock is held throughout, so no
    other writer comes between.

    `indexes` is how the indexes are patched (default: the touched paths' entries); the index
    files of `also_journal`'s kinds are journaled too (a step that puts some back). A failure
    to patch them raises, leaving the journal for `recover`, unless `report_index_error`: then
    the journal is closed and the reason is in the result (drift shows what lags behind).

    `finish_first` (the callers' `leftover.finish_if_only_indexes`) finishes a journal left with
    only its index files to write, under this lock, before this change; the door cannot call it
    itself, as finishing is recovery's work and recovery runs steps through this module.
    """
    # A journal left with only its index files to write is finished now; any other refuses.
    finished_first = finish_first(store) if finish_first is not None else None
    journal.refuse_if_pending(store.root)
    # Before the journal's folder is made: making it must never bring back a vanished tree.
    store.check_root()
    also = frozenset(also_journal)
    journaled = _journaled(plan, reindex, also)
    if journaled:
        # What would stop it part way and could be seen now refuses it before its first step.
        preflight.check(store.root, plan, preflight.index_kinds_of(plan, also) if reindex else ())
    previous = records_under(store, plan) if reindex else {}
    writer = _begin(store, plan) if journaled else None
    undo: list[Operation] = []
    ran: list[int] = []
    touched: list[str] = []
    skipped: list[Skipped] = []
    try:
        _run_all(store, plan, writer, undo, ran, touched, skipped)
    except Exception as error:
        # Anything at all (a bug too, not only a refusal or a file system error): what ran is
        # undone, so the tree is as it was.
        try:
            _undo(store, undo, ran, writer)
        except (StoreError, OSError) as undo_error:
            raise StoreError(
                f"{plan.name}: {_said(error)}; undoing the steps already taken failed too "
                f"({_said(undo_error)}); once that is fixed, `samantha-tui recover --rollback` "
                "puts every file back"
            ) from None
        if isinstance(error, ConflictError) or not isinstance(error, (StoreError, OSError)):
            # A conflict: the caller offers reload / keep mine / cancel, so it must know which
            # file it was. A bug: its traceback is what will get it fixed.
            raise
        raise StoreError(f"{plan.name}: {_said(error)}; nothing was changed") from None
    updates: Sequence[IndexUpdate] = ()
    index_error = None
    try:
        if reindex and (touched or also):
            updates = _reindex(store, writer, touched, previous, indexes, also)
    except (StoreError, OSError) as error:
        if not report_index_error or not isinstance(error, StoreError):
            # Every step ran but the indexes lag behind: the journal stays, so that finishing
            # it (`recover`, or the app's start) writes them from what it recorded.
            raise _indexes_not_written(plan, writer, error) from None
        index_error = str(error)
    if writer is not None:
        writer.close()
    inverse = Plan(f"undo {plan.name}", tuple(reversed(undo)), rule=UNDO)
    paths = tuple(update.path for update in updates)
    return Applied(
        plan,
        inverse,
        tuple(touched),
        paths,
        tuple(skipped),
        tuple(updates),
        index_error,
        finished_first,
        tuple(ran),
    )


def _run_all(
    store: Store,
    plan: Plan,
    writer: journal.Writer | None,
    undo: list[Operation],
    ran: list[int],
    touched: list[str],
    skipped: list[Skipped],
) -> None:
    """Run the plan's operations in order, skipping those whose file changed since the plan.

    `undo` gets each undo as soon as its step ran and `ran` that step's number, even when a
    failure follows at once; a failure raises with both up to date.
    """
    steps = Progress(skipped)
    total, phrase = len(plan.operations), step_phrase(plan)
    for index, planned in enumerate(plan.operations):
        progress.report(index, total, phrase)
        op, left = steps.next(planned)
        try:
            if left is not None:
                if writer is not None:
                    writer.skipped(index, left.reason)
            elif writer is None:
                try:
                    undo.append(run_operation(store, op))
                except Stale as stale:
                    left = stale.skipped
            else:
                left = run_step(store, writer, index, op, undo)
        finally:
            if len(undo) > len(ran):
                ran.append(index)
        if left is not None:
            skipped.append(left)
            continue
        steps.ran(op, undo[-1].expected if op.action == "edit" else None)
        touched.extend(touched_by(op))
    progress.report(total, total, phrase)


UNDOING = "Undoing {count} steps already taken"

# What a plan's steps do, for the progress of its run (see progress.words).
_STEP_PHRASES = {
    "trash": "Moving {count} to the trash",
    "restore": "Restoring {count} from the trash",
    "add": "Creating {count} files",
    "copy": "Copying {count} memories",
    "edit": "Editing {count} memories",
    "write": "Putting back {count} files",
    "move": "Moving {count} files and folders",
    "index": "Writing {count} index files",
    "project-fields": "Updating {count} project entries",
}


def step_phrase(plan: Plan) -> str:
    """The progress phrase of a plan's run: what its steps do when they all do one thing."""
    actions = {op.action for op in plan.operations}
    if len(actions) == 1:
        return _STEP_PHRASES.get(next(iter(actions)), "Applying {count} steps")
    return "Applying {count} steps"


class Progress:
    """What the steps run so far mean for the next ones of the same plan."""

    def __init__(self, skipped: list[Skipped] | None = None) -> None:
        self.skipped = skipped if skipped is not None else []
        """Steps left out so far (shared with the caller's list)."""
        self._written: dict[str, str | None] = {}

    def next(self, op: Operation) -> tuple[Operation, Skipped | None]:
        """The operation as it must run now, or why it is skipped without a look at its file.

        A step on a file an earlier step of the plan edited expects what that edit wrote (a
        memory escalated, then promoted, is copied with the importance the plan gave it). A step
        on a file or folder an earlier skipped step concerned is skipped too: a task whose
        status.md changed is not moved to work experience, a promotion whose copy was skipped
        does not trash the original.
        """
        if op.seen is not None and op.path in self._written:
            op = dataclasses.replace(op, seen=self._written[op.path])
        for earlier in self.skipped:
            if _related(earlier.path, op.path) or (op.target and _related(earlier.path, op.target)):
                return op, Skipped(op.path, AFTER_SKIPPED)
        return op, None

    def ran(self, op: Operation, written: str | None) -> None:
        """Operation `op` ran; `written` is the digest it left in its file (an edit's)."""
        if op.seen is not None and op.action == "edit" and written is not None:
            self._written[op.path] = written


def _related(first: str, second: str) -> bool:
    return first == second or first.startswith(second + "/") or second.startswith(first + "/")


def stale_reason(store: Store, op: Operation) -> str | None:
    """Why the file of a step no longer holds what the plan saw, or None when it does (or the
    step carries no such check); for a step that carries its rule, also why the rule does not
    hold for what the file says (see views/rechecks.py)."""
    if op.seen is None:
        return None
    now = journal.content_digest(store.root / op.path)
    if now is None:
        return GONE
    if now != op.seen:
        return CHANGED
    return broken_rule(store, op) if op.recheck else None


def broken_rule(store: Store, op: Operation) -> str | None:
    """Why the rule that chose `op` does not hold for its file's bytes as they are now; None
    when it holds. The record the plan was made from may be the catalog's, and the catalog is
    only a cache: the file is read again and the rule judged on what it says."""
    from ..views import rechecks

    now = read_now(store, op.path)
    if now is None or now.digest != op.seen:
        # Read as another file than the plan saw (a link, or a write since the digest above).
        return CHANGED
    return rechecks.broken(op, now, lambda rel: read_now(store, rel))


def read_now(store: Store, rel: str) -> Memory | None:
    """The record of a memory file as its bytes are now; None when it is gone, is not a
    regular file, or is not in a memory folder."""
    kind = kind_of_path(rel)
    if kind is None:
        return None
    try:
        raw = read_regular(store.safe_path(rel), MAX_FILE_BYTES + 1)
    except (OSError, StoreError, NotRegular):
        return None
    if len(raw) > MAX_FILE_BYTES:
        return None  # the reader does not load its text either
    return memory_from_bytes(rel, kind, raw, store.today())


def _indexes_not_written(
    plan: Plan, writer: journal.Writer | None, error: StoreError | OSError
) -> StoreError:
    """The true outcome of a failure at the index step: the change is made, its indexes are
    not, and (journaled) the journal waits to write them."""
    if isinstance(error, OSError):
        error = failure("write", error.filename or "an index file", error, "it is unchanged")
    if writer is None:
        advice = "run `samantha-tui index` to write them"
    else:
        advice = "run `samantha-tui recover --finish` (or restart samantha-tui) to write them"
    return StoreError(
        f"{plan.name}: every step was applied, but the index files were not written "
        f"({error}); {advice}"
    )


def _said(error: BaseException) -> str:
    """An error in words: the store's own message, what an OSError means for a person, or a
    bug's name and message."""
    if isinstance(error, StoreError):
        return str(error)
    if isinstance(error, OSError):
        return str(failure("change", error.filename or "a file", error, "it stopped there"))
    return f"{type(error).__name__}: {error}"


def _journaled(plan: Plan, reindex: bool, also: frozenset[Kind] = frozenset()) -> bool:
    ops = plan.operations
    if not ops:
        return False
    if len(ops) > 1 or ops[0].action not in _ONE_WRITE:
        return True
    # One write and its index files are more than one file: a crash between them is journaled.
    return reindex and bool(also or kinds_affected(touched_by(ops[0])))


def _begin(store: Store, plan: Plan) -> journal.Writer:
    started = dt.datetime.now().isoformat(timespec="seconds")
    operations = [encode(op) for op in plan.operations]
    try:
        return journal.begin(store.root, plan.name, operations, started)
    except OSError as error:
        raise failure("record", plan.name, error, "nothing was changed") from None
    except StoreError as error:
        # The person asked for the change, not for its journal: name the change.
        raise StoreError(f"{plan.name}: {error}") from None


def _undo(
    store: Store, undo: list[Operation], ran: list[int], writer: journal.Writer | None
) -> None:
    """Undo the operations done so far, newest first, keeping the journal true at every moment.

    `ran` holds the plan's number of each undo's step (skipped steps have none)."""
    pairs = list(zip(undo, ran, strict=True))
    for count, (undo_op, index) in enumerate(reversed(pairs)):
        progress.report(count, len(pairs), UNDOING)
        if writer is not None:
            writer.undoing(index)
        run_operation(store, undo_op)
        if writer is not None:
            writer.undone(index)
    progress.report(len(pairs), len(pairs), UNDOING)
    if writer is not None:
        writer.close()


def run_step(
    store: Store, writer: journal.Writer, index: int, op: Operation, undo: list[Operation]
) -> Skipped | None:
    """Run operation `index` of a journaled batch: recorded before it runs and once it is done.

    Its undo joins `undo` as soon as it ran, so a failure to record it still undoes it. A step
    whose file is no longer what the plan saw is skipped, recorded so, and returned.
    """
    why = stale_reason(store, op)
    if why is not None:
        # No step record: recovery has nothing of it to judge, finish or undo.
        writer.skipped(index, why)
        return Skipped(op.path, why)
    writer.step(index, _before(store, op))
    try:
        undo.append(run_operation(store, op))
    except Stale as stale:
        # Nothing of it is left done: forget the step, then say it was skipped.
        writer.undone(index)
        writer.skipped(index, stale.skipped.reason)
        return stale.skipped
    after: dict[str, str | None] = {}
    if op.action in ("edit", "write", "project-fields", "index"):
        after[op.path] = journal.content_digest(store.root / op.path)
    elif op.action in ("add", "copy"):
        created = op.path if op.action == "add" else op.target or ""
        after[created] = journal.content_digest(store.root / created)
    trash_id = undo[-1].target if op.action == "trash" else None
    writer.done(index, journal.Done(after, trash_id))
    return None


def records_under(store: Store, plan: Plan) -> dict[str, Memory]:
    """The records at or under the paths a plan names, as they are before it runs."""
    wanted = {path for op in plan.operations for path in (op.path, op.target) if path}
    # Each found by bisection: a toggle at 100,000 memories does not walk them all.
    return {m.path: m for path in sorted(wanted) for m in store.records_at(path)}


def _reindex(
    store: Store,
    writer: journal.Writer | None,
    touched: list[str],
    previous: dict[str, Memory],
    step: IndexStep | None = None,
    also: frozenset[Kind] = frozenset(),
) -> Sequence[IndexUpdate]:
    """The index files' old bytes journaled, then the indexes patched by `step` (default: the
    touched paths' entries in the indexes they feed); returns the index files rewritten."""
    kinds = kinds_affected(touched) | also
    recorded = index_files(store, kinds) if writer is not None and kinds else []
    if writer is not None and kinds:
        writer.indexes(recorded)

    def patch() -> Sequence[IndexUpdate]:
        if step is not None:
            return step(store, tuple(touched), previous)
        scope = Scope(frozenset(touched), previous)
        return regenerate(store, kinds, scope=scope, explain=False)

    # samantha-llm's worker writes index.json without the lock: meeting it, patch again.
    return index_retry.patching_again(store, writer, recorded, patch)


def index_files(store: Store, kinds: set[Kind]) -> list[journal.Before]:
    """The index files of these kinds as they are now, bytes kept."""
    return [
        journal.file_before(store.root, f"{kind.folder}/{name}")
        for kind in Kind
        if kind in kinds
        for name in (INDEX_JSON, INDEX_MD)
    ]


def _trash_target(store: Store, rel: str) -> str:
    """What trashing rel moves: a project's status.md takes its whole folder (as Store.trash)."""
    memory = store.get(rel)
    if memory is not None and memory.kind.is_project_kind and rel.endswith("/status.md"):
        return rel.rsplit("/", 1)[0]
    return rel


def _before(store: Store, op: Operation) -> list[journal.Before]:
    """What an operation is about to change, as it is now."""
    root = store.root
    if op.action in ("edit", "write", "project-fields", "index"):
        return [journal.file_before(root, op.path)]
    if op.action == "add":
        return [journal.Before(op.path, None)]
    if op.action == "copy":
        return [journal.Before(op.target or "", None)]
    if op.action == "trash":
        target = _trash_target(store, op.path)
        return [journal.Before(target, journal.content_digest(root / target))]
    if op.action == "restore":
        return [journal.Before(op.path, None)]
    if op.action == "move":
        return [
            journal.Before(op.path, journal.content_digest(root / op.path)),
            journal.Before(op.target or "", None),
        ]
    raise StoreError(f"unknown operation {op.action!r}")


def put_back_if_changed(store: Store, op: Operation, entry: trash.TrashEntry) -> None:
    """After trashing: if what went into the trash is not what the plan saw (another program
    wrote the file between the check and the move), bring it back while its place is free, and
    raise Stale; the trash never keeps a version the plan did not see as the plan's doing."""
    item = entry.item(store.root)
    if entry.path != op.path:
        # A project's folder went; the plan saw its status.md.
        item = item / op.path.removeprefix(entry.path + "/")
    if journal.content_digest(item) == op.seen:
        return
    place = store.root / entry.path
    if place.exists() or place.is_symlink():
        raise Stale(
            op.path,
            f"{CHANGED} as it went to the trash; a new file took its place, so that version "
            f"stays in the trash as entry {entry.id}",
        )
    store.restore(entry.id)
    raise Stale(op.path, CHANGED)


def set_aside_if_made(store: Store, entry: trash.TrashEntry, made: str | None) -> None:
    """Mark a trash entry set aside by an undo when its item holds exactly the bytes the undone
    change made (`made`, a digest): a copy or an index file no one wrote but that change. Read
    in the trash, where no other program writes: a file someone changed since is an ordinary
    entry. The mark only changes how the trash shows it; a failure to write it leaves an
    ordinary entry and never fails the undo."""
    if made is None or entry.is_folder:
        return
    if journal.content_digest(entry.item(store.root)) != made:
        return
    with contextlib.suppress(OSError, ValueError, RecursionError, StoreError):
        trash.mark_set_aside(store.root, entry)


def with_trash_ids_now(store: Store, plan: Plan) -> Plan:
    """The plan with each restore pointed at the trash entry that holds its bytes now.

    An undo is planned when its change is made; by the time it runs, the memory may have been
    restored from the trash and trashed again (the trash screen's restore, then its undo), so it
    sits under a newer entry id with the same bytes. A restore whose entry is gone follows those
    bytes; when no entry holds them it is left as it is and refuses with the usual message.
    """
    if not any(op.action == "restore" and op.expected for op in plan.operations):
        return plan
    return TrashView(store.root).follow(plan)


class TrashView:
    """The trash as it is now, read once, for following many plans' restores into it (the
    digests of its items are read only when a restore asks, and once each)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self.entries = trash.entries(root)
        """Newest first."""
        self._ids = {entry.id for entry in self.entries}
        self._digests: dict[str, str | None] = {}

    def follow(self, plan: Plan) -> Plan:
        """`plan` with each restore whose entry is gone pointed at an entry holding its bytes
        (see `with_trash_ids_now`)."""
        moved: dict[int, str] = {}
        for index, op in enumerate(plan.operations):
            if op.action != "restore" or not op.expected or op.target in self._ids:
                continue
            for entry in self.entries:  # newest first
                if entry.path == op.path and self._digest(entry) == op.expected:
                    moved[index] = entry.id
                    break
        if not moved:
            return plan
        operations = tuple(
            dataclasses.replace(op, target=moved[index]) if index in moved else op
            for index, op in enumerate(plan.operations)
        )
        return dataclasses.replace(plan, operations=operations)

    def needed(self, plan: Plan) -> frozenset[str]:
        """The ids of the entries the restores of `plan` take from the trash (once followed)."""
        followed = self.follow(plan)
        return frozenset(
            op.target or ""
            for op in followed.operations
            if op.action == "restore" and op.target in self._ids
        )

    def missing(self, plan: Plan) -> bool:
        """True when a restore of `plan` finds no entry to take its item from."""
        followed = self.follow(plan)
        return any(
            op.action == "restore" and op.target not in self._ids for op in followed.operations
        )

    def _digest(self, entry: trash.TrashEntry) -> str | None:
        if entry.id not in self._digests:
            self._digests[entry.id] = journal.content_digest(entry.item(self._root))
        return self._digests[entry.id]


def over_current(store: Store, op: Operation) -> Operation:
    """The step made against its file as it is now, for a change a conflict refused and the
    person chose to write anyway: an edit against the store's record (taken in just before),
    a whole-bytes write or an index write against the digest the file has now."""
    if op.action == "edit":
        return dataclasses.replace(op, expected=None)
    if op.action in ("write", "index"):
        now = journal.content_digest(store.safe_path(op.path))
        # A write whose file is gone is refused as gone when it runs, never as a conflict.
        return dataclasses.replace(op, expected=now if op.action == "index" else now or "")
    return op


def run_operation(store: Store, op: Operation) -> Operation:
    """Do one operation and return the operation that undoes it.

    An operation carrying `seen` raises Stale, having changed nothing, when its file no longer
    holds what the plan saw.
    """
    why = stale_reason(store, op)
    if why is not None:
        raise Stale(op.path, why)
    if op.action == "trash":
        entry = store.trash(op.path)
        if op.seen is not None:
            put_back_if_changed(store, op, entry)
        set_aside_if_made(store, entry, op.made)
        # What went into the trash, so an undo can still find it under another entry id (see
        # `with_trash_ids_now`). A file the plan saw is known to hold those bytes: the check
        # above compared them, so it is not read again.
        kept: str | None
        if op.seen is not None and entry.path == op.path:
            kept = op.seen
        else:
            kept = journal.content_digest(entry.item(store.root))
        return Operation("restore", entry.path, target=entry.id, expected=kept)
    if op.action == "restore":
        # What an undo set aside goes back as set aside when this restore is undone (a redo's
        # copy, undone again), and only while it holds the bytes it came back with.
        aside = trash.is_set_aside(store.root, op.target or "")
        store.restore(op.target or "")
        made = journal.content_digest(store.root / op.path) if aside else None
        return Operation("trash", op.path, made=made)
    if op.action == "add":
        store.add_file(op.path, op.data or b"")
        return Operation("trash", op.path)
    if op.action == "copy":
        raw = store.safe_path(op.path).read_bytes()
        if op.seen is not None and digest_bytes(raw) != op.seen:
            raise Stale(op.path, CHANGED)
        text = raw.decode("utf-8")
        try:
            copied = frontmatter.edit(text, dict(op.values))
        except frontmatter.FrontmatterError as error:
            raise StoreError(f"{op.path}: {error}") from None
        data = copied.encode("utf-8")
        store.add_file(op.target or "", data)
        # The copy is this change's making alone: its undo sets it aside (see `made`).
        return Operation("trash", op.target or "", made=digest_bytes(data))
    if op.action in ("edit", "write"):
        before = store.safe_path(op.path).read_bytes()
        if op.action == "edit":
            try:
                written = store.edit(
                    op.path,
                    dict(op.values),
                    op.unset,
                    expected_digest=op.expected or op.seen,
                    touch_updated=op.touch_updated,
                    title=op.title,
                )
            except ConflictError:
                if op.seen is None:
                    raise
                raise Stale(op.path, CHANGED) from None
        else:
            written = store.write_bytes(op.path, op.data or b"", op.expected or "")
        # What the store wrote, not the file read again: another program may have written since,
        # and undo must then report a conflict rather than put `before` over its bytes.
        return Operation("write", op.path, data=before, expected=written.digest)
    if op.action == "move":
        store.move(op.path, op.target or "")
        return Operation("move", op.target or "", target=op.path)
    if op.action == "index":
        # An index file is not a memory: written through the store's file door, never listed.
        path = store.safe_path(op.path)
        old_index = path.read_bytes() if path.exists() else None
        store.write_file(op.path, op.data or b"", op.expected)
        if old_index is None:
            # Undoing a new index file moves it to the trash, set aside: the change made it.
            return Operation("trash", op.path, made=digest_bytes(op.data or b""))
        return Operation("index", op.path, data=old_index, expected=digest_bytes(op.data or b""))
    if op.action == "project-fields":
        previous = set_project_fields(store, op.target or "", op.values, op.unset)
        return Operation(
            "project-fields",
            op.path,
            target=op.target,
            values=previous.values,
            unset=previous.absent,
        )
    raise StoreError(f"unknown operation {op.action!r}")

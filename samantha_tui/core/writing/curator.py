"""A person's curating session over a store: changes as plans, undo history, indexes kept in sync.

The UI calls this from worker threads while the watcher feeds it other programs' changes, so every
method that reads and then changes the tree holds one lock. Every change goes through the door the
headless commands use (`plan.apply`): the tree's lock, the journal, and the index patch inside the
same journal, so a crash between a memory file and its index files is recovered the same way
whoever made the change. The search index and a path lookup are kept in step with the tree after
every change, by comparing records: the store replaces only the records it re-read, so an
unchanged memory is the very same object before and after.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from ..basics.model import Kind, Memory, Tree, kind_of_path
from ..reading import known_files
from . import tree_lock
from .atomic import ConflictError, StoreError, digest_bytes

# The writer (plans, edits, the trash, the journal), the indexes and the search are imported
# where they are first used: loading a tree for the first frame needs none of them, and they
# are about a third of the app's import time.
if TYPE_CHECKING:
    from ..basics import plans
    from ..views.indexes import DriftReport, IndexUpdate, KindDrift
    from ..views.search import SearchIndex
    from . import door, trash
    from .store import Store


def _index_files(kind: Kind) -> tuple[str, str]:
    from ..views.indexes.plan import INDEX_JSON, INDEX_MD

    return f"{kind.folder}/{INDEX_JSON}", f"{kind.folder}/{INDEX_MD}"


def index_operation(update: IndexUpdate) -> plans.Operation:
    """One index file's planned bytes as an operation: refused if the file changed since."""
    from ..basics import plans

    # One change a line: a line break inside one (a file name holding it) is written as its escape.
    reason = "\n".join(
        change.replace("\n", "\\n").replace("\r", "\\r") for change in update.changes
    )
    expected = digest_bytes(update.old) if update.old is not None else None
    return plans.Operation("index", update.path, reason, data=update.new, expected=expected)


@dataclass(frozen=True)
class Outcome:
    """What a change did, in words for a notice, and what the UI must refresh."""

    message: str
    changed: tuple[str, ...] = ()
    """Memory paths whose records changed, appeared or went."""
    indexes: tuple[str, ...] = ()
    """Index files rewritten because of it."""
    index_error: str | None = None
    """Why the indexes could not be brought up to date (the change itself landed)."""
    skipped: tuple[door.Skipped, ...] = ()
    """Steps of a batch left out because their file changed since the plan was made."""


def skipped_notice(skipped: tuple[door.Skipped, ...], shown: int = 3) -> str:
    """`skipped 2 changed since the plan was made: a.md, b.md`: a batch's left-out steps in
    one line for a notice; a step its rule refused is named with what its file says."""
    from . import door, edits

    more = f" and {len(skipped) - shown} more" if len(skipped) > shown else ""
    if all(step.by_change for step in skipped):
        names = [edits.name_of(s.path) for s in skipped[:shown]]
        return f"skipped {len(skipped)} changed since the plan was made: {', '.join(names)}{more}"
    said = [door.Skipped(edits.name_of(s.path), s.reason).describe() for s in skipped[:shown]]
    return f"skipped {len(skipped)}: {'; '.join(said)}{more}"


@dataclass(frozen=True)
class Undone:
    """A change undone in this session, and the plan that makes it again."""

    plan: plans.Plan
    """The change as first made (its name is what a notice says)."""
    redo: plans.Plan
    """The inverse of the undo: each step checks the file is still as the undo left it."""


@dataclass(frozen=True)
class Emptied:
    """What emptying the trash deleted, and how many changes of this session it took out of
    reach of undo and redo (they needed an item deleted)."""

    removed: tuple[trash.TrashEntry, ...]
    no_undo: int = 0
    """Changes left out of the undo history."""
    no_redo: int = 0
    """Undone changes left out of the redo history."""

    @property
    def message(self) -> str:
        """`deleted 3 items for good · 2 earlier changes can no longer be undone`."""
        said = [_counted(len(self.removed), "item", "deleted {} for good")]
        if self.no_undo:
            said.append(_counted(self.no_undo, "earlier change", "{} can no longer be undone"))
        if self.no_redo:
            said.append(_counted(self.no_redo, "undone change", "{} can no longer be redone"))
        return " · ".join(said)


def _counted(count: int, noun: str, sentence: str) -> str:
    return sentence.format(f"{count} {noun}{'s' if count != 1 else ''}")


class UndoConflict(ConflictError):
    """An undo refused because a file it puts back changed on disk since the change was made;
    `plan` is the undo, for `Curator.undo_over_theirs`."""

    def __init__(self, path: str, plan: plans.Plan) -> None:
        super().__init__(path)
        self.plan = plan


def _changed_since_undo(path: str) -> str:
    return f"{path} changed since the undo; nothing was redone, so that version stays as it is"


class Curator:
    """The one object the UI changes the tree through."""

    def __init__(self, store: Store, auto_index: bool = True) -> None:
        self.store = store
        self.auto_index = auto_index
        self.search_index: SearchIndex | None = None
        self._by_path: dict[str, Memory] = {}
        self._history: list[door.Applied] = []
        self._redo: list[Undone] = []
        """Changes undone, newest last; any new change empties it (a redo would then be made
        over a tree that change already moved on from)."""
        self._index_writes: dict[int, list[IndexUpdate]] = {}
        """The index files each change in the history patched (by id of its Applied): undo
        puts their bytes back where nobody wrote them since."""
        self._drift: dict[Kind, KindDrift] = {}
        """The last drift found per kind; a change re-checks only the kinds it feeds."""
        self._settled: dict[Kind, dt.date] = {}
        """Kinds whose drift is known without comparing: regenerated on that day, and neither
        their memories nor their index files changed since."""
        self._index_seen: dict[str, bytes | None] = {}
        """Each index file's bytes as the app last wrote or compared it (None: absent)."""
        self._lock = threading.RLock()

    # --- reading ---------------------------------------------------------------------------------

    @property
    def tree(self) -> Tree:
        return self.store.tree

    def get(self, path: str) -> Memory | None:
        """The record at path, found in constant time."""
        return self._by_path.get(path)

    def load(self) -> Tree:
        """Read the whole tree from disk (again)."""
        with self._lock:
            tree = self.store.scan()
            self._by_path = {m.path: m for m in tree.memories}
            self.store.take_swaps()  # the lookup is the scan's: later swaps are what changed
            self.search_index = None
            self._drift = {}
            self._settled = {}
            self._index_seen = {}
            return tree

    def build_search(self) -> SearchIndex:
        """Index the loaded tree for search; kept up to date by every later change."""
        from ..views.search import SearchIndex

        with self._lock:
            index = SearchIndex.build(self.store.tree.memories, self.store.today())
            self.search_index = index
            return index

    def read_bytes(self, path: str) -> bytes:
        """A memory file's bytes as they are on disk now."""
        try:
            return self.store.safe_path(path).read_bytes()
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error.strerror or error}") from None

    def drift(self, paths: Iterable[str] | None = None) -> DriftReport:
        """How the index files differ from what the memory files say.

        With `paths`, only the kinds those paths feed are compared again; the others keep the
        answer found last (at 10,000 memories all five kinds take about half a second).
        """
        from ..views.indexes import DriftReport, drift, kinds_affected

        with self._lock:
            kinds = None if paths is None or not self._drift else kinds_affected(paths)
            today = self.store.today()
            # Right after regenerating, a kind's comparison is known: skip it unless a day
            # passed (ages move entries) or another program rewrote its index files since.
            stale = {
                kind
                for kind in (Kind if kinds is None else kinds)
                if self._settled.get(kind) != today
                or self._index_contents(kind) != self._seen(kind)
            }
            if stale:
                found = drift(self.store.tree, self.store.root, today, stale)
                for kind_drift in found.kinds:
                    self._drift[kind_drift.kind] = kind_drift
                    self._settled.pop(kind_drift.kind, None)
                self._remember_indexes(stale)
            return DriftReport(tuple(self._drift[k] for k in Kind if k in self._drift))

    # --- changing --------------------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def apply(self, plan: plans.Plan, landed: Callable[[Outcome], None] | None = None) -> Outcome:
        """Apply a plan whole or not at all (ConflictError names a file changed on disk).

        `landed`, when given, is told once the plan's files are written and the session has
        taken them in, before their index patch (on a tree samantha-llm keeps, most of a
        change's time): the UI shows the change then, and the whole outcome follows. Not told
        when the change is refused before its files are written, nor when there is no patch."""

        # The change and the index patch after it are one hold of the tree: no writer between.
        with self._lock, tree_lock.hold(self.store.root):
            self._redo.clear()
            early: list[str] = []

            def files_written() -> None:
                early.extend(self._sync())
                if landed is not None:
                    landed(Outcome(plan.name, tuple(early)))

            step = _IndexStep(self, landed=files_written)
            applied = self._through_door(plan, step)
            self._history.append(applied)
            outcome = self._after(plan.name, applied, step, applied, tuple(early))
            if not applied.skipped:
                return outcome
            # Another program's change is taken in, so the list shows the file as it is now.
            taken = self.absorb(s.path for s in applied.skipped)
            changed = tuple(sorted({*outcome.changed, *taken.changed}))
            done = outcome.message
            if plan.parts:
                # A batch is named for what it does: said again for what it did.
                from .impact import done_name

                done = outcome.message.replace(plan.name, done_name(plan, applied.steps_ran))
            message = f"{done} · {skipped_notice(applied.skipped)}"
            return dataclasses.replace(
                outcome, message=message, changed=changed, skipped=applied.skipped
            )

    def undo(self) -> Outcome:
        """Reverse the newest change of this session not yet undone.

        UndoConflict (with the undo's plan) when a file it puts back changed on disk since:
        nothing is written, and `undo_over_theirs` is the way on.
        """
        from . import door

        # The change and the index patch after it are one hold of the tree: no writer between.
        with self._lock, tree_lock.hold(self.store.root):
            if not self._history:
                raise StoreError("nothing to undo: no change has been made in this session")
            applied = self._history[-1]
            inverse = door.with_trash_ids_now(self.store, applied.inverse)
            # The index files the change patched go back inside the undo's own journal.
            step = _IndexStep(self, self._index_writes.get(id(applied), []))
            try:
                done = self._through_door(inverse, step)
            except ConflictError as error:
                raise UndoConflict(error.path, applied.inverse) from None
            self._history.pop()
            self._index_writes.pop(id(applied), None)
            self._redo.append(Undone(applied.plan, self._checked_redo(done.inverse)))
            name = f"undone: {applied.plan.name}"
            return self._after(name, done, step)

    def undo_over_theirs(self, undo: plans.Plan) -> Outcome:
        """The undo a conflict refused, written over the files as they are now ("write mine
        over theirs"); `undo` is the plan the conflict named, and must still be the next undo.

        It is then a change of its own: the next undo puts their version back, the one after
        goes on to the older changes.
        """
        from ..basics import plans
        from . import door

        with self._lock, tree_lock.hold(self.store.root):
            if not self._history or self._history[-1].inverse is not undo:
                raise StoreError(
                    "that undo is no longer the next one (another change came since); "
                    "nothing was written, press u again"
                )
            applied = self._history[-1]
            self.absorb(op.path for op in undo.operations)
            inverse = door.with_trash_ids_now(self.store, undo)
            ops = tuple(door.over_current(self.store, op) for op in inverse.operations)
            step = _IndexStep(self, self._index_writes.get(id(applied), []))
            done = self._through_door(plans.Plan(inverse.name, ops, rule=inverse.rule), step)
            self._history.pop()
            self._index_writes.pop(id(applied), None)
            self._redo.clear()
            over = plans.Plan(f"{applied.plan.name} undone over their version", rule=plans.UNDO)
            made = door.Applied(over, done.inverse, done.touched)
            self._history.append(made)
            name = f"undone over their version: {applied.plan.name}"
            return self._after(name, done, step, made)

    def redo(self) -> Outcome:
        """Make again the change undone last; refused, with nothing written, when a file it
        touches changed since the undo (the redo stays available for once that is sorted)."""
        from . import door

        with self._lock, tree_lock.hold(self.store.root):
            if not self._redo:
                raise StoreError("nothing to redo: no change has been undone since the last one")
            undone = self._redo[-1]
            plan = door.with_trash_ids_now(self.store, undone.redo)
            for op in plan.operations:
                if door.stale_reason(self.store, op) is not None:
                    raise StoreError(_changed_since_undo(op.path))
            step = _IndexStep(self)
            try:
                done = self._through_door(plan, step)
            except ConflictError as error:
                raise StoreError(_changed_since_undo(error.path)) from None
            self._redo.pop()
            redone = door.Applied(undone.plan, done.inverse, done.touched)
            self._history.append(redone)
            return self._after(f"redone: {undone.plan.name}", done, step, redone)

    def empty_trash(self, entry_ids: list[str]) -> Emptied:
        """Delete these trash entries for good; never undoable, so it is not in the history.

        The changes of this session whose undo (or redo) would take an item back from among
        them can no longer be made: they leave the history, and so do the older changes to the
        same files (their undo would find a file that is not coming back); the rest stay in
        order.
        Refused while an interrupted batch waits: finishing or rolling it back may need them.
        """
        from . import door, journal

        with self._lock, tree_lock.hold(self.store.root):
            journal.refuse_if_pending(self.store.root)
            before = door.TrashView(self.store.root)
            needs = {
                id(step): before.needed(plan)
                for step, plan in [
                    *((applied, applied.inverse) for applied in self._history),
                    *((undone, undone.redo) for undone in self._redo),
                ]
            }
            removed = self.store.remove_from_trash(entry_ids)
            gone = {entry.id for entry in removed}
            after = door.TrashView(self.store.root)

            def lost(step: object, plan: plans.Plan) -> bool:
                # Another entry may hold the very same bytes: then the step still finds them.
                return bool(needs[id(step)] & gone) and after.missing(plan)

            history = _without_lost(self._history, lambda a: lost(a, a.inverse), _touched)
            redo = _without_lost(self._redo, lambda u: lost(u, u.redo), _redo_touched)
            kept = {id(applied) for applied in history}
            for applied in self._history:
                if id(applied) not in kept:
                    self._index_writes.pop(id(applied), None)
            emptied = Emptied(
                tuple(removed), len(self._history) - len(history), len(self._redo) - len(redo)
            )
            self._history, self._redo = history, redo
            return emptied

    def _checked_redo(self, redo: plans.Plan) -> plans.Plan:
        """The redo plan with each trashing step tied to the bytes the undo left, so a redo
        never trashes a version of the file that another program wrote since."""
        from ..basics import plans
        from . import journal

        ops = []
        for op in redo.operations:
            if op.action == "trash" and op.seen is None:
                seen = journal.content_digest(self.store.root / op.path)
                op = dataclasses.replace(op, seen=seen)
            ops.append(op)
        return plans.Plan(redo.name, tuple(ops), rule=plans.REDO)

    def index_plan(self, remove_stale: bool = False) -> plans.Plan:
        """Bringing every index in step with the files, as a plan to show and then apply: each
        file's writes carry what they add, update, keep and why; `u` undoes it like any change.

        With `remove_stale`, also remove the entries known only to the index (a project with no
        folder, an entry whose file is gone), each named in its reason with what depends on it.
        """
        from ..basics import plans
        from ..views.indexes import plan_updates
        from ..views.indexes.scope import Scope

        with self._lock:
            # Only the entries tied to no file: bringing the rest in step is `r`'s plan.
            scope = Scope(frozenset(), remove_stale=True) if remove_stale else None
            updates = plan_updates(
                self.store.tree, self.store.root, self.store.today(), None, scope
            )
            name = (
                "index: remove entries known only to the index"
                if remove_stale
                else "index: regenerate"
            )
            return plans.Plan(name, tuple(map(index_operation, updates)), rule=plans.INDEX)

    def overwrite(self, plan: plans.Plan) -> Outcome:
        """Apply a plan a conflict refused, over the files as they are now ("keep mine").

        Only the keys the plan sets or removes change (a step that puts whole bytes back
        replaces what is there now); the version it replaces is one undo away.
        """
        from ..basics import plans
        from . import door

        with self._lock:
            self.absorb(op.path for op in plan.operations)
            ops = tuple(door.over_current(self.store, op) for op in plan.operations)
            return self.apply(plans.Plan(plan.name, ops, rule=plan.rule))

    def absorb(self, paths: Iterable[str]) -> Outcome:
        """Take in changes another program made to these paths; indexes are left to `reindex`."""
        with self._lock:
            absorbed = self.store.absorb(paths)
            # The store re-reads even files whose bytes came back unchanged (the app's own writes
            # seen by the watcher): only what the digests say changed is a change.
            self._sync()
            changed = absorbed.paths
            return Outcome(f"{len(changed)} changed on disk", changed)

    def record_outside_edit(self, path: str, before: bytes) -> Outcome | None:
        """After an editor the app launched saved a file: take it in and make it undoable."""
        from ..basics import plans
        from . import door, edits

        with self._lock:
            after = self.read_bytes(path)
            taken = self.absorb([path])
            if after == before:
                return None
            self._redo.clear()
            undo = plans.Operation("write", path, data=before, expected=digest_bytes(after))
            edit = plans.Plan(f"{edits.name_of(path)}: edited in your editor", rule=edits.EDITOR)
            inverse = plans.Plan(f"undo {edit.name}", (undo,), rule=plans.UNDO)
            self._history.append(door.Applied(edit, inverse, ()))
            return dataclasses.replace(self._after_outside(edit.name, path), changed=taken.changed)

    def reindex(
        self, paths: Iterable[str] | None = None, automatic: bool = False
    ) -> list[IndexUpdate]:
        """Patch the indexes: the entries of these paths' memories (every memory when None).

        `automatic`: not asked for by the person, so an index.json that cannot be read is left
        for them to see (drift reports it) and rebuilt only when they ask.
        """
        from .index_writes import regenerate

        # Index writes hold the tree as every change does: no other writer between them.
        with self._lock, tree_lock.hold(self.store.root):
            if paths is not None:
                kinds, updates = self._patch(tuple(paths), {})
                self._settle(kinds, set())
                return updates
            settled: dict[Kind, KindDrift] = {}
            # The session shows which files were rewritten, never the entry-by-entry comparison.
            updates = regenerate(
                self.store, None, settled=settled, automatic=automatic, explain=False
            )
            self._remember_indexes(None)
            self._drift.update(settled)
            today = self.store.today()
            self._settled.update((kind, today) for kind in settled)
            return updates

    def index_files_changed(self) -> set[Kind]:
        """The kinds whose index files differ from what the app last wrote or compared.

        The watcher reports the app's own index writes too; re-checking drift for those would
        cost half a second at 10,000 memories and find nothing new.
        """
        with self._lock:
            return {kind for kind in Kind if self._index_contents(kind) != self._seen(kind)}

    def _seen(self, kind: Kind) -> dict[str, bytes | None]:
        return {rel: self._index_seen.get(rel) for rel in _index_files(kind)}

    def _index_contents(self, kind: Kind) -> dict[str, bytes | None]:
        """The kind's index files as they are now (None: absent or unreadable).

        A file whose stat proves it unchanged since this process last wrote or read it is not
        read again (see known_files), and one this process wrote is the very bytes object it
        wrote: comparing with what was seen is then an identity check, not a 1 MB comparison.
        """
        found: dict[str, bytes | None] = {}
        for rel in _index_files(kind):
            try:
                found[rel] = known_files.read(self.store.root / rel)
            except OSError:
                found[rel] = None
        return found

    def _remember_indexes(self, kinds: Iterable[Kind] | None) -> None:
        for kind in Kind if kinds is None else kinds:
            self._index_seen.update(self._index_contents(kind))

    def apply_index_plan(self, plan: plans.Plan) -> Outcome:
        """Write an index plan the person saw; refused whole if an index changed since."""
        try:
            with self._lock:
                outcome = self.apply(plan)
                self._drift, self._settled = {}, {}  # compare every kind again
                return outcome
        except ConflictError as error:
            raise StoreError(
                f"{error.path} changed since the plan was shown; nothing was written. "
                "Press r to see the plan again"
            ) from None

    def _through_door(self, plan: plans.Plan, step: _IndexStep) -> door.Applied:
        """`plan` through the one door (plan.apply), its index patch being `step` (none while
        automatic indexes are off): an index failure is told in the result, not raised."""
        from . import door, leftover

        return door.apply(
            self.store,
            plan,
            reindex=self.auto_index,
            indexes=step,
            also_journal=step.put_back_kinds,
            report_index_error=True,
            finish_first=leftover.finish_if_only_indexes,
        )

    def _after(
        self,
        name: str,
        applied: door.Applied,
        step: _IndexStep,
        made: door.Applied | None = None,
        taken_in: tuple[str, ...] = (),
    ) -> Outcome:
        """The session brought up to a change the door let through: the lookup, the search
        index and the catalog; `made` is its entry in the history (for putting its index files
        back on undo); `taken_in`, the paths the session took in before the index patch."""
        changed = tuple(sorted({*taken_in, *self._sync()}))
        if applied.finished_first:
            # The change finished an interrupted one first (see leftover.py): the notice says so.
            name = f"{applied.finished_first}; then {name}"
        if not self.auto_index:
            return Outcome(name, changed)
        if applied.index_error is not None:
            return Outcome(name, changed, index_error=applied.index_error)
        # Kinds known in step before the change stay so once its own entries are patched.
        self._settle(step.kinds, step.in_step)
        updates = list(applied.updates)
        if made is not None and updates:
            self._index_writes[id(made)] = updates
        return Outcome(name, changed, tuple(update.path for update in updates))

    def _after_outside(self, name: str, path: str) -> Outcome:
        """The session brought up to a file a launched editor wrote: no plan ran, so its entries
        are patched here (a crash before that leaves drift, which `recover` reports)."""
        in_step = self._in_step()
        changed = self._sync()
        if not self.auto_index:
            return Outcome(name, changed)
        try:
            kinds, updates = self._patch((path,), {})
        except StoreError as error:
            return Outcome(name, changed, index_error=str(error))
        self._settle(kinds, in_step)
        return Outcome(name, changed, tuple(update.path for update in updates))

    def _put_back_indexes(self, updates: list[IndexUpdate]) -> frozenset[Kind]:
        """Index files a change patched, back to their bytes before it (one it created, to the
        trash), each only while it still holds what the change wrote (another program's later
        write is never undone).

        Returns the kinds whose every patched index file was put back: they are as they were
        before the change, so the undo needs no patch of its own there.
        """
        from . import door

        kinds = {k for u in updates if (k := kind_of_path(u.path)) is not None}
        failed: set[Kind] = set()
        for update in reversed(updates):
            kind = kind_of_path(update.path)
            assert kind is not None  # index files live in kind folders
            try:
                if update.old is None:
                    # A file the change created: to the trash (the tree then has none again, as
                    # before), only while it holds what the change wrote.
                    if self.read_bytes(update.path) != update.new:
                        failed.add(kind)  # another program wrote it since: the patch follows
                        continue
                    entry = self.store.trash(update.path)
                    # No one's work but the change's: set aside, folded away in the trash.
                    door.set_aside_if_made(self.store, entry, digest_bytes(update.new))
                    continue
                self.store.write_file(update.path, update.old, update.new)
            except StoreError:
                failed.add(kind)  # changed since: the patch after the undo takes it from here
        self._remember_indexes(kinds)
        return frozenset(kinds - failed)

    def _in_step(self) -> set[Kind]:
        today = self.store.today()
        return {
            kind
            for kind, day in self._settled.items()
            if day == today and self._index_contents(kind) == self._seen(kind)
        }

    def _patch(
        self,
        touched: tuple[str, ...],
        previous: dict[str, Memory],
        skip: frozenset[Kind] = frozenset(),
    ) -> tuple[set[Kind], list[IndexUpdate]]:
        """Patch the entries of the memories a change touched, in the indexes they feed (but
        `skip`); every other entry stays as it is (the drift of the others is shown). Returns
        the kinds patched (for `_settle`) and the index files written."""
        from ..views.indexes import kinds_affected
        from ..views.indexes.scope import Scope
        from .index_writes import regenerate

        kinds = kinds_affected(touched) - skip
        if not kinds:
            return kinds, []
        # The records now at the changed paths, each found by bisection (not a walk of them all).
        current = {path: m for path in previous if (m := self.store.get(path)) is not None}
        scope = Scope(frozenset(touched), previous, current)
        updates = regenerate(self.store, kinds, scope=scope, automatic=True, explain=False)
        self._remember_indexes(kinds)
        return kinds, updates

    def _settle(self, kinds: set[Kind], in_step: set[Kind]) -> None:
        """After patching `kinds`: those in step before the change still are (so drift need
        not compare them again today); the others must be compared."""
        today = self.store.today()
        for kind in kinds:
            if kind in in_step:
                self._settled[kind] = today
            else:
                self._settled.pop(kind, None)

    def _sync(self) -> tuple[str, ...]:
        """Bring the path lookup and the search index up to the store's tree."""
        from ..views.indexes import kinds_affected

        swaps = self.store.take_swaps()
        if swaps is None:
            changed, gone = self._compare_all()
        else:
            changed, gone = self._take_swaps(swaps)
        new = self._by_path
        self.store.catalogue((new[path] for path in changed), gone)
        for kind in kinds_affected(changed + gone):
            self._settled.pop(kind, None)
        if self.search_index is not None:
            for path in changed:
                self.search_index.updated(new[path])
            for path in gone:
                self.search_index.removed(path)
        return tuple(sorted(changed + gone))

    def _compare_all(self) -> tuple[list[str], list[str]]:
        """The lookup made again from the whole tree: (paths changed or new, paths gone)."""
        old = self._by_path
        new = {m.path: m for m in self.store.tree.memories}
        changed = [path for path, memory in new.items() if old.get(path) is not memory]
        gone = [path for path in old if path not in new]
        self._by_path = new
        return changed, gone

    def _take_swaps(
        self, swaps: list[tuple[list[Memory], list[Memory]]]
    ) -> tuple[list[str], list[str]]:
        """The lookup updated for the records the store swapped, and only those: a write at
        100,000 memories does not walk them all."""
        put: dict[str, Memory] = {}
        taken: set[str] = set()
        for removed, records in swaps:
            for memory in removed:
                taken.add(memory.path)
                put.pop(memory.path, None)
            for memory in records:
                put[memory.path] = memory
        by_path = self._by_path
        changed = [path for path, memory in put.items() if by_path.get(path) is not memory]
        gone = [path for path in taken if path not in put and path in by_path]
        for path in gone:
            del by_path[path]
        for path in changed:
            by_path[path] = put[path]
        return changed, gone


class _IndexStep:
    """A change's index patch as the session makes it, run by the door inside the change's
    journal (so a crash while it writes is recovered like any batch), keeping what the
    session's drift bookkeeping needs once the door is through.

    `put_back`: the index files an undone change wrote, given their old bytes back first (each
    only while it still holds what the change wrote); kinds wholly put back need no patch.
    """

    def __init__(
        self,
        curator: Curator,
        put_back: list[IndexUpdate] | None = None,
        landed: Callable[[], None] | None = None,
    ) -> None:
        self._curator = curator
        self._put_back = put_back or []
        self._landed = landed
        """Called once the change's files are written, before the patch (see Curator.apply)."""
        self.in_step: set[Kind] = set()
        """The kinds known in step with their files just before the index files were written."""
        self.kinds: set[Kind] = set()
        """The kinds whose entries were patched."""

    @property
    def put_back_kinds(self) -> set[Kind]:
        """The kinds of the index files put back: journaled with the change's own."""
        return {k for u in self._put_back if (k := kind_of_path(u.path)) is not None}

    def __call__(
        self, store: Store, touched: tuple[str, ...], previous: dict[str, Memory]
    ) -> list[IndexUpdate]:
        curator = self._curator
        skip = curator._put_back_indexes(self._put_back)
        # Known before the session takes the change in, which forgets its kinds' state.
        self.in_step = curator._in_step()
        if self._landed is not None:
            landed, self._landed = self._landed, None  # once, though a patch is tried again
            landed()
        self.kinds, updates = curator._patch(touched, previous, skip)
        return updates


def _touched(applied: door.Applied) -> set[str]:
    return set(applied.touched) | {op.path for op in applied.inverse.operations}


def _redo_touched(undone: Undone) -> set[str]:
    return {op.path for op in undone.redo.operations}


_Step = TypeVar("_Step")


def _without_lost(
    steps: list[_Step], is_lost: Callable[[_Step], bool], paths: Callable[[_Step], set[str]]
) -> list[_Step]:
    """`steps` (oldest first) without the lost ones and every older step on a file a lost one
    touched: undoing (or redoing) the newest first, those would meet a file that never returns."""
    gone_paths: set[str] = set()
    kept: list[_Step] = []
    for step in reversed(steps):
        if is_lost(step) or paths(step) & gone_paths:
            gone_paths |= paths(step)
        else:
            kept.append(step)
    return kept[::-1]

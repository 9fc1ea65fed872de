"""Plans: lists of file operations with a reason each, applied by the store as one unit.

A plan is shown first (that is the dry run), then applied. If any operation fails, the ones already
done are undone in reverse order, so a plan lands whole or not at all. Applying returns the inverse
plan: applying that is "undo". A batch is journaled (see journal.py) so that a crash part way leaves
it to be finished or rolled back from what is on disk (see recovery.py).
"""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import frontmatter, journal
from .atomic import ConflictError, StoreError, digest_bytes, failure
from .indexes import kinds_affected, regenerate
from .indexes.plan import INDEX_JSON, INDEX_MD
from .indexes.scope import Scope
from .model import Kind, Memory
from .project_index import set_project_fields
from .store import Store
from .tree_lock import writes_tree

# Operations that are one atomic file write: alone in a plan, a crash leaves them old or new.
_ONE_WRITE = ("edit", "write", "add", "copy", "project-fields", "index")


@dataclass(frozen=True)
class Operation:
    """One file operation and why it is in the plan."""

    action: str
    """trash | restore | add | copy | edit | write | move | project-fields | index"""
    path: str
    reason: str = ""
    target: str | None = None
    """move: where to; restore: the trash entry id."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """edit: keys to set; project-fields: index entry keys to set."""
    unset: tuple[str, ...] = ()
    """edit and project-fields: keys to remove."""
    data: bytes | None = None
    """add/write: the file's new bytes."""
    expected: str | None = None
    """write: the digest the file must have (undo of an edit); edit: the digest the change was
    made against (None: the store's own record)."""
    touch_updated: bool = True
    """edit: also set `updated:` to today (curation flags and form saves say False)."""

    def describe(self) -> str:
        """One line for a person: what happens to which file."""
        verbs = {
            "trash": f"move {self.path} to the trash",
            "restore": f"restore {self.path} from the trash",
            "add": f"create {self.path}",
            "copy": f"copy {self.path} to {self.target} with {_fields(self.values)}",
            "edit": f"set {_fields(self.values)}{_unset(self.unset)} in {self.path}",
            "write": f"put back the previous content of {self.path}",
            "index": f"write {self.path}",
            "move": f"move {self.path} to {self.target}",
            "project-fields": (
                f"set {_fields(self.values)}{_unset(self.unset)} on project {self.target} "
                f"in {self.path}"
            ),
        }
        return verbs[self.action]


def _fields(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}: {value}" for key, value in values.items())


def _unset(keys: tuple[str, ...]) -> str:
    return f"; remove {', '.join(keys)}" if keys else ""


@dataclass(frozen=True)
class Plan:
    """A named list of operations; empty plans are fine (nothing to do)."""

    name: str
    operations: tuple[Operation, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.operations)


@dataclass(frozen=True)
class Applied:
    """What applying a plan did; `inverse` undoes it."""

    plan: Plan
    inverse: Plan
    touched: tuple[str, ...]
    indexes: tuple[str, ...] = ()
    """Index files rewritten afterwards (when applied with reindex)."""


@writes_tree
def apply(store: Store, plan: Plan, reindex: bool = True) -> Applied:
    """Apply every operation or none (on a failure, undo what was done and raise), then regenerate
    the indexes of the kinds it touched.

    Refused while an interrupted batch waits to be finished or rolled back. A batch (anything
    more than one atomic write) is journaled from before its first operation until its indexes
    are written. The tree's lock is held throughout, so no other writer comes between.
    """
    journal.refuse_if_pending(store.root)
    # Before the journal's folder is made: making it must never bring back a vanished tree.
    store.check_root()
    previous = records_under(store, plan) if reindex else {}
    writer = _begin(store, plan) if _journaled(plan, reindex) else None
    undo: list[Operation] = []
    touched: list[str] = []
    try:
        for index, op in enumerate(plan.operations):
            if writer is None:
                undo.append(run_operation(store, op))
            else:
                run_step(store, writer, index, op, undo)
            touched.extend(touched_by(op))
    except (StoreError, OSError) as error:
        try:
            _undo(store, undo, writer)
        except (StoreError, OSError) as undo_error:
            raise StoreError(
                f"{plan.name}: {_said(error)}; undoing the steps already taken failed too "
                f"({_said(undo_error)}); once that is fixed, `samantha-tui recover --rollback` "
                "puts every file back"
            ) from None
        if isinstance(error, ConflictError):
            # The caller offers reload / keep mine / cancel, so it must know which file it was.
            raise
        raise StoreError(f"{plan.name}: {_said(error)}; nothing was changed") from None
    indexes: list[str] = []
    try:
        if reindex and touched:
            indexes = _reindex(store, writer, touched, previous)
    except (StoreError, OSError) as error:
        # The change itself is whole, so the batch is over; only a crash leaves its journal.
        if writer is not None:
            writer.close()
        if isinstance(error, OSError):
            raise failure("index", plan.name, error, "the change itself was made") from None
        raise
    if writer is not None:
        writer.close()
    inverse = Plan(f"undo {plan.name}", tuple(reversed(undo)))
    return Applied(plan, inverse, tuple(touched), tuple(indexes))


def _said(error: StoreError | OSError) -> str:
    """An error in words: the store's own message, or what an OSError means for a person."""
    if isinstance(error, StoreError):
        return str(error)
    return str(failure("change", error.filename or "a file", error, "it stopped there"))


def _journaled(plan: Plan, reindex: bool) -> bool:
    ops = plan.operations
    return bool(ops) and (len(ops) > 1 or reindex or ops[0].action not in _ONE_WRITE)


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


def _undo(store: Store, undo: list[Operation], writer: journal.Writer | None) -> None:
    """Undo the operations done so far, newest first, keeping the journal true at every moment."""
    for index in reversed(range(len(undo))):
        if writer is not None:
            writer.undoing(index)
        run_operation(store, undo[index])
        if writer is not None:
            writer.undone(index)
    if writer is not None:
        writer.close()


def run_step(
    store: Store, writer: journal.Writer, index: int, op: Operation, undo: list[Operation]
) -> None:
    """Run operation `index` of a journaled batch: recorded before it runs and once it is done.

    Its undo joins `undo` as soon as it ran, so a failure to record it still undoes it.
    """
    writer.step(index, _before(store, op))
    undo.append(run_operation(store, op))
    after: dict[str, str | None] = {}
    if op.action in ("edit", "write", "project-fields", "index"):
        after[op.path] = journal.content_digest(store.root / op.path)
    elif op.action in ("add", "copy"):
        created = op.path if op.action == "add" else op.target or ""
        after[created] = journal.content_digest(store.root / created)
    trash_id = undo[-1].target if op.action == "trash" else None
    writer.done(index, journal.Done(after, trash_id))


def records_under(store: Store, plan: Plan) -> dict[str, Memory]:
    """The records at or under the paths a plan names, as they are before it runs."""
    wanted = {path for op in plan.operations for path in (op.path, op.target) if path}
    folders = tuple(path + "/" for path in wanted)
    return {
        m.path: m for m in store.tree.memories if m.path in wanted or m.path.startswith(folders)
    }


def _reindex(
    store: Store, writer: journal.Writer | None, touched: list[str], previous: dict[str, Memory]
) -> list[str]:
    """Patch the touched paths' entries in the indexes they feed, the index files' old bytes
    journaled first; returns the index files rewritten."""
    kinds = kinds_affected(touched)
    if writer is not None:
        writer.indexes(index_files(store, kinds))
    scope = Scope(frozenset(touched), previous)
    return [update.path for update in regenerate(store, kinds, scope=scope, explain=False)]


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


def touched_by(op: Operation) -> tuple[str, ...]:
    """The paths whose kinds' indexes an operation can change."""
    # A restore's target is a trash id, not a path.
    target = op.target if op.action != "restore" else None
    paths = tuple(p for p in (op.path, target) if p)
    if op.action == "project-fields":
        # It writes index.json itself: its kind's index.md must follow.
        paths += (op.path.rsplit("/", 1)[0],)
    return paths


def encode(op: Operation) -> dict[str, Any]:
    """The operation as JSON-ready data, for the journal (`decode` reads it back)."""
    return {
        "action": op.action,
        "path": op.path,
        "reason": op.reason,
        "target": op.target,
        "values": [[key, *_tagged(value)] for key, value in op.values.items()],
        "unset": list(op.unset),
        "data": None if op.data is None else base64.b64encode(op.data).decode("ascii"),
        "expected": op.expected,
        "touch_updated": op.touch_updated,
    }


def decode(data: Mapping[str, Any]) -> Operation:
    """An operation from what `encode` wrote."""
    raw = data.get("data")
    return Operation(
        action=str(data["action"]),
        path=str(data["path"]),
        reason=str(data.get("reason") or ""),
        target=data.get("target"),
        values={key: _untagged(tag, value) for key, tag, value in data.get("values") or ()},
        unset=tuple(data.get("unset") or ()),
        data=None if raw is None else base64.b64decode(raw),
        expected=data.get("expected"),
        touch_updated=bool(data.get("touch_updated", True)),
    )


def _tagged(value: Any) -> tuple[str, Any]:
    # JSON has no dates; frontmatter values do (`completed: <today>`).
    if isinstance(value, dt.datetime):
        return "datetime", value.isoformat()
    if isinstance(value, dt.date):
        return "date", value.isoformat()
    return "json", value


def _untagged(tag: str, value: Any) -> Any:
    if tag == "datetime":
        return dt.datetime.fromisoformat(value)
    if tag == "date":
        return dt.date.fromisoformat(value)
    return value


def run_operation(store: Store, op: Operation) -> Operation:
    """Do one operation and return the operation that undoes it."""
    if op.action == "trash":
        entry = store.trash(op.path)
        return Operation("restore", entry.path, target=entry.id)
    if op.action == "restore":
        store.restore(op.target or "")
        return Operation("trash", op.path)
    if op.action == "add":
        store.add_file(op.path, op.data or b"")
        return Operation("trash", op.path)
    if op.action == "copy":
        text = store.safe_path(op.path).read_bytes().decode("utf-8")
        try:
            copied = frontmatter.edit(text, dict(op.values))
        except frontmatter.FrontmatterError as error:
            raise StoreError(f"{op.path}: {error}") from None
        store.add_file(op.target or "", copied.encode("utf-8"))
        return Operation("trash", op.target or "")
    if op.action in ("edit", "write"):
        before = store.safe_path(op.path).read_bytes()
        if op.action == "edit":
            written = store.edit(
                op.path,
                dict(op.values),
                op.unset,
                expected_digest=op.expected,
                touch_updated=op.touch_updated,
            )
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
        before = path.read_bytes() if path.exists() else None
        store.write_file(op.path, op.data or b"", op.expected)
        if before is None:
            return Operation("trash", op.path)  # undoing a new index file moves it to the trash
        return Operation("index", op.path, data=before, expected=digest_bytes(op.data or b""))
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

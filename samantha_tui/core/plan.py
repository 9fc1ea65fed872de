"""Plans: lists of file operations with a reason each, applied by the store as one unit.

A plan is shown first (that is the dry run), then applied. If any operation fails, the ones already
done are undone in reverse order, so a plan lands whole or not at all. Applying returns the inverse
plan: applying that is "undo".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import frontmatter
from .atomic import ConflictError, StoreError, digest_bytes
from .indexes import kinds_affected, regenerate
from .project_index import set_project_fields
from .store import Store


@dataclass(frozen=True)
class Operation:
    """One file operation and why it is in the plan."""

    action: str
    """trash | restore | add | copy | edit | write | move | project-fields"""
    path: str
    reason: str = ""
    target: str | None = None
    """move: where to; restore: the trash entry id."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """edit: keys to set; project-fields: index entry keys to set (None removes one)."""
    unset: tuple[str, ...] = ()
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
            "move": f"move {self.path} to {self.target}",
            "project-fields": f"set {_fields(self.values)} on project {self.target} in {self.path}",
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


def apply(store: Store, plan: Plan, reindex: bool = True) -> Applied:
    """Apply every operation or none (on a failure, undo what was done and raise), then regenerate
    the indexes of the kinds it touched."""
    undo: list[Operation] = []
    touched: list[str] = []
    try:
        for op in plan.operations:
            undo.append(_run(store, op))
            # A restore's target is a trash id, not a path.
            target = op.target if op.action != "restore" else None
            touched.extend(p for p in (op.path, target) if p)
            if op.action == "project-fields":
                # It writes index.json itself: its kind's index.md must follow.
                touched.append(op.path.rsplit("/", 1)[0])
    except (StoreError, OSError) as error:
        for op in reversed(undo):
            _run(store, op)
        if isinstance(error, ConflictError):
            # The caller offers reload / keep mine / cancel, so it must know which file it was.
            raise
        raise StoreError(f"{plan.name}: {error}; nothing was changed") from None
    if reindex and touched:
        regenerate(store, kinds_affected(touched))
    return Applied(plan, Plan(f"undo {plan.name}", tuple(reversed(undo))), tuple(touched))


def _run(store: Store, op: Operation) -> Operation:
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
            store.edit(
                op.path,
                dict(op.values),
                op.unset,
                expected_digest=op.expected,
                touch_updated=op.touch_updated,
            )
        else:
            store.write_bytes(op.path, op.data or b"", op.expected or "")
        after = store.safe_path(op.path).read_bytes()
        return Operation("write", op.path, data=before, expected=digest_bytes(after))
    if op.action == "move":
        store.move(op.path, op.target or "")
        return Operation("move", op.target or "", target=op.path)
    if op.action == "project-fields":
        previous = set_project_fields(store, op.target or "", op.values)
        return Operation("project-fields", op.path, target=op.target, values=previous)
    raise StoreError(f"unknown operation {op.action!r}")

"""Plans: what a change is, as data. A plan is a named list of file operations with a reason
each, and the rule that made it; the door (door.py) applies one as a unit.

A plan is shown first (that is the dry run), then applied. Curation rules (lifecycle.py) and edits
(edits.py, fixes.py, bulk_edits.py) make plans; none of them writes.
"""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Operation:
    """One file operation and why it is in the plan."""

    action: str
    """trash | restore | add | copy | edit | write | move | project-fields | index"""
    path: str
    reason: str = ""
    target: str | None = None
    """move: where to; restore: the trash entry id; trash (in a merge): the file the plan keeps,
    so that a skipped step on that file leaves this one alone too (see door.Progress)."""
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
    seen: str | None = None
    """The digest of the file at `path` the plan was made from (a project's status.md for the
    project): when set, the step is skipped, never applied, if the file no longer holds it.
    None: no such check (single edits use `expected` and a conflict instead)."""
    title: str | None = None
    """edit: the new text of the body's title heading (None: the body is left alone)."""
    recheck: str = ""
    """The curation rule that chose this step (lifecycle.PRUNE, ...), judged again on the file's
    bytes when the step runs (views/rechecks.py): the plan was made from records the catalog may
    have given, and a catalog is only a cache. Empty: nothing beyond `seen` is checked (a step
    the person chose)."""
    made: str | None = None
    """trash, in an undo: the digest of the bytes the undone change made at `path` itself (a
    promotion's copy, an index file it created). Still holding them, the file is no one's work
    but that change's: its trash entry is marked set aside by the undo, and the trash folds it
    away (it stays there, whole, for redo). None: an ordinary trashing."""

    def describe(self) -> str:
        """One line for a person: what happens to which file."""
        verbs = {
            "trash": f"move {self.path} to the trash",
            "restore": f"restore {self.path} from the trash",
            "add": f"create {self.path}",
            "copy": f"copy {self.path} to {self.target} with {_fields(self.values)}",
            "edit": f"set {_edited(self)} in {self.path}",
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


def _edited(op: Operation) -> str:
    title = f"; title: {op.title}" if op.title is not None else ""
    return f"{_fields(op.values)}{title}{_unset(op.unset)}".removeprefix("; ")


def _unset(keys: tuple[str, ...]) -> str:
    return f"; remove {', '.join(keys)}" if keys else ""


# What made the plans that are neither a curation rule's nor an edit of memories: applying a
# plan makes its undo, undoing that makes the redo; an index plan brings the indexes in step.
UNDO = "undo"
REDO = "redo"
INDEX = "index"


@dataclass(frozen=True)
class Plan:
    """A named list of operations; empty plans are fine (nothing to do)."""

    name: str
    operations: tuple[Operation, ...] = ()
    rule: str = ""
    """What made the plan, for whatever describes it (never guessed back from the operations):
    a curation rule's name (`prune`, `apply updates`: see lifecycle.py), an edit's (`critical`,
    `trash`: see edits.py, fixes.py, bulk_edits.py), `undo`, `redo` or `index`; a reviewed batch
    says `review`. Empty: made by hand (a test), nothing known."""
    parts: tuple[Plan, ...] = ()
    """A batch: the plan of each rule in it, in the order they run. Its operations are theirs,
    one part after another; every other plan has none."""

    def __post_init__(self) -> None:
        # A batch whose operations drifted from its parts would be described as something else
        # than what it does.
        if self.parts and self.operations != tuple(
            op for part in self.parts for op in part.operations
        ):
            raise ValueError(f"{self.name}: a batch's operations must be those of its parts")

    def __bool__(self) -> bool:
        return bool(self.operations)

    def by_rule(self) -> tuple[tuple[str, Operation], ...]:
        """Each operation with the rule that planned it: its part's in a batch, else the plan's."""
        return tuple((part.rule, op) for part in self.parts or (self,) for op in part.operations)


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
        "seen": op.seen,
        "title": op.title,
        "recheck": op.recheck,
        "made": op.made,
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
        # A journal written before steps carried it: no check, as then.
        seen=data.get("seen"),
        title=data.get("title"),
        # A journal written before steps carried it: no rule judged again, as then.
        recheck=str(data.get("recheck") or ""),
        # A journal written before steps carried it: an ordinary trashing, as then.
        made=data.get("made"),
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

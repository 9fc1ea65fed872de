"""Changes to many memories at once (the marked rows), each as one plan: one undo step, journalled.

Every step carries the digest of the record it was planned from (`Operation.seen`), so a file
another program changed since is skipped and named, never written over. A memory the change does
not apply to, or whose file could not take it, is left alone and named in the plan's name, which
is what the notice says.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..basics import schema
from ..basics.model import Kind, Memory
from ..basics.plans import Operation, Plan
from ..reading import frontmatter
from ..reading.fields import SPECS, fields_for, raw_value
from .atomic import StoreError
from .edits import name_of, why_fields_cannot_be_saved

Reader = Callable[[str], bytes]
"""A memory file's bytes by path (the curator's read_bytes): lets a plan leave out, with the
reason, a file whose frontmatter could not take the change, instead of refusing the whole batch."""

SHOWN = 3
"""Names given in a notice before `and N more`."""

BULK_KEYS = ("importance", "type", "project", "updated", "status", "confidence")
"""The keys the bulk form may set on many memories at once (besides `critical` and topics)."""

# The bulk edits' names: the rule of the plans made here (see Plan.rule).
BULK_CRITICAL = "critical on many"
BULK_IMPORTANCE = "importance on many"
BULK_FORM = "bulk form"


@dataclass(frozen=True)
class LeftAlone:
    """A marked memory the change did not touch, and why."""

    path: str
    reason: str


@dataclass(frozen=True)
class FileChange:
    """What one memory of a bulk change gets: keys to set and keys to remove."""

    path: str
    values: Mapping[str, Any]
    unset: tuple[str, ...] = ()
    topics_before: tuple[str, ...] | None = None
    """The topics the file had, when the change sets them: the preview shows what goes and comes."""

    def describe(self) -> str:
        """`a.md: importance high; topics +release -docs; remove critical`, one line."""
        parts = [
            self._topics() if key == "topics" else f"{key} {_shown(value)}"
            for key, value in self.values.items()
        ]
        if self.unset:
            parts.append(f"remove {', '.join(self.unset)}")
        return f"{name_of(self.path)}: {'; '.join(parts)}"

    def _topics(self) -> str:
        new = [str(topic) for topic in self.values["topics"]]
        if self.topics_before is None:
            return f"topics {_shown(new)}"
        added = [topic for topic in new if topic not in self.topics_before]
        gone = [topic for topic in self.topics_before if topic not in new]
        return "topics " + " ".join([*(f"+{t}" for t in added), *(f"-{t}" for t in gone)])


@dataclass(frozen=True)
class BulkChange:
    """What the bulk form asks for; a field left untouched is not in it, so it is not written."""

    values: Mapping[str, Any] = field(default_factory=dict)
    """Keys of BULK_KEYS to set (and `critical: True`), on each memory whose kind has them."""
    unset: tuple[str, ...] = ()
    """Keys to remove where present (`critical` switched off)."""
    topics_add: tuple[str, ...] = ()
    topics_remove: tuple[str, ...] = ()
    topics_set: tuple[str, ...] | None = None
    """Replaces every memory's topics; not with add or remove."""

    def __bool__(self) -> bool:
        return bool(
            self.values
            or self.unset
            or self.topics_add
            or self.topics_remove
            or self.topics_set is not None
        )


@dataclass(frozen=True)
class BulkPlan:
    """A bulk change worked out: the plan, each file's change (the preview), what is left alone."""

    plan: Plan
    files: tuple[FileChange, ...]
    left_alone: tuple[LeftAlone, ...] = ()
    asks: str = ""
    """What it does, as a confirmation asks it: `Mark 3 memories critical?`."""


def _shown(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    if value is True:
        return "true"
    return str(value)


def _count(number: int) -> str:
    return f"{number} {'memory' if number == 1 else 'memories'}"


def left_alone_notice(left: Sequence[LeftAlone], shown: int = SHOWN) -> str:
    """`left alone: c.md (already at high), d.md (not UTF-8)`: in one line for a notice."""
    if not left:
        return ""
    names = [f"{name_of(item.path)} ({item.reason})" for item in left[:shown]]
    more = f" and {len(left) - shown} more" if len(left) > shown else ""
    return f"left alone: {', '.join(names)}{more}"


def _unique(memories: Iterable[Memory]) -> list[Memory]:
    """Each memory once, in the order given (a problem list names one memory many times)."""
    seen: dict[str, Memory] = {}
    for memory in memories:
        seen.setdefault(memory.path, memory)
    return list(seen.values())


def _refusal(read: Reader | None, change: FileChange) -> str | None:
    """Why the file could not take the change as it is on disk now, or None when it can."""
    if read is None:
        return None
    try:
        raw = read(change.path)
    except StoreError as error:
        return str(error).removeprefix(change.path + " ").removeprefix(change.path + ": ")
    reason = why_fields_cannot_be_saved(raw)
    if reason is not None:
        return reason
    try:
        frontmatter.edit(raw.decode("utf-8"), dict(change.values), list(change.unset))
    except frontmatter.FrontmatterError as error:
        return str(error)
    return None


def _plan(
    name: str,
    memories: Sequence[Memory],
    files: Sequence[FileChange],
    left: list[LeftAlone],
    reason: str,
    read: Reader | None,
    asks: str,
    rule: str,
) -> BulkPlan:
    """`asks` is the question with `{n}` for the count: `Mark {n} critical?`; `rule` is the
    edit's name (BULK_CRITICAL, ...)."""
    digests = {memory.path: memory.digest for memory in memories}
    kept: list[FileChange] = []
    for change in files:
        refused = _refusal(read, change)
        if refused is not None:
            left.append(LeftAlone(change.path, refused))
        else:
            kept.append(change)
    if not kept:
        why = left_alone_notice(left) or "nothing to change"
        raise StoreError(f"{name}: nothing was written; {why}")
    operations = tuple(
        Operation(
            "edit",
            change.path,
            reason,
            values=dict(change.values),
            unset=change.unset,
            touch_updated=False,
            seen=digests[change.path] or None,
        )
        for change in kept
    )
    title = f"{name} on {_count(len(kept))}"
    extra = left_alone_notice(left)
    plan = Plan(f"{title} · {extra}" if extra else title, operations, rule=rule)
    return BulkPlan(plan, tuple(kept), tuple(left), asks.format(n=_count(len(kept))))


def toggle_critical(memories: Iterable[Memory], read: Reader | None = None) -> BulkPlan:
    """`c` on marked memories: if any is not critical, mark each of those critical; when every
    one already is, remove the key from all of them."""
    marked = _unique(memories)
    if not marked:
        raise StoreError("no memory is marked")
    if all(memory.critical for memory in marked):
        files = [FileChange(m.path, {}, ("critical",)) for m in marked]
        return _plan(
            "critical removed",
            marked,
            files,
            [],
            "no longer critical",
            read,
            "Remove critical from {n}?",
            BULK_CRITICAL,
        )
    files = [FileChange(m.path, {"critical": True}) for m in marked if not m.critical]
    already = [m for m in marked if m.critical]
    asks = "Mark {n} critical?"
    bulk = _plan(
        "marked critical", marked, files, [], "read every session", read, asks, BULK_CRITICAL
    )
    if not already:
        return bulk
    # Said, not left as a riddle: the memories critical before stay so.
    note = f"{_count(len(already))} already critical"
    plan = dataclasses.replace(bulk.plan, name=f"{bulk.plan.name} · {note}")
    return BulkPlan(plan, bulk.files, bulk.left_alone, bulk.asks)


def _stepped(raw: Any, step: int) -> str:
    """The importance one step along low < medium < high from `raw`, or a refusal."""
    if raw is None:
        if step < 0:
            raise ValueError("no importance to lower")
        return schema.IMPORTANCE[0]
    if raw not in schema.IMPORTANCE:
        raise ValueError(f"importance {raw!r} is not low, medium or high")
    index = schema.IMPORTANCE.index(raw) + step
    if not 0 <= index < len(schema.IMPORTANCE):
        raise ValueError(f"already at {raw}")
    return schema.IMPORTANCE[index]


def step_importance(memories: Iterable[Memory], step: int, read: Reader | None = None) -> BulkPlan:
    """`+` / `-` on marked memories: each one step along low < medium < high; those at the end
    of the scale (or outside it) are left alone and named."""
    marked = _unique(memories)
    if not marked:
        raise StoreError("no memory is marked")
    files: list[FileChange] = []
    left: list[LeftAlone] = []
    for memory in marked:
        try:
            target = _stepped(memory.frontmatter.get("importance"), step)
        except ValueError as error:
            left.append(LeftAlone(memory.path, str(error)))
            continue
        files.append(FileChange(memory.path, {"importance": target}))
    name = "importance raised" if step > 0 else "importance lowered"
    asks = "Raise the importance of {n}?" if step > 0 else "Lower the importance of {n}?"
    return _plan(name, marked, files, left, name, read, asks, BULK_IMPORTANCE)


def _applies(key: str, memory: Memory) -> bool:
    """Whether the single form offers `key` for this memory (status on tasks, confidence on
    runbooks), so a bulk change never adds a key the memory's kind does not have."""
    return any(spec.key == key for spec in fields_for(memory.kind, memory.frontmatter))


def _same(key: str, old: Any, new: Any) -> bool:
    """The file already holds the value (a quoted date, `"high"`: the same text counts)."""
    if old is None:
        return False
    spec = SPECS[key]
    return old == new or raw_value(spec, old) == raw_value(spec, new)


def _current_topics(memory: Memory) -> tuple[str, ...]:
    raw = memory.frontmatter.get("topics")
    return tuple(str(topic) for topic in raw) if isinstance(raw, list) else memory.topics


def _topics_after(memory: Memory, change: BulkChange) -> list[str] | None:
    """The memory's topics after the change, or None when they stay as they are."""
    if change.topics_set is None and not change.topics_add and not change.topics_remove:
        return None
    current = list(_current_topics(memory))
    if change.topics_set is not None:
        new = list(change.topics_set)
    else:
        have = {topic.casefold() for topic in current}
        new = current + [t for t in change.topics_add if t.casefold() not in have]
        gone = {topic.casefold() for topic in change.topics_remove}
        new = [topic for topic in new if topic.casefold() not in gone]
    return None if new == current else new


def file_change(memory: Memory, change: BulkChange) -> tuple[FileChange | None, str | None]:
    """What one memory gets from a bulk change (None: nothing), or why it is left alone."""
    values: dict[str, Any] = {}
    unset: list[str] = []
    for key, value in change.values.items():
        if key == "critical":
            if value is True and not memory.critical:
                values[key] = True
        elif _applies(key, memory) and not _same(key, memory.frontmatter.get(key), value):
            values[key] = value
    for key in change.unset:
        if key in memory.frontmatter:
            unset.append(key)
    topics = _topics_after(memory, change)
    before = None
    if topics is not None:
        if not topics:
            return None, "no topics would be left; a memory needs one"
        values["topics"] = topics
        before = _current_topics(memory)
    if not values and not unset:
        return None, None
    return FileChange(memory.path, values, tuple(unset), before), None


def edit_many(
    memories: Iterable[Memory], change: BulkChange, read: Reader | None = None
) -> BulkPlan:
    """The bulk form's save: each memory gets only the keys that change for it (a key its kind
    does not have is not added); one plan, so one undo puts every file back."""
    marked = _unique(memories)
    if not change:
        raise StoreError("no field was set; nothing was written")
    files: list[FileChange] = []
    left: list[LeftAlone] = []
    for memory in marked:
        wanted, why = file_change(memory, change)
        if wanted is not None:
            files.append(wanted)
        elif why is not None:
            left.append(LeftAlone(memory.path, why))
    asks = "Save these fields to {n}?"
    return _plan("fields set", marked, files, left, "set in the bulk form", read, asks, BULK_FORM)


def preview(memories: Iterable[Memory], change: BulkChange) -> tuple[list[FileChange], int]:
    """(each file's change, how many memories stay as they are), for the form to show before
    anything is written; files are not read here."""
    marked = _unique(memories)
    files = [f for m in marked if (f := file_change(m, change)[0]) is not None]
    return files, len(marked) - len(files)


def kinds_in(memories: Iterable[Memory]) -> dict[Kind, int]:
    """How many of the memories are of each kind, in the tabs' order."""
    counts: dict[Kind, int] = {}
    for memory in _unique(memories):
        counts[memory.kind] = counts.get(memory.kind, 0) + 1
    return {kind: counts[kind] for kind in Kind if kind in counts}

"""A curation step's rule judged again on what its file says, when the step runs.

Plans are made from records, and a record may come from the catalog, which is only a cache: a row
someone wrote into it with a file's real size, times and digest could say `critical: false` of a
memory whose file says `critical: true`. The digest a step carries (`Operation.seen`) proves the
file's bytes are the ones the record was catalogued for, not that the record tells what they say.
So a step that moves a memory away or demotes it carries its rule (`Operation.recheck`), and the
door reads the file again and asks the rule once more (`broken`); a step whose rule no longer
holds is skipped and said, like a step whose file changed.
"""

from __future__ import annotations

from collections.abc import Callable

from ..basics.model import Kind, Memory
from ..basics.plans import Operation
from . import lifecycle
from .merging import MERGE, merged_values

Reader = Callable[[str], Memory | None]
"""Another memory's record as its file says now (None: gone, or not a memory file)."""

# What a merge promises the kept file holds of the dropped one's (reference_count is a sum, so
# it cannot be judged after the fact).
_MERGED_KEYS = ("critical", "importance", "topics", "project")


def broken(op: Operation, now: Memory, read: Reader) -> str | None:
    """Why `op`'s rule does not hold for its file as `now` reads it, said for a person; None
    when it holds (or the step carries no rule)."""
    rule = op.recheck
    if not rule:
        return None
    if rule in (lifecycle.PRUNE, lifecycle.PROMOTE, lifecycle.DEDUPE) and not _judgeable(now):
        return f"cannot be judged by the {rule} rule as its file reads now (no date, or errors)"
    if rule == lifecycle.PRUNE:
        return _prune(now)
    if rule == lifecycle.PROMOTE:
        return _promote(now)
    if rule == lifecycle.DEDUPE:
        return _dedupe(op, now, read)
    if rule == MERGE:
        return _merge(op, now, read)
    if rule == lifecycle.COMPLETE:
        return _complete(now)
    return f"was planned by a rule this version does not know ({rule}); nothing was done"


def _judgeable(memory: Memory) -> bool:
    # As lifecycle._readable: the rules leave a file alone when they cannot read its fields.
    return memory.date is not None and not memory.has_errors


def _said(memory: Memory) -> str:
    """What the rules read of a memory, as its file says it."""
    importance = memory.importance or memory.written_importance or "unset"
    parts = [f"importance {importance}", f"{memory.age_days or 0} days old"]
    if memory.reference_count:
        parts.append(f"referenced {memory.reference_count} times")
    return ", ".join(parts)


def _prune(now: Memory) -> str | None:
    if now.kind is not Kind.SHORT_TERM:
        return "is not a short-term memory; only those are pruned"
    if now.critical:
        return "is critical in its file; a critical memory is never pruned"
    if lifecycle.prune_reason(now) is None:
        return f"no longer meets the prune rule by its file ({_said(now)})"
    return None


def _promote(now: Memory) -> str | None:
    if now.kind is not Kind.SHORT_TERM:
        return "is not a short-term memory; only those are promoted"
    if lifecycle.promotion_reason(now) is None:
        return f"no longer meets the promote rule by its file ({_said(now)})"
    return None


def _dedupe(op: Operation, drop: Memory, read: Reader) -> str | None:
    if drop.critical:
        return "is critical in its file; dedupe never trashes a critical memory"
    keep = read(op.target) if op.target else None
    if keep is None:
        return f"duplicates {op.target or 'a memory'}, which is gone or cannot be read"
    if not _judgeable(keep):
        return f"duplicates {keep.name}, which the dedupe rule cannot judge as it reads now"
    if lifecycle.duplicate_reason(keep, drop) is None:
        return f"is no longer a duplicate of {keep.name} by their files"
    if lifecycle.richness(drop) > lifecycle.richness(keep):
        return f"is richer than {keep.name} by their files; dedupe keeps the richer of two"
    return None


def _merge(op: Operation, drop: Memory, read: Reader) -> str | None:
    keep = read(op.target) if op.target else None
    if keep is None:
        return f"was to be merged into {op.target or 'a memory'}, which is gone or cannot be read"
    missing = [key for key in _MERGED_KEYS if key in merged_values(keep, drop)]
    if missing:
        said = ", ".join(missing)
        return f"says in its file what {keep.name} does not hold ({said}); it stays"
    return None


def _complete(now: Memory) -> str | None:
    if now.status != "completed":
        return f"says status {now.status or 'unset'} in its file, not completed"
    return None

"""Two memories made one, or one of a conflicting pair let stand: plans for the door.

A merge keeps one file and moves the other to the trash; what the dropped one knew of its place in
the tree (its topics, its references, how much it mattered) is added to the kept one's
frontmatter. Its body is not pasted in: it stays whole in the trash, where `u` or `trash restore`
brings it back, and the person edits the kept body if something of it was worth keeping.
"""

from __future__ import annotations

from ..basics.model import Memory
from ..basics.plans import Operation, Plan
from .lifecycle import richness

MERGE = "merge"
"""The rule of a merge plan."""
RESOLVE_CONFLICT = "resolve conflict"
"""The rule of the plan that lets one of a conflicting pair stand."""

_RANK = {"low": 0, "medium": 1, "high": 2}


def which_to_keep(a: Memory, b: Memory) -> tuple[Memory, Memory]:
    """(keep, drop): the richer of the two, as dedupe judges it (critical first, then references,
    topics, body length, and an original over a merge copy); `a` on a tie."""
    if richness(b) > richness(a):
        return b, a
    return a, b


def merged_values(keep: Memory, drop: Memory) -> dict[str, object]:
    """The frontmatter keys of `keep` a merge changes, and only those.

    - topics: the union, keep's first in its order, then drop's new ones in theirs;
    - reference_count: the sum (both were referenced, and now one file answers for both);
    - importance: the higher of the two words (a word the format does not know ranks below
      `low`, so a known one replaces it);
    - critical: true when either was (a rule read every session must still be read);
    - project: drop's when keep names none;
    - every other key is keep's own, untouched; `updated` is set to today by the edit.
    """
    values: dict[str, object] = {}
    topics = list(dict.fromkeys((*keep.topics, *drop.topics)))
    if topics != list(keep.topics):
        values["topics"] = topics
    if drop.reference_count:
        values["reference_count"] = keep.reference_count + drop.reference_count
    higher = max(
        (word for word in (keep.importance, drop.importance) if word in _RANK),
        key=_RANK.__getitem__,
        default=None,
    )
    if higher is not None and higher != keep.importance:
        values["importance"] = higher
    if drop.critical and not keep.critical:
        values["critical"] = True
    if drop.project and not keep.project:
        values["project"] = drop.project
    return values


def merge_plan(keep: Memory, drop: Memory) -> Plan:
    """Edit `keep` with what `drop` adds (see `merged_values`), then move `drop` to the trash.

    Both steps carry the digest of the file they were planned from: a file changed since is
    never acted on. The trash names `keep` as its target, so when keep's edit is skipped (keep
    changed) the trash is skipped with it and nothing is lost; when only drop changed, keep's
    edit lands and drop stays where it is, the skip said as for any plan.
    """
    if keep.path == drop.path:
        raise ValueError(f"{keep.path}: a memory cannot be merged into itself")
    reason = f"merged with {drop.name}"
    edit = Operation(
        "edit",
        keep.path,
        reason,
        values=merged_values(keep, drop),
        expected=keep.digest or None,
        seen=keep.digest or None,
    )
    trash = Operation(
        "trash",
        drop.path,
        f"merged into {keep.name}",
        target=keep.path,
        seen=drop.digest or None,
        # Judged again on both files once keep's edit ran: the kept file must hold what the
        # dropped one's says, whatever the records the plan was made from said.
        recheck=MERGE,
    )
    return Plan(f"merge {drop.name} into {keep.name}", (edit, trash), rule=MERGE)


def stands_plan(stands: Memory, other: Memory) -> Plan:
    """The person picked which of a conflicting pair stands: the other goes to the trash, unless
    it changed since the pair was shown (then it is judged again, never trashed unseen)."""
    if stands.path == other.path:
        raise ValueError(f"{stands.path}: a memory cannot conflict with itself")
    trash = Operation(
        "trash",
        other.path,
        f"conflicts with {stands.name}, which stands",
        target=stands.path,
        seen=other.digest or None,
    )
    return Plan(f"keep {stands.name} over {other.name}", (trash,), rule=RESOLVE_CONFLICT)

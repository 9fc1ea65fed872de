"""A reviewed batch: the picked candidates of every rule as one plan, and its impact in words."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..basics.json_read import loads as json_loads
from ..basics.json_read import read_regular
from ..basics.model import TASKS_INDEX, Memory, Tree, kind_of_path
from ..basics.plans import Operation, Plan
from ..reading import subconscious
from ..views.lifecycle import APPLY_UPDATES, COMPLETE, DEDUPE, ESCALATE, PROMOTE, PRUNE, Proposal
from ..views.merging import MERGE
from .project_index import find_entry
from .store import Store

# Edits run first, so a memory both escalated (or merged into) and promoted is copied with its new
# fields; copies run before the trash and moves that take their sources away.
RUN_ORDER = (ESCALATE, APPLY_UPDATES, MERGE, PROMOTE, DEDUPE, PRUNE, COMPLETE)

# The rule of a reviewed batch; each of its parts keeps its own rule.
REVIEW = "review"

# Steps that are the second half of another step of their rule, and so said with it: a
# promotion's trash (its copy), an applied update's trash (its index entry), a completion's
# status.md edit (its folder's move).
_SAID_WITH_ANOTHER = frozenset({(PROMOTE, "trash"), (APPLY_UPDATES, "trash"), (COMPLETE, "edit")})

# The step of each rule that is its candidate's change: one per candidate, so counting them
# counts what a batch does (a merge counts by its trash: the pair is merged once the other went).
_HEADLINE = {
    PRUNE: "trash",
    PROMOTE: "copy",
    ESCALATE: "edit",
    DEDUPE: "trash",
    MERGE: "trash",
    COMPLETE: "move",
    APPLY_UPDATES: "project-fields",
}

# The order a batch is said in: the review's sections.
_SAID_ORDER = (PRUNE, PROMOTE, ESCALATE, DEDUPE, MERGE, COMPLETE, APPLY_UPDATES)


@dataclass(frozen=True)
class Folded:
    """A pick that a batch does not do as its rule says, because another part of the batch
    takes its file first: pruned and promoted, the memory is promoted (its copy made, then the
    short-term file trashed once); pruned and escalated, it is escalated (the door never prunes
    what the batch raised to high importance or marked critical)."""

    rule: str
    """The rule it was picked for."""
    path: str
    by: str
    """The rule whose step takes the file instead."""


def _ordered(
    proposals: Iterable[Proposal], picked: Mapping[str, Collection[str]]
) -> list[Proposal]:
    chosen = [p for p in proposals if picked.get(p.name)]
    chosen.sort(key=lambda p: RUN_ORDER.index(p.name) if p.name in RUN_ORDER else len(RUN_ORDER))
    return chosen


def _parts(
    proposals: Iterable[Proposal], picked: Mapping[str, Collection[str]]
) -> tuple[list[Plan], list[Folded]]:
    parts: list[Plan] = []
    folded: list[Folded] = []
    trashed: dict[str, str] = {}
    escalated: set[str] = set()
    for proposal in _ordered(proposals, picked):
        kept: list[Operation] = []
        planned = proposal.plan(set(picked[proposal.name]))
        for op in planned.operations:
            if op.action == "copy" and op.path in trashed:
                # Promoted after an earlier part trashed it (merged into its twin): the door
                # would find it gone.
                folded.append(Folded(proposal.name, op.path, trashed[op.path]))
                continue
            if op.action == "trash":
                taken = trashed.get(op.path)
                if taken is None and proposal.name == PRUNE and op.path in escalated:
                    taken = ESCALATE
                if taken is not None:
                    if (proposal.name, op.action) not in _SAID_WITH_ANOTHER:
                        folded.append(Folded(proposal.name, op.path, taken))
                    continue
                trashed[op.path] = proposal.name
            if proposal.name == ESCALATE and op.action == "edit":
                escalated.add(op.path)
            kept.append(op)
        parts.append(dataclasses.replace(planned, operations=tuple(kept)))
    return parts, folded


def combine(proposals: Iterable[Proposal], picked: Mapping[str, Collection[str]]) -> Plan:
    """One plan of the picked candidates (paths by proposal name), applied and undone as a unit:
    a batch whose parts are the rules' plans, in the order they run.

    A file two rules would trash (pruned and promoted, say) is trashed once, by the first; a
    memory the batch escalates is not pruned by it (the door would refuse it). `folded` says
    which picks those are. The plan is named for what it does, rule by rule.
    """
    parts, _ = _parts(proposals, picked)
    operations = tuple(op for part in parts for op in part.operations)
    return Plan(batch_name(parts), operations, rule=REVIEW, parts=tuple(parts))


def folded(proposals: Iterable[Proposal], picked: Mapping[str, Collection[str]]) -> list[Folded]:
    """The picks that `combine` leaves to another part of the batch, in the order they run."""
    return _parts(proposals, picked)[1]


def counts(parts: Iterable[Plan]) -> dict[str, int]:
    """How many candidates each rule of a batch acts on (rules with none left out), in the
    order they run."""
    found: dict[str, int] = {}
    for part in parts:
        headline = _HEADLINE.get(part.rule)
        n = sum(op.action == headline for op in part.operations)
        if n:
            found[part.rule] = found.get(part.rule, 0) + n
    return found


def batch_name(parts: Iterable[Plan], none: str = "nothing to do") -> str:
    """`review: promote 1, prune 3`: what a batch does, rule by rule (`none` when nothing)."""
    said = ", ".join(f"{rule} {n}" for rule, n in counts(parts).items())
    return f"{REVIEW}: {said or none}"


def done_name(plan: Plan, ran: Collection[int]) -> str:
    """The name of a batch as far as it ran: counted from the steps numbered in `ran` (the
    others were skipped)."""
    done, parts, index = set(ran), [], 0
    for part in plan.parts:
        steps = range(index, index + len(part.operations))
        kept = tuple(op for i, op in zip(steps, part.operations, strict=True) if i in done)
        parts.append(dataclasses.replace(part, operations=kept))
        index += len(part.operations)
    return batch_name(parts, none="nothing done")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _trash_summary(gone: list[Memory]) -> str:
    critical = sum(m.critical for m in gone)
    refs = sum(m.reference_count for m in gone)
    return f"{critical} critical, referenced {_count(refs, 'time', 'times')} in total"


_PICKED_FOR = {
    PRUNE: "to prune",
    DEDUPE: "as a duplicate",
    MERGE: "to merge",
    PROMOTE: "to promote",
}
_INSTEAD = {
    PROMOTE: "promoted instead",
    ESCALATE: "escalated instead (an escalated memory is not pruned)",
    DEDUPE: "removed as a duplicate instead",
    MERGE: "merged into the memory it says the same as instead",
    PRUNE: "pruned instead",
}
_NAMED = 3
"""Files named in a line about folded picks; the rest are counted."""


def _folded_lines(found: Iterable[Folded], tree: Tree) -> list[str]:
    titles = {m.path: m.title for m in tree.memories}
    groups: dict[tuple[str, str], list[str]] = {}
    for fold in found:
        groups.setdefault((fold.rule, fold.by), []).append(titles.get(fold.path, fold.path))
    lines = []
    for (rule, by), names in groups.items():
        more = f" and {len(names) - _NAMED} more" if len(names) > _NAMED else ""
        picked = f"{len(names)} picked {_PICKED_FOR.get(rule, 'for ' + rule)}"
        verb = "is" if len(names) == 1 else "are"
        instead = _INSTEAD.get(by, f"taken by {by} instead")
        lines.append(f"{picked} {verb} {instead}: {', '.join(names[:_NAMED])}{more}.")
    return lines


def describe(plan: Plan, tree: Tree, folded: Iterable[Folded] = ()) -> list[str]:
    """The plan's impact in words, one line per kind of change in the review's order, from the
    rule that planned each operation and the records of the files they touch; then the picks
    another part of the batch takes (`folded`)."""
    memories = {m.path: m for m in tree.memories}
    trashed: dict[str, list[Memory]] = {}
    completed: set[str] = set()
    promoted = raised = marked = applied = merged = other = 0
    for rule, op in plan.by_rule():
        if (rule, op.action) in _SAID_WITH_ANOTHER:
            continue
        if rule == MERGE and op.action == "trash":
            merged += 1
        elif op.action == "trash" and op.path in memories:
            trashed.setdefault(rule if rule in (PRUNE, DEDUPE) else "", []).append(
                memories[op.path]
            )
        elif rule == PROMOTE and op.action == "copy":
            promoted += 1
        elif rule == ESCALATE and op.action == "edit":
            raised += op.values.get("importance") == "high"
            marked += op.values.get("critical") is True
        elif rule == COMPLETE and op.action == "move":
            completed.add(op.path)
        elif rule == APPLY_UPDATES and op.action == "project-fields":
            applied += 1
        elif rule == MERGE and op.action == "edit":
            continue  # said with its trash: a pair is merged once the other goes
        else:
            other += 1
    said: dict[str, str] = {}
    if PRUNE in trashed:
        gone = trashed[PRUNE]
        memories_ = _count(len(gone), "memory", "memories")
        said[PRUNE] = f"Prune {memories_} to the trash: {_trash_summary(gone)}."
    if promoted:
        said[PROMOTE] = f"Promote {promoted} to long-term memory."
    escalations = []
    if raised:
        escalations.append(f"raise {raised} to high importance")
    if marked:
        escalations.append(f"mark {marked} critical")
    if escalations:
        text = "; ".join(escalations)
        said[ESCALATE] = text[0].upper() + text[1:] + "."
    if DEDUPE in trashed:
        gone = trashed[DEDUPE]
        copies = _count(len(gone), "duplicate", "duplicates")
        said[DEDUPE] = f"Move {copies} to the trash: {_trash_summary(gone)}."
    if merged:
        said[MERGE] = (
            f"Merge {_count(merged, 'pair', 'pairs')}: the memory kept takes the other's topics "
            "and references (and the higher importance); the other goes to the trash."
        )
    if completed:
        n = len(completed)
        where = "its folder moves" if n == 1 else "their folders move"
        said[COMPLETE] = f"Complete {_count(n, 'task', 'tasks')} ({where} to work experience)."
    if applied:
        update = _count(applied, "pending project update", "pending project updates")
        said[APPLY_UPDATES] = f"Apply {update} to the current-tasks index."
    lines = [said[rule] for rule in _SAID_ORDER if rule in said]
    if "" in trashed:
        gone = trashed[""]
        lines.append(
            f"Move {_count(len(gone), 'memory', 'memories')} to the trash: {_trash_summary(gone)}."
        )
    if other:
        lines.append(f"And {_count(other, 'other file operation', 'other file operations')}.")
    lines.extend(_folded_lines(folded, tree))
    gone_paths = [op.path for op in plan.operations if op.action == "trash" and op.path in memories]
    lines.extend(also_goes_lines(plan, tree))
    return lines + subconscious.warnings(tree, gone_paths)


def goes_with(paths: Iterable[str], tree: Tree) -> list[str]:
    """Every file that a trash or move of these paths takes along unseen: the other files of each
    project folder (any depth) and the hidden Markdown in it, sorted, named from the kind folder
    (`gateway/docs/design.md`); a hidden one is marked `(hidden)`."""
    folders: set[str] = set()
    for path in paths:
        kind = kind_of_path(path)
        if kind is None or not kind.is_project_kind:
            continue
        parts = path.removeprefix(kind.folder + "/").split("/")
        folders.add(f"{kind.folder}/{parts[0]}")
    if not folders:
        return []
    names: list[tuple[str, str]] = []
    for folder in sorted(folders):
        kind_folder = folder.rsplit("/", 1)[0] + "/"
        memory = next((m for m in tree.memories if m.path == f"{folder}/status.md"), None)
        for companion in memory.companions if memory is not None else ():
            names.append((companion, companion.removeprefix(kind_folder)))
        for warning in tree.unlisted:
            if warning.path.startswith(folder + "/"):
                names.append((warning.path, f"{warning.path.removeprefix(kind_folder)} (hidden)"))
    return [name for _, name in sorted(names)]


def also_goes_lines(plan: Plan, tree: Tree) -> list[str]:
    """`Also goes: gateway/docs/design.md, gateway/notes.md.` for the folders a plan trashes or
    moves, so no file leaves unnamed; nothing when they hold only their status.md."""
    paths = [op.path for op in plan.operations if op.action in ("trash", "move")]
    names = goes_with(paths, tree)
    return [f"Also goes: {', '.join(names)}."] if names else []


@dataclass(frozen=True)
class FieldChange:
    """One key of a project's current-tasks index entry, as it is and as an update proposes."""

    key: str
    current: Any
    """None when the entry, the key or a readable index is missing."""
    proposed: Any


def index_changes(store: Store, operation: Operation) -> tuple[FieldChange, ...]:
    """What a `project-fields` operation would change in the current-tasks index entry."""
    try:
        data = json_loads(read_regular(store.safe_path(TASKS_INDEX)))
    except (OSError, ValueError):
        data = {}
    entry = find_entry(data, operation.target or "") if isinstance(data, dict) else None
    return tuple(
        FieldChange(key, (entry or {}).get(key), value) for key, value in operation.values.items()
    )

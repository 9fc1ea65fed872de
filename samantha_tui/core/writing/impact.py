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


def combine(proposals: Iterable[Proposal], picked: Mapping[str, Collection[str]]) -> Plan:
    """One plan of the picked candidates (paths by proposal name), applied and undone as a unit:
    a batch whose parts are the rules' plans, in the order they run.

    A file two rules would trash (pruned and promoted, say) is trashed once, by the first.
    """
    chosen = [p for p in proposals if picked.get(p.name)]
    chosen.sort(key=lambda p: RUN_ORDER.index(p.name) if p.name in RUN_ORDER else len(RUN_ORDER))
    parts: list[Plan] = []
    trashed: set[str] = set()
    counts: list[str] = []
    for proposal in chosen:
        wanted = set(picked[proposal.name])
        counts.append(f"{proposal.name} {sum(c.path in wanted for c in proposal.candidates)}")
        kept: list[Operation] = []
        planned = proposal.plan(wanted)
        for op in planned.operations:
            if op.action == "trash":
                if op.path in trashed:
                    continue
                trashed.add(op.path)
            kept.append(op)
        parts.append(dataclasses.replace(planned, operations=tuple(kept)))
    operations = tuple(op for part in parts for op in part.operations)
    return Plan(f"review: {', '.join(counts)}", operations, rule=REVIEW, parts=tuple(parts))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def describe(plan: Plan, tree: Tree) -> list[str]:
    """The plan's impact in words, one line per kind of change, from the rule that planned each
    operation and the records of the files they touch."""
    memories = {m.path: m for m in tree.memories}
    trashed: list[Memory] = []
    completed: set[str] = set()
    promoted = raised = marked = applied = merged = other = 0
    for rule, op in plan.by_rule():
        if (rule, op.action) in _SAID_WITH_ANOTHER:
            continue
        if op.action == "trash" and op.path in memories:
            trashed.append(memories[op.path])
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
            merged += 1
        else:
            other += 1
    lines = []
    if trashed:
        critical = sum(m.critical for m in trashed)
        refs = sum(m.reference_count for m in trashed)
        lines.append(
            f"Move {_count(len(trashed), 'memory', 'memories')} to the trash: "
            f"{critical} critical, referenced {_count(refs, 'time', 'times')} in total."
        )
    if merged:
        lines.append(
            f"Merge {_count(merged, 'pair', 'pairs')}: the memory kept takes the other's topics "
            "and references (and the higher importance)."
        )
    if promoted:
        lines.append(f"Promote {promoted} to long-term memory.")
    escalations = []
    if raised:
        escalations.append(f"raise {raised} to high importance")
    if marked:
        escalations.append(f"mark {marked} critical")
    if escalations:
        text = "; ".join(escalations)
        lines.append(text[0].upper() + text[1:] + ".")
    if completed:
        n = len(completed)
        where = "its folder moves" if n == 1 else "their folders move"
        lines.append(f"Complete {_count(n, 'task', 'tasks')} ({where} to work experience).")
    if applied:
        update = _count(applied, "pending project update", "pending project updates")
        lines.append(f"Apply {update} to the current-tasks index.")
    if other:
        lines.append(f"And {_count(other, 'other file operation', 'other file operations')}.")
    gone = [op.path for op in plan.operations if op.action == "trash" and op.path in memories]
    lines.extend(also_goes_lines(plan, tree))
    return lines + subconscious.warnings(tree, gone)


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

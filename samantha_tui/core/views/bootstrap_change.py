"""What a plan does to the bootstrap: what the assistant loads at start-up before the plan and
after it, as samantha-llm would find the tree once the door applied the plan (its index files
patched), worked out in memory (plan_outcome.py) with nothing written.

Files are compared by path; a file the plan copies or moves (a promotion, a completed task) is
followed to its new path, so it reads as one file changing tier, not one going and one coming.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from ..basics.model import Memory, Tree
from ..basics.plans import Plan
from ..reading.triggers import Signals
from .bootstrap import BootstrapPlan, Tier, plan
from .plan_outcome import Unforeseeable, outcome_of

__all__ = ["BootstrapChange", "FileChange", "Unforeseeable", "bootstrap_change"]

Where = tuple[Tier, str, int]
"""A file's place in a bootstrap plan: its tier (ON_DEMAND for long-term read only when needed),
its title, its tokens."""


@dataclass(frozen=True)
class FileChange:
    """One file whose place in the bootstrap the plan changes."""

    path: str
    """Where the file is after the plan (where it was, when the plan removes it)."""
    title: str
    before: Tier | None
    """Its tier before the plan: ON_DEMAND when listed for later, None when not in the plan."""
    after: Tier | None
    tokens_before: int
    tokens_after: int
    was: str | None = None
    """Its path before the plan, when the plan copies or moves it to `path`."""
    gone: bool = False
    """The file is no longer in the tree after the plan (trashed)."""
    critical: bool = False
    """`critical: true` in its file, before or after the plan."""

    @property
    def loads_before(self) -> bool:
        return self.before is not None and self.before is not Tier.ON_DEMAND

    @property
    def loads_after(self) -> bool:
        return self.after is not None and self.after is not Tier.ON_DEMAND


@dataclass(frozen=True)
class BootstrapChange:
    """The bootstrap plan before and after a plan's operations, and what differs."""

    before: BootstrapPlan
    after: BootstrapPlan
    changes: tuple[FileChange, ...]
    """Every file whose tier or size at start-up the plan changes, in the order of `before`,
    then the files that start loading in the order of `after`."""
    critical: tuple[FileChange, ...]
    """The critical memories the plan touches (trashed, moved, edited), each with its tiers."""
    skipped: tuple[str, ...] = ()
    """Steps the door would skip: their file changed since the plan was made."""

    @property
    def tokens_before(self) -> int:
        return self.before.total_tokens

    @property
    def tokens_after(self) -> int:
        return self.after.total_tokens

    @property
    def freed(self) -> int:
        """Tokens the plan takes off the start-up load (negative: it adds)."""
        return self.tokens_before - self.tokens_after

    @property
    def stops(self) -> tuple[FileChange, ...]:
        """Files that load at start-up now and would not after the plan."""
        return tuple(c for c in self.changes if c.loads_before and not c.loads_after)

    @property
    def starts(self) -> tuple[FileChange, ...]:
        """Files that would load at start-up after the plan and do not now."""
        return tuple(c for c in self.changes if c.loads_after and not c.loads_before)

    @property
    def moves(self) -> tuple[FileChange, ...]:
        """Files that load both before and after, in another tier or at another path."""
        return tuple(
            c
            for c in self.changes
            if c.loads_before and c.loads_after and (c.before is not c.after or c.was)
        )

    def __bool__(self) -> bool:
        """Whether the plan changes anything the assistant loads or lists."""
        return bool(self.changes or self.critical) or self.before != self.after


def _places(bootstrap: BootstrapPlan) -> dict[str, Where]:
    places: dict[str, Where] = {}
    for item in bootstrap.items:
        places.setdefault(item.path, (item.tier, item.title, item.tokens))
    for later in bootstrap.on_demand:
        places.setdefault(later.path, (Tier.ON_DEMAND, later.title, later.tokens))
    return places


def _followed(plan_: Plan) -> dict[str, str]:
    """Each path after the plan that a copy or move made, with the path it came from."""
    moved: dict[str, str] = {}
    for op in plan_.operations:
        if op.action in ("copy", "move") and op.target:
            moved[op.target] = moved.get(op.path, op.path)
    return moved


def _source(path: str, moved: dict[str, str]) -> str | None:
    """The path before the plan of a file at `path` after it, when a copy or move put it there
    (a file inside a moved folder too)."""
    for target, source in moved.items():
        if path == target:
            return source
        if path.startswith(target + "/"):
            return source + path[len(target) :]
    return None


def _named(plan_: Plan) -> set[str]:
    return {path for op in plan_.operations for path in (op.path, op.target) if path}


def _touches(path: str, named: Iterable[str]) -> bool:
    return any(path == n or path.startswith(n + "/") for n in named)


def bootstrap_change(
    tree: Tree[Memory],
    plan_: Plan,
    today: dt.date,
    signals: Signals | None = None,
    budget: int | None = None,
) -> BootstrapChange:
    """The bootstrap plan of `tree` before `plan_` and after the door applied it on `today`
    (index files patched), for the same signals and budget; nothing is written.

    Raises Unforeseeable for a plan the door would refuse or whose result cannot be read ahead,
    and bootstrap.UnknownProject when `signals` name a project that is not a current task.
    """
    signals = signals or Signals()
    before = plan(tree, signals, today, budget)
    outcome = outcome_of(tree, plan_, today)
    after = plan(outcome.tree, signals, today, budget, index_files=outcome.index_files)
    old, new = _places(before), _places(after)
    by_path_before = {m.path: m for m in tree.memories}
    by_path_after = {m.path: m for m in outcome.tree.memories}
    moved = _followed(plan_)
    was_of = {
        path: source
        for path in (*new, *by_path_after)
        if (source := _source(path, moved)) is not None
    }
    came_from = set(was_of.values())

    def change(path: str, was: str | None) -> FileChange | None:
        first, then = old.get(was or path), new.get(path)
        if first is None and then is None:
            return None
        if was is None and first is not None and then is not None and first[::2] == then[::2]:
            return None
        memory_before = by_path_before.get(was or path)
        memory_after = by_path_after.get(path)
        return FileChange(
            path=path,
            title=(then or first or (Tier.ON_DEMAND, path, 0))[1],
            before=first[0] if first else None,
            after=then[0] if then else None,
            tokens_before=first[2] if first else 0,
            tokens_after=then[2] if then else 0,
            was=was,
            gone=memory_after is None and memory_before is not None,
            critical=any(m is not None and m.critical for m in (memory_before, memory_after)),
        )

    changes: list[FileChange] = []
    seen: set[str] = set()
    # Before's files in its order (a moved one is said at its new path), then the new ones.
    for path in (*(p for p in old if p not in came_from), *new, *by_path_after):
        if path in seen:
            continue
        seen.add(path)
        found = change(path, was_of.get(path))
        if found is not None:
            changes.append(found)

    named = _named(plan_)
    by_path = {c.was or c.path: c for c in changes} | {c.path: c for c in changes}
    critical: list[FileChange] = []
    for memory in tree.memories:
        if not memory.critical or not _touches(memory.path, named):
            continue
        known = by_path.get(memory.path)
        if known is None:
            tier = old.get(memory.path)
            now = new.get(memory.path)
            known = FileChange(
                memory.path,
                memory.title,
                tier[0] if tier else None,
                now[0] if now else None,
                tier[2] if tier else 0,
                now[2] if now else 0,
                gone=memory.path not in by_path_after,
                critical=True,
            )
        critical.append(known)
    return BootstrapChange(before, after, tuple(changes), tuple(critical), outcome.skipped)

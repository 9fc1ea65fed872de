"""What the assistant loads at session start, in order, with reasons, sizes and near misses."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .model import Kind, Memory, Severity, Tree
from .triggers import (
    LoadingStrategy,
    MalformedTriggers,
    Signals,
    evaluate,
    read_strategy,
    read_triggers,
)

FREQUENT_REFERENCES = 5
RECENT_DAYS = 30
NEAR_MISS_DAYS = 90
"""High-importance short-term memories this old are still worth naming as just missed."""
CHARS_PER_TOKEN = 4
SHOWN_NAMES = 10
"""An error naming the current projects names at most this many."""
_IMPORTANCE_RANK = {"high": 0, "medium": 1, "low": 2}

__all__ = [
    "BootstrapPlan",
    "NearMiss",
    "OnDemand",
    "PlanItem",
    "Signals",
    "Tier",
    "UnknownProject",
    "plan",
]


class Tier(Enum):
    """Bootstrap tiers in load order; ON_DEMAND is listed but never loaded at start."""

    CRITICAL = "critical"
    FREQUENT = "frequent"
    PROJECT = "project"
    RECENT_HIGH = "recent"
    RUNBOOK = "runbook"
    ON_DEMAND = "on-demand"


class UnknownProject(ValueError):
    """The chosen project is not a current task; the message names the ones that are."""


@dataclass(frozen=True)
class PlanItem:
    tier: Tier
    path: str
    title: str
    reason: str
    lines: int
    chars: int
    tokens: int
    running_tokens: int
    over_budget: bool


@dataclass(frozen=True)
class NearMiss:
    path: str
    title: str
    reason: str


@dataclass(frozen=True)
class OnDemand:
    path: str
    title: str
    tokens: int


@dataclass(frozen=True)
class BootstrapPlan:
    """What loads, in order, with running totals; what just missed; what waits for the session."""

    items: tuple[PlanItem, ...]
    near_misses: tuple[NearMiss, ...]
    on_demand: tuple[OnDemand, ...]
    total_tokens: int
    budget: int | None
    project: str | None
    """The current project the plan was made for (chosen, or the only active one)."""
    strategy: LoadingStrategy
    notes: tuple[str, ...] = ()

    @property
    def budget_runs_out_at(self) -> int | None:
        """Index of the first item past the budget, or None when everything fits."""
        return next((i for i, item in enumerate(self.items) if item.over_budget), None)


# --- sizes ---------------------------------------------------------------------------------------


def file_size(memory: Memory) -> tuple[int, int]:
    """(lines, characters) of the whole file, frontmatter included, as the assistant reads it."""
    return memory.lines, memory.chars


def estimate_tokens(chars: int) -> int:
    """About four characters per token, rounded up so no file counts as free."""
    return -(-chars // CHARS_PER_TOKEN)


# --- the rules -----------------------------------------------------------------------------------


def _project_name(status: Memory) -> str:
    return status.path.rsplit("/", 2)[-2]


def _projects(memories: Iterable[Memory], kind: Kind) -> dict[str, Memory]:
    return {
        _project_name(m): m
        for m in memories
        if m.kind is kind and m.path.count("/") > kind.folder.count("/") + 1
    }


def active_projects(tree: Tree) -> list[str]:
    """The names of the current tasks whose status.md says active and reads cleanly, sorted."""
    return sorted(
        memory.path.rsplit("/", 2)[-2]
        for memory in tree.of_kind(Kind.CURRENT_TASKS)
        if memory.status == "active"
        and not memory.has_errors
        and memory.path.count("/") > Kind.CURRENT_TASKS.folder.count("/") + 1
    )


def _age(days: int) -> str:
    if days == 0:
        return "from today"
    if days < 0:
        return f"dated {-days} day{'s' * (days != -1)} ahead"
    return f"{days} day{'s' * (days != 1)} old"


def _by_path(memories: Iterable[Memory]) -> list[Memory]:
    return sorted(memories, key=lambda m: m.path)


@dataclass(frozen=True)
class _Project:
    name: str | None
    statuses: tuple[tuple[Memory, str], ...]
    notes: tuple[str, ...]


def _choose_project(tree: Tree, chosen: str | None) -> _Project:
    """The current project and the status files to load, following the real bootstrap's step 4."""
    current = _projects(tree.memories, Kind.CURRENT_TASKS)
    active = {name: m for name, m in current.items() if m.status == "active" and not m.has_errors}
    if chosen is not None:
        status = current.get(chosen)
        if status is None:
            if chosen in _projects(tree.memories, Kind.WORK_EXPERIENCE):
                raise UnknownProject(f"project {chosen!r} is completed (in work experience)")
            names = ", ".join(sorted(current)[:SHOWN_NAMES]) or "none"
            if len(current) > SHOWN_NAMES:
                names += f" and {len(current) - SHOWN_NAMES} more"
            raise UnknownProject(f"no project {chosen!r} in current tasks (current: {names})")
        if status.has_errors:
            problem = next(p for p in status.problems if p.severity is Severity.ERROR)
            raise UnknownProject(f"project {chosen!r} cannot be read: {problem.message}")
        others = [(m, f"project {name} is active") for name, m in sorted(active.items())]
        first = (status, f"project {chosen} is current (chosen)")
        return _Project(chosen, (first, *[o for o in others if o[0] is not status]), ())
    if len(active) == 1:
        name, status = next(iter(active.items()))
        return _Project(name, ((status, f"project {name} is the only active project"),), ())
    if not active:
        return _Project(None, (), ("no active project in current tasks",))
    statuses = tuple((m, f"project {name} is active") for name, m in sorted(active.items()))
    note = "several active projects and none chosen: only their status files load"
    return _Project(None, statuses, (note,))


def _project_memories(usable: list[Memory], project: str) -> Iterator[tuple[Memory, str]]:
    mine = [
        m for m in usable if m.project == project and m.kind in (Kind.SHORT_TERM, Kind.LONG_TERM)
    ]
    mine.sort(key=lambda m: m.path)
    mine.sort(key=lambda m: m.date or dt.date.min, reverse=True)
    mine.sort(key=lambda m: _IMPORTANCE_RANK.get(m.importance or "", 3))
    for m in mine:
        yield m, f"project {project}, {m.importance or 'unset'} importance"


def _categories(names: Iterable[str]) -> str:
    return " + ".join(names)


def _runbooks(
    usable: list[Memory], signals: Signals, strategy: LoadingStrategy
) -> tuple[list[tuple[Memory, str]], list[tuple[Memory, str]]]:
    """(runbooks that load, runbooks that just missed), each with its reason."""
    loads, misses = [], []
    needed = strategy.minimum_positive_categories
    for memory in _by_path(m for m in usable if m.kind is Kind.PROCEDURAL):
        try:
            triggers = read_triggers(memory.frontmatter.get("triggers"))
        except MalformedTriggers as error:
            misses.append((memory, f"runbook: {error}"))
            continue
        verdict = evaluate(triggers, signals, strategy)
        matched = f"{_categories(verdict.matched)} signals matched" if verdict.matched else ""
        if verdict.veto is not None:
            veto = verdict.veto
            why = f"negative signal {veto.signal!r} matched {verdict.veto_input}"
            why += f" ({veto.reason})" if veto.reason else ""
            if not strategy.negative_signals_are_veto and verdict.loads:
                loads.append((memory, f"runbook: {matched}; {why}, not a veto here"))
            else:
                misses.append((memory, f"runbook: {matched + ' but ' if matched else ''}{why}"))
        elif verdict.loads:
            loads.append((memory, f"runbook: {matched}"))
        elif verdict.matched:
            shown = "category" if needed == 1 else "categories"
            misses.append((memory, f"runbook: only {matched}, {needed} {shown} needed"))
    return loads, misses


def _pending_notes(tree: Tree) -> list[str]:
    by_project: dict[str, int] = {}
    for update in tree.pending_updates:
        by_project[update.project] = by_project.get(update.project, 0) + 1
    return [
        f"{count} pending project update{'s' * (count != 1)} for {project}: "
        "review with `samantha-llm projects review`"
        for project, count in sorted(by_project.items())
    ]


def _sized(candidates: Iterable[tuple[Tier, Memory, str]], budget: int | None) -> list[PlanItem]:
    """Each memory once, in its first tier, with its size and the running total."""
    items: list[PlanItem] = []
    seen: set[str] = set()
    running = 0
    for tier, memory, reason in candidates:
        if memory.path in seen:
            continue
        seen.add(memory.path)
        lines, chars = file_size(memory)
        tokens = estimate_tokens(chars)
        running += tokens
        over = budget is not None and running > budget
        items.append(
            PlanItem(tier, memory.path, memory.title, reason, lines, chars, tokens, running, over)
        )
    return items


def plan(tree: Tree, signals: Signals, today: dt.date, budget: int | None = None) -> BootstrapPlan:
    """The bootstrap order for a tree: tiers in load order, each memory once, in its first tier.

    Memories whose frontmatter cannot be read never load and are not listed. Reads the procedural
    index.json for its `loading_strategy`; raises UnknownProject for a project not in current tasks.
    """
    if budget is not None and budget < 1:
        raise ValueError(f"budget must be at least 1 token, not {budget}")
    usable = [m for m in tree.memories if not m.has_errors]
    project = _choose_project(tree, signals.project)
    signals = dataclasses.replace(signals, project=project.name)
    strategy = read_strategy(Path(tree.root))
    short = _by_path(m for m in usable if m.kind is Kind.SHORT_TERM)
    long = _by_path(m for m in usable if m.kind is Kind.LONG_TERM)

    frequent = sorted(
        (m for m in short if m.reference_count >= FREQUENT_REFERENCES),
        key=lambda m: -m.reference_count,
    )
    # Ages are taken from `today`, not the scan's day, so a plan can be made for any date.
    ages = {m.path: (today - m.date).days for m in short if m.date is not None}
    recent = sorted(
        (m for m in short if m.importance == "high" and m.path in ages),
        key=lambda m: ages[m.path],
    )
    runbooks, runbook_misses = _runbooks(usable, signals, strategy)
    project_items = list(project.statuses)
    if project.name is not None:
        project_items[1:1] = list(_project_memories(usable, project.name))

    candidates: list[tuple[Tier, Memory, str]] = [
        *((Tier.CRITICAL, m, "critical") for m in short + long if m.critical),
        *((Tier.FREQUENT, m, f"referenced {m.reference_count} times") for m in frequent),
        *((Tier.PROJECT, m, reason) for m, reason in project_items),
        *(
            (Tier.RECENT_HIGH, m, f"high importance, {_age(ages[m.path])}")
            for m in recent
            if ages[m.path] <= RECENT_DAYS
        ),
        *((Tier.RUNBOOK, m, reason) for m, reason in runbooks),
    ]
    items = _sized(candidates, budget)
    loaded = {item.path for item in items}

    near: list[tuple[Memory, str]] = [
        *(
            (m, f"referenced {m.reference_count} times, one short of {FREQUENT_REFERENCES}")
            for m in short
            if m.reference_count == FREQUENT_REFERENCES - 1
        ),
        *(
            (m, f"high importance but {ages[m.path]} days old")
            for m in recent
            if RECENT_DAYS < ages[m.path] <= NEAR_MISS_DAYS
        ),
        *(
            (m, f"project {name} is {m.status or 'without a status'}, not active")
            for name, m in sorted(_projects(usable, Kind.CURRENT_TASKS).items())
            if m.status != "active"
        ),
        *runbook_misses,
    ]
    near_misses: list[NearMiss] = []
    for memory, reason in near:
        if memory.path not in loaded:
            loaded.add(memory.path)
            near_misses.append(NearMiss(memory.path, memory.title, reason))

    on_demand = tuple(
        OnDemand(m.path, m.title, estimate_tokens(file_size(m)[1]))
        for m in long
        if m.path not in loaded
    )
    notes = [*project.notes, *_pending_notes(tree)]
    waiting = len(tree.awaiting_merge)
    if waiting:
        notes.append(f"{waiting} subconscious session{'s' * (waiting != 1)} awaiting merge")
    return BootstrapPlan(
        items=tuple(items),
        near_misses=tuple(near_misses),
        on_demand=on_demand,
        total_tokens=items[-1].running_tokens if items else 0,
        budget=budget,
        project=project.name,
        strategy=strategy,
        notes=tuple(notes),
    )

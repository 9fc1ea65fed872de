"""What the assistant loads at session start, in order, with reasons, sizes and near misses.

The assistant loads from the index.json files, not from the memory files: where a kind has an
index, its lists decide what loads, and every place where the index and the files disagree is
marked on the item or near miss it concerns. A kind without a readable index is planned from its
files, and the plan says so (`sources`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from ..basics.model import Kind, Memory, Severity, Tree
from ..reading.triggers import (
    STRATEGY_INDEX,
    LoadingStrategy,
    MalformedTriggers,
    Signals,
    Triggers,
    Verdict,
    evaluate,
    matching_signals,
    read_strategy,
    read_triggers,
    strategy_from_bytes,
)
from . import index_view
from .index_view import IndexedProject, IndexFile
from .merge_copies import MERGE_COPY_NAME, original_of

FREQUENT_REFERENCES = 5
RECENT_DAYS = 30
NEAR_MISS_DAYS = 90
"""High-importance short-term memories this old are still worth naming as just missed."""
CHARS_PER_TOKEN = 4
SHOWN_NAMES = 10
"""An error naming the current projects names at most this many."""
SHOWN_VALUE = 40
"""A frontmatter value quoted in a disagreement is cut to this many characters."""
_IMPORTANCE_RANK = {"high": 0, "medium": 1, "low": 2}
INDEXED_KINDS = (Kind.SHORT_TERM, Kind.LONG_TERM, Kind.CURRENT_TASKS, Kind.PROCEDURAL)
"""The kinds whose index.json the assistant reads at start-up, in the order it reads them."""
REFRESH = "(press r, or run `samantha-tui index`)"
UNTIL_UPDATED = f"until the index is updated {REFRESH}"

__all__ = [
    "BootstrapPlan",
    "NearMiss",
    "OnDemand",
    "PlanItem",
    "Signals",
    "Source",
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
    disagreements: tuple[str, ...] = ()
    """Where index.json and the files disagree about this file, each said so a person can act."""
    file_found: bool = True
    """False for a project the assistant knows only from index.json: no file, so no size."""
    index_status: str = ""
    """A project's `status` as index.json writes it (often hand-written phase text)."""
    index_summary: str = ""
    """A project's `summary` from index.json."""


@dataclass(frozen=True)
class NearMiss:
    path: str
    title: str
    reason: str
    disagreements: tuple[str, ...] = ()
    file_found: bool = True


@dataclass(frozen=True)
class OnDemand:
    path: str
    title: str
    tokens: int


@dataclass(frozen=True)
class Source:
    """Where the plan took one kind from: its index.json, or (saying why) its files."""

    kind: Kind
    index: str
    """The index.json path, relative to the cerebrum root."""
    from_index: bool
    note: str = ""
    """For a kind planned from its files: why, and what the assistant does instead."""


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
    sources: tuple[Source, ...] = ()

    @property
    def budget_runs_out_at(self) -> int | None:
        """Index of the first item past the budget, or None when everything fits."""
        return next((i for i, item in enumerate(self.items) if item.over_budget), None)

    @property
    def disagreements(self) -> int:
        """How many places index.json and the files disagree, over items and near misses."""
        rows: tuple[PlanItem | NearMiss, ...] = (*self.items, *self.near_misses)
        return sum(len(row.disagreements) for row in rows)


# --- sizes ---------------------------------------------------------------------------------------


def file_size(memory: Memory) -> tuple[int, int]:
    """(lines, characters) of the whole file, frontmatter included, as the assistant reads it."""
    return memory.lines, memory.chars


def estimate_tokens(chars: int) -> int:
    """About four characters per token, rounded up so no file counts as free."""
    return -(-chars // CHARS_PER_TOKEN)


# --- candidates and their marks ------------------------------------------------------------------


@dataclass(frozen=True)
class _Load:
    """A file that loads or just missed, with why; `memory` is None when there is no file."""

    path: str
    title: str
    reason: str
    memory: Memory | None
    index_status: str = ""
    index_summary: str = ""


def _load(memory: Memory, reason: str) -> _Load:
    return _Load(memory.path, memory.title, reason, memory)


class _Marks:
    """Disagreements between index.json and the files, by the path they concern, in order."""

    def __init__(self) -> None:
        self.by_path: dict[str, list[str]] = {}

    def add(self, path: str, text: str) -> None:
        found = self.by_path.setdefault(path, [])
        if text not in found:
            found.append(text)

    def of(self, path: str) -> tuple[str, ...]:
        return tuple(self.by_path.get(path, ()))


def _value(value: object) -> str:
    text = str(value).lower() if isinstance(value, bool) else " ".join(str(value).split())
    return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 1] + "…"


def _says(memory: Memory, key: str) -> str:
    """`its file says importance: medium`, or that the key is missing."""
    value = memory.frontmatter.get(key)
    if value is None:
        return f"its file has no `{key}`"
    return f"its file says {key}: {_value(value)}"


def _unreadable(memory: Memory, listing: str) -> str:
    problem = next(p for p in memory.problems if p.severity is Severity.ERROR)
    return f"in index.json's {listing} list; its frontmatter cannot be read ({problem.message})"


def _not_found(listing: str) -> str:
    return (
        f"listed in index.json's {listing} list, file not found: the assistant finds nothing to"
        f" read (fix or remove the entry {REFRESH})"
    )


# --- the rules -----------------------------------------------------------------------------------


def _project_name(status: Memory) -> str:
    return status.path.rsplit("/", 2)[-2]


def _projects(memories: Iterable[Memory], kind: Kind) -> dict[str, Memory]:
    return {
        _project_name(m): m
        for m in memories
        if m.kind is kind and m.path.count("/") > kind.folder.count("/") + 1
    }


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def _match_folders(indexed: list[IndexedProject], folders: Iterable[str]) -> dict[str, str]:
    """Each index project's folder: by its `files` paths first, then by its name.

    A name never claims a folder that another entry's `files` already names.
    """
    folders = list(folders)
    matched: dict[str, str] = {}
    for project in indexed:
        for file in project.files:
            folder = file.split("/", 1)[0]
            if "/" in file and folder in folders:
                matched[project.name] = folder
                break
    for project in indexed:
        if project.name in matched:
            continue
        claimed = set(matched.values())
        free = [f for f in folders if f not in claimed]
        for same in (str.__str__, str.casefold, _slug):
            found = next((f for f in free if same(f) == same(project.name)), None)
            if found is not None:
                matched[project.name] = found
                break
    return matched


def active_projects(tree: Tree) -> list[str]:
    """The projects one can choose as current, sorted.

    With a current-tasks index.json: its `active` names, plus folders whose status.md says active
    that no entry claims. Without one: the folders whose status.md says active and reads cleanly.
    """
    folders = _projects(tree.memories, Kind.CURRENT_TASKS)
    active = {
        name
        for name, memory in folders.items()
        if memory.status == "active" and not memory.has_errors
    }
    index = index_view.read_index(Path(tree.root), Kind.CURRENT_TASKS)
    if not index.found:
        return sorted(active)
    indexed = index_view.projects(index)
    claimed = set(_match_folders(indexed, folders).values())
    return sorted({p.name for p in indexed} | (active - claimed))


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
    statuses: tuple[_Load, ...]
    notes: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    """Every name the project's memories may carry in `project:` (index name and folder)."""
    near: tuple[_Load, ...] = ()


def _unknown(chosen: str, tree: Tree, names: Iterable[str]) -> UnknownProject:
    if chosen in _projects(tree.memories, Kind.WORK_EXPERIENCE):
        return UnknownProject(f"project {chosen!r} is completed (in work experience)")
    names = sorted(set(names))
    shown = ", ".join(names[:SHOWN_NAMES]) or "none"
    if len(names) > SHOWN_NAMES:
        shown += f" and {len(names) - SHOWN_NAMES} more"
    return UnknownProject(f"no project {chosen!r} in current tasks (current: {shown})")


def _unreadable_project(chosen: str, status: Memory) -> UnknownProject:
    problem = next(p for p in status.problems if p.severity is Severity.ERROR)
    return UnknownProject(f"project {chosen!r} cannot be read: {problem.message}")


def _inactive_near(folders: dict[str, Memory], skip: set[str]) -> list[_Load]:
    return [
        _load(m, f"project {name} is {m.status or 'without a status'}, not active")
        for name, m in sorted(folders.items())
        if name not in skip and not m.has_errors and m.status != "active"
    ]


def _choose_project(tree: Tree, chosen: str | None) -> _Project:
    """The current project and the status files to load, from the status.md files alone."""
    current = _projects(tree.memories, Kind.CURRENT_TASKS)
    active = {name: m for name, m in current.items() if m.status == "active" and not m.has_errors}
    near = tuple(_inactive_near(current, set()))
    if chosen is not None:
        status = current.get(chosen)
        if status is None:
            raise _unknown(chosen, tree, current)
        if status.has_errors:
            raise _unreadable_project(chosen, status)
        others = [_load(m, f"project {name} is active") for name, m in sorted(active.items())]
        first = _load(status, f"project {chosen} is current (chosen)")
        rest = [o for o in others if o.path != status.path]
        return _Project(chosen, (first, *rest), (), (chosen,), near)
    if len(active) == 1:
        name, status = next(iter(active.items()))
        only = _load(status, f"project {name} is the only active project")
        return _Project(name, (only,), (), (name,), near)
    if not active:
        return _Project(None, (), ("no active project in current tasks",), (), near)
    statuses = tuple(_load(m, f"project {name} is active") for name, m in sorted(active.items()))
    note = "several active projects and none chosen: only their status files load"
    return _Project(None, statuses, (note,), (), near)


def _status_path(project: IndexedProject) -> str:
    """The file an index-only project's entry names (its status.md first), or where it would be."""
    files = project.files
    named = next((f for f in files if f.rsplit("/", 1)[-1] == "status.md"), None)
    rel = named or (files[0] if files else f"{project.name}/status.md")
    return f"{Kind.CURRENT_TASKS.folder}/{rel}"


def _choose_project_from_index(
    tree: Tree, chosen: str | None, index: IndexFile, marks: _Marks
) -> _Project:
    """The current project and the status files to load, as the assistant finds them in `active`."""
    folders = _projects(tree.memories, Kind.CURRENT_TASKS)
    indexed = index_view.projects(index)
    folder_of = _match_folders(indexed, folders)

    def status_of(project: IndexedProject, what: str) -> _Load:
        folder = folder_of.get(project.name)
        memory = folders.get(folder) if folder else None
        where = f" (folder {folder}/)" if folder and folder != project.name else ""
        reason = f"project {project.name}{where} {what}"
        extra = {"index_status": project.status, "index_summary": project.summary}
        if memory is None:
            path = _status_path(project)
            if project.files:
                marks.add(
                    path,
                    f"in index.json's active list, but {project.files[0]} is not found: the"
                    " assistant knows this project only from the index entry",
                )
            else:
                marks.add(
                    path,
                    "in index.json's active list with no folder in current tasks: the assistant"
                    " knows this project only from the index entry",
                )
            return _Load(path, project.name, reason, None, **extra)
        if memory.has_errors:
            marks.add(memory.path, _unreadable(memory, "active"))
        elif memory.status != "active":
            marks.add(memory.path, f"in index.json's active list, but {_says(memory, 'status')}")
        return _Load(memory.path, memory.title, reason, memory, **extra)

    target: IndexedProject | None = None
    lone: Memory | None = None
    if chosen is not None:
        target = next((p for p in indexed if p.name == chosen), None) or next(
            (p for p in indexed if folder_of.get(p.name) == chosen), None
        )
        if target is None:
            lone = folders.get(chosen)
            if lone is None:
                raise _unknown(chosen, tree, [*folders, *(p.name for p in indexed)])
            if lone.has_errors:
                raise _unreadable_project(chosen, lone)
    claimed = set(folder_of.values())
    near: list[_Load] = []
    for folder, memory in sorted(folders.items()):
        if folder in claimed or memory.has_errors or memory.status != "active":
            continue
        marks.add(
            memory.path,
            "its status.md says active, but index.json's active list does not name it: the"
            f" assistant will not read it {UNTIL_UPDATED}",
        )
        if memory is not lone:
            near.append(_load(memory, f"project {folder} is active in its status.md only"))
    near += _inactive_near(folders, claimed)

    if chosen is not None:
        if target is not None:
            first = status_of(target, "is current (chosen)")
            name = target.name
            aliases: tuple[str, ...] = (name, folder_of.get(name, name))
        else:
            assert lone is not None
            first = _load(lone, f"project {chosen} is current (chosen)")
            name, aliases = chosen, (chosen,)
        others = [status_of(p, "is active") for p in indexed if p is not target]
        return _Project(name, (first, *others), (), aliases, tuple(near))
    if len(indexed) == 1:
        (only,) = indexed
        status = status_of(only, "is the only active project")
        return _Project(
            only.name, (status,), (), (only.name, folder_of.get(only.name, only.name)), tuple(near)
        )
    if not indexed:
        return _Project(
            None, (), ("no active project in index.json's active list",), (), tuple(near)
        )
    with_folder = [p for p in indexed if folder_of.get(p.name) in folders]
    if len(with_folder) == 1:
        # The others live in the index alone (notes, a project tracked elsewhere): the one
        # with a folder is the one whose memories the preview shows until another is chosen.
        (only,) = with_folder
        first = status_of(only, "is the only active project with a folder")
        others = [status_of(p, "is active") for p in indexed if p is not only]
        aliases = (only.name, folder_of.get(only.name, only.name))
        return _Project(only.name, (first, *others), (), aliases, tuple(near))
    statuses = tuple(status_of(p, "is active") for p in sorted(indexed, key=lambda p: p.name))
    note = "several active projects and none chosen: only their status files load"
    return _Project(None, statuses, (note,), (), tuple(near))


def _ranked(memories: Iterable[Memory]) -> list[Memory]:
    """High importance first, then the newest, then by path."""
    mine = sorted(memories, key=lambda m: m.path)
    mine.sort(key=lambda m: m.date or dt.date.min, reverse=True)
    mine.sort(key=lambda m: _IMPORTANCE_RANK.get(m.importance or "", 3))
    return mine


def _project_memories(usable: list[Memory], aliases: tuple[str, ...], name: str) -> Iterator[_Load]:
    """From the files alone (no index to go by): every memory whose `project` matches."""
    mine = [
        m
        for m in usable
        if m.project in aliases
        and m.kind in (Kind.SHORT_TERM, Kind.LONG_TERM)
        and not _merge_copy(m)
    ]
    for m in _ranked(mine):
        yield _load(m, f"project {name}, {m.importance or 'unset'} importance")


NOT_LOADED = "the assistant does not load it"


def _merge_copy(memory: Memory) -> bool:
    """A `<stem>_<session id>.md` in short-term memory: samantha-llm's merge wrote it beside the
    worker's copy, and its worker never indexes one, so it is never the project's to load."""
    return memory.kind is Kind.SHORT_TERM and MERGE_COPY_NAME.match(memory.name) is not None


def _copy_of(memory: Memory) -> str:
    original = original_of(memory.name) or memory.name
    return (
        f"a merge copy of {original} (samantha-llm's merge wrote it; its worker never indexes"
        f" one): {NOT_LOADED} as the project's"
    )


def _project_from_indexes(
    indexes: Mapping[Kind, IndexFile],
    usable: list[Memory],
    by_path: dict[str, Memory],
    aliases: tuple[str, ...],
    name: str,
    ages: dict[str, int],
    marks: _Marks,
    earlier: set[str],
) -> tuple[list[_Load], list[_Load]]:
    """(loads, near misses): the project's memories as the assistant finds them, by the entries
    of the short- and long-term index lists that name the project (a kind with no readable
    index by its files); every other memory whose file names the project is marked, saying why
    it is not loaded, unless an earlier tier loads it anyway."""
    given: dict[str, Memory] = {}
    near: list[_Load] = []
    listed_as: dict[str, tuple[str, str]] = {}
    """Every path an index lists: (the first list, the project its entry there says)."""
    for kind in (Kind.SHORT_TERM, Kind.LONG_TERM):
        index = indexes[kind]
        if not index.found:
            for mine in usable:
                if mine.kind is kind and mine.project in aliases and not _merge_copy(mine):
                    given.setdefault(mine.path, mine)
            continue
        for entry in index_view.project_entries(index):
            path, section = entry.listed.path, entry.section
            listed_as.setdefault(path, (section, entry.project))
            if entry.project not in aliases or path in given:
                continue
            memory = by_path.get(path)
            if memory is None:
                marks.add(path, _not_found(section))
                near.append(_Load(path, entry.listed.title, f"project {name} in index.json", None))
            elif _merge_copy(memory):
                marks.add(path, f"listed in index.json's {section} list, but {_copy_of(memory)}")
                near.append(_load(memory, f"project {name} in index.json"))
            elif memory.has_errors:
                marks.add(path, _unreadable(memory, section))
                given[path] = memory
            else:
                given[path] = memory
                if memory.project not in aliases:
                    marks.add(
                        path,
                        f"index.json's {section} entry says project: {_value(entry.project)},"
                        f" but {_says(memory, 'project')}",
                    )
    loads = [
        _load(m, f"project {name}, {m.importance or 'unset'} importance")
        for m in _ranked(given.values())
    ]
    missed = {load.path for load in near}
    for memory in _ranked(usable):
        if (
            memory.project not in aliases
            or memory.path in given
            or memory.path in missed
            or memory.path in earlier
            or memory.kind not in (Kind.SHORT_TERM, Kind.LONG_TERM)
        ):
            continue
        if _merge_copy(memory):
            marks.add(memory.path, _copy_of(memory))
        elif memory.path in listed_as:
            section, said = listed_as[memory.path]
            entry_says = f"says project: {_value(said)}" if said else "names no project"
            marks.add(
                memory.path,
                f"its file says project: {_value(memory.project)}, but its entry in index.json's"
                f" {section} list {entry_says}: {NOT_LOADED} as the project's {UNTIL_UPDATED}",
            )
        elif not indexes[memory.kind].found:
            continue
        else:
            age = ages.get(memory.path)
            dropped = (
                f" ({age} days old: `recent` keeps the last {RECENT_DAYS} days)"
                if memory.kind is Kind.SHORT_TERM and age is not None and age > RECENT_DAYS
                else ""
            )
            later = "" if dropped else f" {UNTIL_UPDATED}"
            marks.add(memory.path, f"in no index list{dropped}: {NOT_LOADED}{later}")
        near.append(_load(memory, f"project {name} in its file"))
    return loads, near


# --- critical, frequent, recent ------------------------------------------------------------------


def _critical_from_index(
    index: IndexFile, members: list[Memory], by_path: dict[str, Memory], marks: _Marks
) -> tuple[list[_Load], list[_Load]]:
    """(loads, near misses): the index's `critical` list, and critical files it leaves out."""
    loads: list[_Load] = []
    near: list[_Load] = []
    for entry in index_view.listed(index, "critical"):
        memory = by_path.get(entry.path)
        if memory is None:
            marks.add(entry.path, _not_found("critical"))
            near.append(_Load(entry.path, entry.title, "critical in index.json", None))
            continue
        loads.append(_load(memory, "critical"))
        if memory.has_errors:
            marks.add(memory.path, _unreadable(memory, "critical"))
        elif not memory.critical:
            marks.add(
                memory.path, f"in index.json's critical list, but {_says(memory, 'critical')}"
            )
    listed = {load.path for load in loads}
    for memory in members:
        if memory.critical and memory.path not in listed:
            marks.add(
                memory.path,
                "critical in its file, missing from index.json's critical list: the assistant"
                f" will not read it as critical {UNTIL_UPDATED}",
            )
            near.append(_load(memory, "critical in its file"))
    return loads, near


def _frequent(short: list[Memory]) -> tuple[list[_Load], list[_Load]]:
    often = sorted(
        (m for m in short if m.reference_count >= FREQUENT_REFERENCES),
        key=lambda m: -m.reference_count,
    )
    return [_load(m, f"referenced {m.reference_count} times") for m in often], _one_short(short)


def _one_short(short: Iterable[Memory]) -> list[_Load]:
    return [
        _load(m, f"referenced {m.reference_count} times, one short of {FREQUENT_REFERENCES}")
        for m in short
        if m.reference_count == FREQUENT_REFERENCES - 1
    ]


def _frequent_from_index(
    index: IndexFile,
    short: list[Memory],
    by_path: dict[str, Memory],
    marks: _Marks,
    earlier: set[str],
) -> tuple[list[_Load], list[_Load]]:
    """(loads, near misses): the index's `high_priority` list, and frequent files it leaves out.

    A file an earlier tier loads anyway gets no mark from this one: it changes nothing.
    """
    loads: list[_Load] = []
    near: list[_Load] = []
    for entry in index_view.listed(index, "high_priority"):
        memory = by_path.get(entry.path)
        if memory is None:
            marks.add(entry.path, _not_found("high_priority"))
            near.append(_Load(entry.path, entry.title, "frequently referenced in index.json", None))
            continue
        loads.append(_load(memory, f"referenced {memory.reference_count} times"))
        if memory.path in earlier:
            continue
        if memory.has_errors:
            marks.add(memory.path, _unreadable(memory, "high_priority"))
        elif memory.reference_count < FREQUENT_REFERENCES:
            marks.add(
                memory.path,
                f"in index.json's high_priority list, but {_says(memory, 'reference_count')}",
            )
    listed = {load.path for load in loads}
    left_out = sorted(
        (
            m
            for m in short
            if m.reference_count >= FREQUENT_REFERENCES and m.path not in listed | earlier
        ),
        key=lambda m: -m.reference_count,
    )
    for memory in left_out:
        marks.add(
            memory.path,
            f"referenced {memory.reference_count} times in its file, missing from index.json's"
            f" high_priority list: the assistant will not read it as frequent {UNTIL_UPDATED}",
        )
        near.append(_load(memory, f"referenced {memory.reference_count} times"))
    near += _one_short(m for m in short if m.path not in listed)
    return loads, near


def _recent(short: list[Memory], ages: dict[str, int]) -> tuple[list[_Load], list[_Load]]:
    recent = sorted(
        (m for m in short if m.importance == "high" and m.path in ages), key=lambda m: ages[m.path]
    )
    loads = [
        _load(m, f"high importance, {_age(ages[m.path])}")
        for m in recent
        if ages[m.path] <= RECENT_DAYS
    ]
    return loads, _old_high(recent, ages)


def _old_high(recent: Iterable[Memory], ages: dict[str, int]) -> list[_Load]:
    return [
        _load(m, f"high importance but {ages[m.path]} days old")
        for m in recent
        if RECENT_DAYS < ages[m.path] <= NEAR_MISS_DAYS
    ]


def _recent_from_index(
    index: IndexFile,
    short: list[Memory],
    by_path: dict[str, Memory],
    ages: dict[str, int],
    marks: _Marks,
    earlier: set[str],
) -> tuple[list[_Load], list[_Load]]:
    """(loads, near misses): `recent.high_importance`, and recent high files it leaves out.

    A file an earlier tier loads anyway gets no mark from this one: it changes nothing.
    """
    listing = "recent.high_importance"
    loads: list[_Load] = []
    near: list[_Load] = []
    for entry in index_view.listed(index, listing):
        memory = by_path.get(entry.path)
        if memory is None:
            marks.add(entry.path, _not_found(listing))
            near.append(
                _Load(entry.path, entry.title, "recent high importance in index.json", None)
            )
            continue
        age = ages.get(memory.path)
        when = _age(age) if age is not None else "undated"
        loads.append(_load(memory, f"{memory.importance or 'unset'} importance, {when}"))
        if memory.path in earlier:
            continue
        if memory.has_errors:
            marks.add(memory.path, _unreadable(memory, listing))
        elif memory.importance != "high":
            marks.add(
                memory.path, f"in index.json's {listing} list, but {_says(memory, 'importance')}"
            )
        elif age is not None and age > RECENT_DAYS:
            marks.add(
                memory.path,
                f"in index.json's {listing} list, but {age} days old: the index's recent list is"
                f" out of date {REFRESH}",
            )
    listed = {load.path for load in loads}
    recent = sorted(
        (m for m in short if m.importance == "high" and m.path in ages and m.path not in listed),
        key=lambda m: ages[m.path],
    )
    for memory in recent:
        if ages[memory.path] <= RECENT_DAYS and memory.path not in earlier:
            marks.add(
                memory.path,
                f"high importance, {_age(ages[memory.path])}, missing from index.json's {listing}"
                f" list: the assistant will not read it as recent {UNTIL_UPDATED}",
            )
            near.append(_load(memory, f"high importance, {_age(ages[memory.path])}"))
    near += _old_high(recent, ages)
    return loads, near


# --- runbooks ------------------------------------------------------------------------------------


def _categories(names: Iterable[str]) -> str:
    return " + ".join(names)


def _verdict_reason(verdict: Verdict, strategy: LoadingStrategy) -> tuple[bool, str | None]:
    """(loads, why); why is None when no signal touched the runbook at all."""
    needed = strategy.minimum_positive_categories
    matched = f"{_categories(verdict.matched)} signals matched" if verdict.matched else ""
    if verdict.veto is not None:
        veto = verdict.veto
        why = f"negative signal {veto.signal!r} matched {verdict.veto_input}"
        why += f" ({veto.reason})" if veto.reason else ""
        if not strategy.negative_signals_are_veto and verdict.loads:
            return True, f"runbook: {matched}; {why}, not a veto here"
        return False, f"runbook: {matched + ' but ' if matched else ''}{why}"
    if verdict.loads:
        return True, f"runbook: {matched}"
    if verdict.matched:
        shown = "category" if needed == 1 else "categories"
        return False, f"runbook: only {matched}, {needed} {shown} needed"
    return False, None


def _runbooks(
    usable: list[Memory], signals: Signals, strategy: LoadingStrategy
) -> tuple[list[_Load], list[_Load]]:
    """(runbooks that load, runbooks that just missed), from the runbook files' triggers."""
    loads: list[_Load] = []
    misses: list[_Load] = []
    for memory in _by_path(m for m in usable if m.kind is Kind.PROCEDURAL):
        try:
            triggers = read_triggers(memory.frontmatter.get("triggers"))
        except MalformedTriggers as error:
            misses.append(_load(memory, f"runbook: {error}"))
            continue
        loads_it, why = _verdict_reason(evaluate(triggers, signals, strategy), strategy)
        if why is not None:
            (loads if loads_it else misses).append(_load(memory, why))
    return loads, misses


def _file_triggers(memory: Memory) -> Triggers | None:
    try:
        return read_triggers(memory.frontmatter.get("triggers"))
    except MalformedTriggers:
        return None


def _index_only_hits(index: Triggers, file: Triggers | None, signals: Signals) -> str:
    """The index's signals that hit and that the runbook file does not have, per category."""
    parts = []
    for category, hits in matching_signals(index, signals).items():
        own = {s.casefold() for s in (file.positive.get(category, ()) if file else ())}
        extra = [s for s in hits if s.casefold() not in own]
        if extra:
            parts.append(f"{category}_signals {', '.join(extra)}")
    return "; ".join(parts)


def _runbooks_from_index(
    index: IndexFile,
    usable: list[Memory],
    by_path: dict[str, Memory],
    signals: Signals,
    strategy: LoadingStrategy,
    marks: _Marks,
) -> tuple[list[_Load], list[_Load]]:
    """(loads, near misses): the index's runbooks matched by the index's own triggers."""
    loads: list[_Load] = []
    near: list[_Load] = []
    listed: set[str] = set()
    for runbook in index_view.runbooks(index):
        listed.add(runbook.path)
        memory = by_path.get(runbook.path)
        verdict: Verdict | None = None
        why: str | None
        try:
            triggers: Triggers | None = read_triggers(runbook.triggers)
        except MalformedTriggers as error:
            loads_it, why, triggers = False, f"runbook: index.json's entry: {error}", None
        if triggers is not None:
            verdict = evaluate(triggers, signals, strategy)
            loads_it, why = _verdict_reason(verdict, strategy)
        if memory is None:
            marks.add(runbook.path, _not_found("runbooks"))
            near.append(_Load(runbook.path, runbook.domain, why or "runbook in index.json", None))
            continue
        if memory.has_errors:
            if loads_it or why:
                marks.add(memory.path, _unreadable(memory, "runbooks"))
                (loads if loads_it else near).append(_load(memory, why or ""))
            continue
        own = _file_triggers(memory)
        own_loads = own is not None and evaluate(own, signals, strategy).loads
        if loads_it:
            loads.append(_load(memory, why or ""))
            extra = _index_only_hits(triggers, own, signals) if triggers and not own_loads else ""
            if extra:
                marks.add(
                    memory.path,
                    f"loads through index-only signals: {extra} (not in the runbook file)",
                )
            continue
        if own_loads:
            veto = verdict.veto if verdict is not None else None
            own_vetoes = {n.signal.casefold() for n in own.negative} if own else set()
            if veto is not None and veto.signal.casefold() not in own_vetoes:
                marks.add(
                    memory.path,
                    f"vetoed by negative signal {veto.signal!r}, which is in index.json only (not"
                    " in the runbook file)",
                )
            else:
                marks.add(
                    memory.path,
                    "its file's triggers match, index.json's do not: the assistant goes by"
                    " index.json's triggers",
                )
        if why is not None or own_loads:
            near.append(_load(memory, why or "runbook: index.json's triggers do not match"))
    for memory in _by_path(m for m in usable if m.kind is Kind.PROCEDURAL):
        if memory.path in listed:
            continue
        own = _file_triggers(memory)
        loads_it, why = (
            _verdict_reason(evaluate(own, signals, strategy), strategy) if own else (False, None)
        )
        matched = (
            f"; its own triggers would load it ({why.removeprefix('runbook: ')})"
            if loads_it and why
            else ""
        )
        marks.add(
            memory.path,
            f"not listed in index.json's runbooks: the assistant will not consider it"
            f" {UNTIL_UPDATED}{matched}",
        )
        own_why = f" ({why.removeprefix('runbook: ')})" if why and not loads_it else ""
        near.append(_load(memory, f"runbook not in index.json{own_why}"))
    return loads, near


# --- the plan ------------------------------------------------------------------------------------


def _pending_notes(tree: Tree) -> list[str]:
    by_project: dict[str, int] = {}
    for update in tree.pending_updates:
        by_project[update.project] = by_project.get(update.project, 0) + 1
    return [
        f"{count} pending project update{'s' * (count != 1)} for {project}: "
        "review with `samantha-llm projects review`"
        for project, count in sorted(by_project.items())
    ]


def _source(index: IndexFile) -> Source:
    if index.found:
        return Source(index.kind, index.path, True)
    if index.kind is Kind.PROCEDURAL:
        instead = (
            "the assistant's bootstrap skips runbooks without it; shown from the runbook files"
        )
    else:
        instead = "the assistant falls back to index.md / the files; shown from the files"
    if index.missing:
        return Source(
            index.kind, index.path, False, f"no index.json for {index.kind.slug}: {instead}"
        )
    return Source(
        index.kind, index.path, False, f"{index.path} cannot be read ({index.problem}): {instead}"
    )


def _unnamed_notes(indexes: dict[Kind, IndexFile]) -> list[str]:
    lists = [
        (Kind.SHORT_TERM, "critical"),
        (Kind.SHORT_TERM, "high_priority"),
        (Kind.SHORT_TERM, "recent.high_importance"),
        (Kind.LONG_TERM, "critical"),
        (Kind.PROCEDURAL, "runbooks"),
    ]
    notes = []
    for kind, listing in lists:
        count = index_view.unnamed_entries(indexes[kind], listing)
        if count:
            entry = "entry" if count == 1 else "entries"
            notes.append(
                f"{count} {entry} of {indexes[kind].path}'s {listing} list name no `file`: the"
                " assistant can read nothing for them"
            )
    return notes


def _sized(
    candidates: Iterable[tuple[Tier, _Load]], budget: int | None, marks: _Marks
) -> list[PlanItem]:
    """Each file once, in its first tier, with its size, the running total and its marks."""
    items: list[PlanItem] = []
    seen: set[str] = set()
    running = 0
    for tier, load in candidates:
        if load.path in seen:
            continue
        seen.add(load.path)
        lines, chars = file_size(load.memory) if load.memory is not None else (0, 0)
        tokens = estimate_tokens(chars)
        running += tokens
        over = budget is not None and running > budget
        items.append(
            PlanItem(
                tier,
                load.path,
                load.title,
                load.reason,
                lines,
                chars,
                tokens,
                running,
                over,
                marks.of(load.path),
                load.memory is not None,
                load.index_status,
                load.index_summary,
            )
        )
    return items


def _index(root: Path, kind: Kind, index_files: Mapping[str, bytes | None]) -> IndexFile:
    rel = f"{kind.folder}/{index_view.INDEX_NAME}"
    if rel in index_files:
        return index_view.index_from_bytes(kind, index_files[rel])
    return index_view.read_index(root, kind)


def plan(
    tree: Tree,
    signals: Signals,
    today: dt.date,
    budget: int | None = None,
    *,
    index_files: Mapping[str, bytes | None] | None = None,
) -> BootstrapPlan:
    """The bootstrap order for a tree: tiers in load order, each file once, in its first tier.

    Each kind's lists come from its index.json where one can be read (sizes from the files they
    name), else from the files. Reads the procedural index.json for its `loading_strategy`;
    raises UnknownProject for a project not in current tasks. `index_files` (paths from the
    root: bytes, or None for no file) stand in for the index files on disk they name: the
    plan of a tree as a change would leave it, its indexes patched, with nothing written.
    """
    if budget is not None and budget < 1:
        raise ValueError(f"budget must be at least 1 token, not {budget}")
    root = Path(tree.root)
    index_files = index_files or {}
    indexes = {kind: _index(root, kind, index_files) for kind in INDEXED_KINDS}
    marks = _Marks()
    by_path = {m.path: m for m in tree.memories}
    usable = [m for m in tree.memories if not m.has_errors]

    tasks = indexes[Kind.CURRENT_TASKS]
    if tasks.found:
        project = _choose_project_from_index(tree, signals.project, tasks, marks)
    else:
        project = _choose_project(tree, signals.project)
    signals = dataclasses.replace(signals, project=project.name)
    strategy = (
        strategy_from_bytes(index_files[STRATEGY_INDEX])
        if STRATEGY_INDEX in index_files
        else read_strategy(root)
    )
    short = _by_path(m for m in usable if m.kind is Kind.SHORT_TERM)
    long = _by_path(m for m in usable if m.kind is Kind.LONG_TERM)
    # Ages are taken from `today`, not the scan's day, so a plan can be made for any date.
    ages = {m.path: (today - m.date).days for m in tree.memories if m.date is not None}

    critical: list[_Load] = []
    critical_near: list[_Load] = []
    for kind, members in ((Kind.SHORT_TERM, short), (Kind.LONG_TERM, long)):
        if indexes[kind].found:
            loads, near = _critical_from_index(indexes[kind], members, by_path, marks)
            critical += loads
            critical_near += near
        else:
            critical += [_load(m, "critical") for m in members if m.critical]
    st_index = indexes[Kind.SHORT_TERM]
    earlier = {load.path for load in critical}
    if st_index.found:
        frequent, frequent_near = _frequent_from_index(st_index, short, by_path, marks, earlier)
    else:
        frequent, frequent_near = _frequent(short)
    project_items = list(project.statuses)
    project_near: list[_Load] = []
    if project.name is not None and st_index.found:
        mine, project_near = _project_from_indexes(
            indexes,
            usable,
            by_path,
            project.aliases,
            project.name,
            ages,
            marks,
            earlier | {load.path for load in frequent},
        )
        project_items[1:1] = mine
    elif project.name is not None:
        project_items[1:1] = list(_project_memories(usable, project.aliases, project.name))
    earlier |= {load.path for load in (*frequent, *project_items)}
    if st_index.found:
        recent, recent_near = _recent_from_index(st_index, short, by_path, ages, marks, earlier)
    else:
        recent, recent_near = _recent(short, ages)
    procedural = indexes[Kind.PROCEDURAL]
    if procedural.found:
        runbooks, runbook_near = _runbooks_from_index(
            procedural, usable, by_path, signals, strategy, marks
        )
    else:
        runbooks, runbook_near = _runbooks(usable, signals, strategy)

    candidates: list[tuple[Tier, _Load]] = [
        *((Tier.CRITICAL, load) for load in critical),
        *((Tier.FREQUENT, load) for load in frequent),
        *((Tier.PROJECT, load) for load in project_items),
        *((Tier.RECENT_HIGH, load) for load in recent),
        *((Tier.RUNBOOK, load) for load in runbooks),
    ]
    items = _sized(candidates, budget, marks)
    loaded = {item.path for item in items}

    near_misses: list[NearMiss] = []
    near_loads = (*critical_near, *frequent_near, *project_near, *recent_near, *project.near)
    for load in (*near_loads, *runbook_near):
        if load.path not in loaded:
            loaded.add(load.path)
            near_misses.append(
                NearMiss(
                    load.path, load.title, load.reason, marks.of(load.path), load.memory is not None
                )
            )

    on_demand = tuple(
        OnDemand(m.path, m.title, estimate_tokens(file_size(m)[1]))
        for m in long
        if m.path not in loaded
    )
    notes = [*project.notes, *_unnamed_notes(indexes), *_pending_notes(tree)]
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
        sources=tuple(_source(indexes[kind]) for kind in INDEXED_KINDS),
    )

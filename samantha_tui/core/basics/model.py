"""Immutable records read from a memory tree: kinds, memories, problems."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from types import MappingProxyType
from typing import Any, Generic, NamedTuple, TypeVar


class Kind(Enum):
    """The five memory kinds and the folder each lives in under `<root>/.ai/`."""

    SHORT_TERM = ("short-term", "short-term-memory", "Short-term")
    LONG_TERM = ("long-term", "long-term-memory", "Long-term")
    CURRENT_TASKS = ("current-tasks", "current-tasks", "Tasks")
    WORK_EXPERIENCE = ("work-experience", "work-experience", "Work experience")
    PROCEDURAL = ("procedural", "procedural-memory", "Procedural")

    def __init__(self, slug: str, folder_name: str, label: str) -> None:
        self.slug = slug
        self.folder_name = folder_name
        self.label = label
        # Plain attributes, not properties: index building asks them tens of thousands of times.
        self.folder = f".ai/{folder_name}/.ai"
        """The kind folder relative to the cerebrum root (note the doubled `.ai`)."""
        self.is_project_kind = slug in ("current-tasks", "work-experience")
        """Tasks and work experience hold one folder per project, not loose files."""


def kind_of_path(rel: str) -> Kind | None:
    """The kind whose folder holds rel (a path relative to the root, below the kind folder);
    None for the kind folder itself and for any path outside every kind folder."""
    for kind in Kind:
        if rel.startswith(kind.folder + "/"):
            return kind
    return None


def short_path(rel: str) -> str:
    """`.ai/short-term-memory/.ai/x.md` -> `short-term/x.md`: the kind folder said in one word."""
    kind = kind_of_path(rel)
    return rel if kind is None else f"{kind.slug}/{rel.removeprefix(kind.folder + '/')}"


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """Something wrong with a file, said so a person can act on it."""

    path: str
    message: str
    line: int | None = None
    severity: Severity = Severity.ERROR

    def format(self) -> str:
        """`path:line: message`, the one-line form `check` prints."""
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


def _any_error(problems: tuple[Problem, ...]) -> bool:
    return any(p.severity is Severity.ERROR for p in problems)


def _frozen(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Memory:
    """One memory file as read from disk; never changed in place, only replaced."""

    kind: Kind
    path: str
    """Relative to the cerebrum root, with `/` separators."""
    title: str
    frontmatter: Mapping[str, Any] = field(default_factory=lambda: _frozen(None))
    body: str = ""
    problems: tuple[Problem, ...] = ()
    date: dt.date | None = None
    age_days: int | None = None
    importance: str | None = None
    critical: bool = False
    reference_count: int = 0
    project: str | None = None
    topics: tuple[str, ...] = ()
    type: str | None = None
    status: str | None = None
    companions: tuple[str, ...] = ()
    """Other files of a project folder at any depth (notes.md, docs/design.md), relative to the
    root; hidden ones are not among them. A top-level one has no `/` after the project folder."""
    size: int = 0
    """Bytes on disk."""
    chars: int = 0
    """Characters of the whole file as read (frontmatter and body)."""
    lines: int = 0
    """Lines of the whole file; a last line without a newline counts."""
    digest: str = ""
    """sha256 of the bytes read: a write is refused unless the file still has them."""

    def __post_init__(self) -> None:
        if not isinstance(self.frontmatter, MappingProxyType):
            object.__setattr__(self, "frontmatter", _frozen(self.frontmatter))

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Memory:
        """A record from a value for every field, `frontmatter` already a MappingProxyType.

        No checks and no copies, the way pickle restores an object: a scan makes tens of thousands
        of records, and __init__ costs six times as much (9 against 1.5 microseconds).
        """
        memory = object.__new__(cls)
        object.__setattr__(memory, "__dict__", state)
        return memory

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def has_errors(self) -> bool:
        return _any_error(self.problems)

    @property
    def written_importance(self) -> str | None:
        """The importance as the file has it when it is not a word of the format (`Medium`, `3`),
        as text; None when it is one (see `importance`) or there is none."""
        if self.importance is not None:
            return None
        raw = self.frontmatter.get("importance")
        return None if raw is None else str(raw)


class Listed(NamedTuple):
    """What a list row and its sort need of a memory, kept by the catalog apart from the record:
    the first frame lists a tree of these before any record is loaded (a memory's record, body
    and all, is loaded only when it is previewed or read). A named tuple: made four times faster
    than a frozen dataclass, 100,000 of them at a start."""

    kind: Kind
    path: str
    title: str
    date: dt.date | None
    updated: dt.date | None
    """The day of `sorting.updated_day`: by the memory's own word, else its date."""
    importance: str | None
    written_importance: str | None
    reference_count: int
    critical: bool
    status: str | None
    problems: tuple[Problem, ...]
    line: str = ""
    """The memory's distinguishing line (reading/distinguishing.py), for the name shown where
    its heading is generic or shared (views/naming.py)."""

    @property
    def has_errors(self) -> bool:
        return _any_error(self.problems)


Record = TypeVar("Record", Memory, Listed)
"""What a tree holds: memories as read, or (the first frame's) their list entries."""


CONFIDENCE_WORDS = ("low", "medium", "high")
"""What samantha-llm's project state analyzer writes as an update's `confidence`."""


@dataclass(frozen=True)
class PendingUpdate:
    """A proposed project-status change waiting for review."""

    path: str
    project: str
    session_date: str | None
    confidence: str | float | None
    """A word (`low`, `medium`, `high`, as samantha-llm writes it) or a number from 0 to 1."""
    proposed_changes: Mapping[str, Any]
    reasoning: str
    session_id: str | None = None

    @property
    def confidence_text(self) -> str | None:
        """The confidence as a person reads it: `low`, or `82%` for a number; None if unknown."""
        if isinstance(self.confidence, str):
            return self.confidence
        if isinstance(self.confidence, int | float):
            return f"{self.confidence:.0%}"
        return None


@dataclass(frozen=True)
class StagedSession:
    """A subconscious session folder; `complete` ones are awaiting merge."""

    path: str
    status: str
    memory_files: tuple[str, ...]

    @property
    def awaiting_merge(self) -> bool:
        return self.status == "complete"


@dataclass(frozen=True)
class Tree(Generic[Record]):
    """Everything read from one cerebrum at one moment."""

    root: str
    memories: tuple[Record, ...]
    pending_updates: tuple[PendingUpdate, ...] = ()
    sessions: tuple[StagedSession, ...] = ()
    problems: tuple[Problem, ...] = ()
    """Problems not tied to one memory (an unreadable folder, a bad update file)."""
    unlisted: tuple[Problem, ...] = ()
    """A warning for each Markdown file samantha-llm's search reads that is not listed here
    (hidden, in `.archive/`), sorted by path. Never memories: no rule or index counts them."""
    notices: tuple[str, ...] = ()
    """One line each about how the tree was read, not about its files (the catalog was damaged
    and rebuilt, or locked and not saved)."""
    delta: Delta | None = field(default=None, compare=False, repr=False)
    """What the scan that made this tree changed in the catalog (for the search postings); None
    for a tree no scan made. Not part of the tree's value: two equal trees may differ in it."""

    def of_kind(self, kind: Kind) -> list[Record]:
        return list(self._by_kind[kind])

    @cached_property
    def _by_kind(self) -> dict[Kind, list[Record]]:
        # Asked for each tab's count and list: one pass instead of one a kind, each time.
        found: dict[Kind, list[Record]] = {kind: [] for kind in Kind}
        for memory in self.memories:
            found[memory.kind].append(memory)
        return found

    @property
    def critical(self) -> list[Record]:
        return [m for m in self.memories if m.critical]

    @property
    def all_problems(self) -> list[Problem]:
        found = [p for m in self.memories for p in m.problems]
        return found + list(self.problems) + list(self.unlisted)

    @property
    def awaiting_merge(self) -> list[StagedSession]:
        return [s for s in self.sessions if s.awaiting_merge]


TRASH_DIR = ".ai/.trash"
"""The trash inside the tree: every delete lands here and can come back (see trash.py)."""
TASKS_INDEX = f"{Kind.CURRENT_TASKS.folder}/index.json"
"""The current-tasks index, whose hand-kept project fields samantha-llm reads (project_index.py)."""


@dataclass(frozen=True)
class Delta:
    """What one scan changed in the catalog."""

    changed: tuple[Memory, ...]
    """Records whose row this scan wrote: read from their files (new or changed), or with other
    companions than catalogued."""
    removed: tuple[str, ...]
    """Paths catalogued before that the scan no longer saw."""

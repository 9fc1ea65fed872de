"""What differs between an index on disk and the one the files give, per kind."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...basics.model import Kind
from .entries import MEMORY, PROJECT, RUNBOOK
from .merge import Shape
from .sections import EntryKey, first_by_key, listed_in
from .summary import cut

NOT_LISTED = "(not listed)"
COUNTS = "(counts)"
# What KindDrift.files says of a whole file (besides an unreadable index.json's reason).
JSON_MISSING = "index.json is missing"
MD_MISSING = "index.md is missing"
MD_STALE = "index.md is out of date"
JSON_LAYOUT = "index.json differs only in how it is laid out"
JSON_OUTSIDE = "index.json differs outside its entries (totals, dates, other keys)"
_ROOT_FIELDS = {
    Kind.SHORT_TERM: ("total_memories", "stats"),
    Kind.LONG_TERM: ("total_memories",),
    Kind.CURRENT_TASKS: ("active_count",),
    Kind.WORK_EXPERIENCE: ("total_projects",),
    Kind.PROCEDURAL: ("total_runbooks", "loading_strategy"),
}


def shape_of(kind: Kind) -> Shape:
    if kind.is_project_kind:
        return PROJECT
    return RUNBOOK if kind is Kind.PROCEDURAL else MEMORY


_LIST_NAMES = {
    "high_priority": "high priority",
    "recent.high_importance": "recent high-importance",
    "recent.medium_importance": "recent medium-importance",
    "high_importance": "high-importance",
    "recently_completed": "recently completed",
}
"""How the index's lists are called in what a person reads (the others: their own name)."""
_COUNTED = {
    "total_memories": "memories",
    "total_runbooks": "runbooks",
    "total_projects": "projects",
    "active_count": "active projects",
}
"""What a total counts."""
_GROUPED = {
    "stats.by_importance": ("by importance", "{}-importance memories"),
    "stats.by_type": ("by type", "memories of type {}"),
    "stats.by_project": ("by project", "memories of project {}"),
}
"""How a stats map groups the memories, and what one of its numbers counts."""
_FIELD_NAMES = {"corrections_count": "corrections", "recent_progress": "recent progress"}


def list_name(section: str) -> str:
    """An index list as a person reads it: `recent.high_importance` -> `recent high-importance`,
    `by_topic.mobile` -> `topic mobile`."""
    if section.startswith("by_topic."):
        return f"topic {section.removeprefix('by_topic.')}"
    return _LIST_NAMES.get(section, section.replace("_", " "))


def _lists(sections: Sequence[str]) -> str:
    return ", ".join(map(list_name, sections)) if sections else "no list"


def _entry_lists(line: str) -> tuple[str, list[str]]:
    """A `key (list, ...)` line (KindDrift.missing, gone, kept) as its key and its lists."""
    key = missing_key(line)
    inside = line[len(key) + 2 : -1] if line != key else ""
    return key, inside.split(", ") if inside else []


def placed(line: str) -> tuple[str, str]:
    """A `key (list, ...)` line as its key and its lists in words (`recent high-importance`)."""
    key, lists = _entry_lists(line)
    return key, _lists(lists)


def _show(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ", ".join(value) or "(none)"
    if isinstance(value, str):
        text = cut(value, 80)
        return f"“{text}”" if " " in text else text
    return cut(json.dumps(value, ensure_ascii=False), 80)


def _number(value: Any) -> str:
    """A count as said: `no` where the index has none."""
    return "no" if value is None else _show(value)


@dataclass(frozen=True)
class Disagreement:
    """One field of one entry whose index value is not what the files say."""

    entry: str
    field: str
    index: Any
    files: Any

    def format(self) -> str:
        """The difference in words, on one line."""
        return "; ".join(self.sentences())

    def sentences(self) -> list[str]:
        """The difference in words: what the index holds, then what the tree gives; one line
        per number of a map of counts."""
        if self.entry == COUNTS:
            return self._counts()
        if self.field == "listed in":
            return [
                f"{self.entry}: listed under {_lists(self.index)} in the index; it now belongs"
                f" under {_lists(self.files)}"
            ]
        before, after = _differing(self.index, self.files)
        name = _FIELD_NAMES.get(self.field, self.field.replace("_", " "))
        if before is None:
            return [f"{self.entry}: the index gives no {name}; the file gives {_show(after)}"]
        if after is None:
            return [f"{self.entry}: the index gives {name} {_show(before)}; the file gives none"]
        return [f"{self.entry}: {name} is {_show(before)} in the index, {_show(after)} in the file"]

    def _counts(self) -> list[str]:
        index, files = self.index, self.files
        if self.field in _COUNTED:
            noun = _COUNTED[self.field]
            return [
                f"the index counts {_number(index)} {noun}; the tree now holds {_number(files)}"
            ]
        if self.field in _GROUPED and isinstance(files, Mapping):
            group, noun = _GROUPED[self.field]
            if not isinstance(index, Mapping):
                now = ", ".join(f"{_number(count)} {key}" for key, count in files.items())
                return [f"the index has no counts of memories {group}; the tree now holds {now}"]
            keys = [key for key in {**index, **files} if index.get(key) != files.get(key)]
            return [
                f"the index counts {_number(index.get(key))} {noun.format(key)}; the tree now"
                f" holds {_number(files.get(key))}"
                for key in keys
            ]
        name = self.field.replace("_", " ")
        if index is None:
            return [f"the index has no {name}; the files give {_show(files)}"]
        before, after = _differing(index, files)
        return [f"the index has {name} {_show(before)}; the files give {_show(after)}"]


def _differing(index: Any, files: Any, limit: int = 3) -> tuple[Any, Any]:
    """Of two maps (a runbook's triggers), only the parts that differ, so a long value cut for
    the screen still shows the difference."""
    if not (isinstance(index, Mapping) and isinstance(files, Mapping)):
        return index, files
    keys = [key for key in {**index, **files} if index.get(key) != files.get(key)][:limit]
    return (
        {key: _differing(index.get(key), files.get(key))[0] for key in keys},
        {key: _differing(index.get(key), files.get(key))[1] for key in keys},
    )


@dataclass(frozen=True)
class KindDrift:
    """The drift of one kind's index files."""

    kind: Kind
    path: str
    """index.json, relative to the root."""
    missing: tuple[str, ...] = ()
    """Entries the files give that the index lacks, with the sections they belong in
    (`key (section, ...)`: see missing_key)."""
    gone: tuple[str, ...] = ()
    """Entries of memories the files no longer put in any list of the index (aged out)."""
    disagreeing: tuple[Disagreement, ...] = ()
    files: tuple[str, ...] = ()
    """Whole-file findings: missing, not valid JSON, index.md out of date, layout."""
    unindexed: tuple[str, ...] = ()
    """Memories left out because their frontmatter cannot be read (a note, not drift)."""
    kept: tuple[str, ...] = ()
    """Entries tied to no file samantha-tui reads: samantha-llm's own state (a project with no
    folder) or entries of files gone. Kept by every write; a note, not drift."""

    @property
    def drifted(self) -> bool:
        return bool(self.missing or self.gone or self.disagreeing or self.files)

    def lines(self) -> list[str]:
        """The report for this kind in plain words; one line when nothing drifted."""
        state = "needs updating" if self.drifted else "up to date"
        lines = [f"{self.kind.label} index ({self.path}): {state}"]
        lines += [f"  {finding}" for finding in self.files]
        for entry in self.missing:
            key, lists = _entry_lists(entry)
            lines.append(f"  {key}: not in the index yet; it belongs under {_lists(lists)}")
        for entry in self.gone:
            key, lists = _entry_lists(entry)
            lines.append(
                f"  {key}: listed under {_lists(lists)} in the index, where it no longer belongs"
            )
        lines += [f"  {line}" for d in self.disagreeing for line in d.sentences()]
        lines += [f"  note: {note}" for note in self.unindexed]
        for entry in self.kept:
            key, lists = _entry_lists(entry)
            lines.append(f"  {key}: listed under {_lists(lists)} with no file of its own; kept")
        return lines


@dataclass(frozen=True)
class DriftReport:
    """Drift of every kind that has a folder in the tree."""

    kinds: tuple[KindDrift, ...]

    @property
    def drifted(self) -> bool:
        return any(kind.drifted for kind in self.kinds)

    def lines(self) -> list[str]:
        return [line for kind in self.kinds for line in kind.lines()]


def missing_key(line: str) -> str:
    """The entry's key (file or project name) of one of KindDrift.missing's lines."""
    return line.rsplit(" (", 1)[0]


def _counts(kind: Kind, old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[Disagreement]:
    """Derived top-level values (totals, stats) that differ; maps compared key by key."""
    for field in _ROOT_FIELDS[kind]:
        before, after = old.get(field), new.get(field)
        if isinstance(before, Mapping) and isinstance(after, Mapping):
            for key in after:
                if before.get(key) != after[key]:
                    yield Disagreement(COUNTS, f"{field}.{key}", before.get(key), after[key])
        elif before != after:
            yield Disagreement(COUNTS, field, before, after)


def compare(
    kind: Kind,
    old: Mapping[str, Any] | None,
    new: Mapping[str, Any],
    key_of: EntryKey,
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[Disagreement, ...]]:
    """(added, removed, disagreeing) between the index on disk and the patched one, entries
    tied to files by `key_of` (entries tied to none are left out: they are kept as they are)."""
    old = old or {}
    old_first, new_first = first_by_key(kind, old, key_of), first_by_key(kind, new, key_of)
    old_in, new_in = listed_in(kind, old, key_of), listed_in(kind, new, key_of)
    owned = [field for field in shape_of(kind).order if field in shape_of(kind).owned]
    missing = sorted(
        f"{key} ({', '.join(new_in[key])})" for key in new_first if key not in old_first
    )
    gone: list[str] = []
    disagreeing = list(_counts(kind, old, new)) if old else []
    for key in sorted(old_first):
        if key not in new_first:
            gone.append(f"{key} ({', '.join(old_in[key])})")
            continue
        if old_in[key] != new_in[key]:
            disagreeing.append(Disagreement(key, "listed in", old_in[key], new_in[key]))
        for field in owned:
            before, after = old_first[key].get(field), new_first[key].get(field)
            if before != after:
                disagreeing.append(Disagreement(key, field, before, after))
    return tuple(missing), tuple(gone), tuple(disagreeing)

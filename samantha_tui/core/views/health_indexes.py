"""The index drift the health report says: only what samantha-llm's readers would get wrong.

The index check (`samantha-tui index --check`) lists every way an index file differs from what
samantha-tui would write; most of that is how samantha-llm itself leaves its indexes, and none of
it makes its assistant read anything wrong. From samantha-llm's code and process documents:

- index.json is the file read at start-up; index.md only where there is no index.json. No code of
  samantha-llm writes an index.md: a missing one is never said, and one read in place of an
  index.json is said only when it leaves out a memory (its wording is the assistant's own).
- index.json is written by samantha-llm in three folders: short-term (the worker's finalize),
  current tasks (install, `projects review`) and procedural (the merge). A missing one is said
  there when the folder holds memories. Long-term has none unless the assistant makes one; the
  start-up reads it only for critical memories, so a missing one is said when there is a
  critical long-term memory and no index.md either. Work experience has no index in
  samantha-llm and is not read at start-up: its drift is not said.
- Entries in the shapes samantha-llm writes are not drift: the worker's entry has no
  `importance` (its list says it) and a title made from the file name; the documented
  hand-kept entry has no title, date or topics. A key missing from an entry is not a
  disagreement; a value that differs is.
- The worker only inserts into `recent.high_importance` and `recent.medium_importance`, never
  takes an entry out: one older than 30 days still listed there is how every real index looks,
  not drift (nor is an entry the files would put in no list now). One missing from `recent` is.
- Long-term's grouping (`high_importance`, `by_topic`) is the assistant's own, and the start-up
  reads only its `critical` list: an entry listed in other groups than the files suggest is not
  said; one in or out of `critical` wrongly is.
- Current tasks list only the recently completed projects: an older completed one missing is
  not said.
- A merge copy beside its original is not indexed by samantha-llm's merge, and the duplicate
  check proposes merging it away: it is not missing from the index.
- Totals and stats that differ are not read by anything; a missing `stats` (or one of its maps)
  is, since the worker's finalize fails without it.
- Layout (key order, spacing) means nothing to a JSON reader.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path, PurePosixPath

from ..basics.model import Kind, Memory, Severity, Tree
from . import health_findings as h
from .health_findings import Finding, Fix
from .indexes import DriftReport, KindDrift
from .indexes.drift import (
    COUNTS,
    JSON_LAYOUT,
    JSON_MISSING,
    JSON_OUTSIDE,
    MD_MISSING,
    MD_STALE,
    Disagreement,
    missing_key,
)
from .indexes.entries import entry_key
from .indexes.plan import INDEX_MD
from .merge_copies import merge_copies

AGED = "recent."
"""The worker only ever inserts into `recent.*`: an entry older than its 30 days stays there."""
CRITICAL = "critical"
COMPLETED = "recently_completed"
"""Current tasks keep only the recently completed projects (`recently_completed`)."""
WRITTEN_BY_SAMANTHA_LLM = frozenset({Kind.SHORT_TERM, Kind.CURRENT_TASKS, Kind.PROCEDURAL})
"""The kinds whose index.json samantha-llm's own code writes."""
_NOT_READ = frozenset({JSON_LAYOUT, JSON_OUTSIDE, MD_MISSING, MD_STALE})
"""Said of whole files by the index check, and never a thing samantha-llm reads wrong while
there is an index.json."""


def worker_title(key: str) -> str:
    """The title samantha-llm's worker gives a memory's index entry: its file name's stem, `_`
    as spaces, each word capitalised (Python's str.title)."""
    return PurePosixPath(key).stem.replace("_", " ").title()


def _read_wrong(disagreement: Disagreement, kind: Kind) -> bool:
    """Whether this difference makes samantha-llm read something wrong (module docstring)."""
    if disagreement.entry == COUNTS:
        return disagreement.field.startswith("stats") and disagreement.index is None
    if disagreement.field == "listed in":
        index, files = set(disagreement.index or ()), set(disagreement.files or ())
        extra = {section for section in index - files if not section.startswith(AGED)}
        if kind is Kind.LONG_TERM:
            return CRITICAL in extra | (files - index)
        return bool(extra or files - index)
    if disagreement.index is None:
        return False
    return not (
        disagreement.field == "title" and disagreement.index == worker_title(disagreement.entry)
    )


def _markdown(tree: Tree[Memory], kind: Kind) -> str | None:
    """The kind's index.md as text; None when there is none to read."""
    try:
        return (Path(tree.root) / kind.folder / INDEX_MD).read_text("utf-8", "replace")
    except OSError:
        return None


def _wants_json(kind: Kind, memories: list[Memory], markdown: str | None) -> bool:
    """Whether a missing index.json here is one samantha-llm would have written or read."""
    if kind in WRITTEN_BY_SAMANTHA_LLM:
        # Even beside an index.md: the worker's next finalize makes an index.json holding only
        # its session, and from then on the start-up reads that instead.
        return bool(memories)
    if kind is Kind.LONG_TERM:
        return markdown is None and any(memory.critical for memory in memories)
    return False


def _left_out(kind: Kind, memories: list[Memory], markdown: str) -> int:
    """How many memories an index.md read in place of index.json does not name (the assistant
    finds a memory there by its file name, or a project by its folder's)."""
    return len({key for m in memories if (key := entry_key(kind, m)) not in markdown})


def actionable(drift: KindDrift, tree: Tree[Memory], copies: dict[str, Memory]) -> KindDrift:
    """`drift` less what samantha-llm's readers never get wrong (see the module docstring)."""
    if drift.kind is Kind.WORK_EXPERIENCE:
        return KindDrift(drift.kind, drift.path)
    memories = [m for m in tree.of_kind(drift.kind) if m.path not in copies]
    if JSON_MISSING in drift.files:
        # No entries to compare: said is whether samantha-llm wanted the file, and whether the
        # index.md read in its place names every memory (how it words them is its own).
        markdown = _markdown(tree, drift.kind)
        files = [JSON_MISSING] if _wants_json(drift.kind, memories, markdown) else []
        left_out = _left_out(drift.kind, memories, markdown) if markdown is not None else 0
        if left_out:
            files.append(f"index.md, read in place of index.json, leaves out {left_out}")
        return KindDrift(drift.kind, drift.path, files=tuple(files))
    copied = {path.removeprefix(drift.kind.folder + "/") for path in copies}
    return dataclasses.replace(
        drift,
        gone=(),
        missing=tuple(line for line in drift.missing if _wanted(drift.kind, line, copied)),
        disagreeing=tuple(d for d in drift.disagreeing if _read_wrong(d, drift.kind)),
        files=tuple(line for line in drift.files if line not in _NOT_READ),
    )


def _wanted(kind: Kind, line: str, copied: set[str]) -> bool:
    """Whether a memory or project missing from the index is one samantha-llm would list."""
    if missing_key(line) in copied:
        return False
    sections = line.rsplit(" (", 1)[-1].rstrip(")").split(", ")
    return not (kind is Kind.CURRENT_TASKS and set(sections) <= {COMPLETED})


def drift_findings(report: DriftReport, tree: Tree[Memory]) -> list[Finding]:
    """One finding per kind whose index files samantha-llm would read wrong."""
    copies = merge_copies(tree)
    found = []
    for kind in (actionable(kind, tree, copies) for kind in report.kinds):
        if not kind.drifted:
            continue
        counts = [
            (len(kind.missing), "missing"),
            (len(kind.gone), "in no list by its file now"),
            (len(kind.disagreeing), "disagreeing with the files"),
        ]
        said = [f"{count} {words}" for count, words in counts if count]
        said += [_file_words(kind.kind, line) for line in kind.files]
        found.append(
            Finding(
                h.INDEX_DRIFT,
                Severity.WARNING,
                (kind.path,),
                f"the {kind.kind.label} index is out of step with the files (the assistant "
                f"reads the index): {'; '.join(said)}",
                Fix(h.INDEX, "r: bring the indexes in step (or run `samantha-tui index`)"),
            )
        )
    return found


def _file_words(kind: Kind, line: str) -> str:
    if line == JSON_MISSING and kind is Kind.LONG_TERM:
        return f"{line}, so the start-up finds no critical long-term memory"
    return line

"""The Markdown that samantha-llm's own search reads but samantha-tui lists as no memory, searched.

samantha-llm's local search reads every `*.md` under the five kind folders but `index.md` (at any
depth): a project's other files (`gateway/notes.md`, `gateway/docs/design.md`), hidden files and
the contents of hidden folders (`.archive/`), Markdown in `pending-updates/`. samantha-tui lists
none of them as a memory (a project's files go with its status.md; the rest is reported by
`check`), so a headless search would never find text the assistant's own search finds. Here each
is read as a memory file is read (the same reader: regular files only, 5 MB at most, a link out
of the tree not followed), only to be matched; nothing in them is run or written, and every hit
says what the file is, so no one takes it for a memory.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..basics.model import Kind, Memory
from ..reading.scan import PENDING_DIR, STATUS_FILE
from .query import Query
from .search import SearchIndex, SearchResult

SKIPPED_NAME = "index.md"
"""samantha-llm's search skips files of this name wherever they are."""


@dataclass(frozen=True)
class OtherFile:
    """One such file: its record (for matching and showing) and what it is, in words."""

    record: Memory
    what: str


@dataclass(frozen=True)
class OtherFound:
    """A query's answer over those files, and each file by path."""

    result: SearchResult
    files: Mapping[str, OtherFile]


def what_it_is(kind: Kind, rel: str) -> str:
    """Why rel is not a memory here, in a few words: whose file it is, or why it is unlisted."""
    parts = rel.removeprefix(kind.folder + "/").split("/")
    hidden = next((i for i, part in enumerate(parts[:-1]) if part.startswith(".")), None)
    if hidden is not None:
        return f"not a memory: in the hidden folder {'/'.join(parts[: hidden + 1])}/"
    if parts[-1].startswith("."):
        return "not a memory: a hidden file"
    if kind is Kind.CURRENT_TASKS and len(parts) > 1 and parts[0] == PENDING_DIR:
        return f"not a memory: Markdown in {PENDING_DIR}/"
    if kind.is_project_kind and len(parts) > 1:
        return f"not a memory: a file of project {parts[0]}"
    return "not a memory"


def other_paths(root: Path) -> Iterator[tuple[Kind, str]]:
    """(kind, path) of every `.md` samantha-llm's search reads that is not a memory here, sorted
    per kind. Like its search (pathlib's rglob), no linked folder is entered."""
    for kind in Kind:
        folder = f"{root}/{kind.folder}"
        if os.path.isdir(folder) and not os.path.islink(folder):
            found: list[str] = []
            _walk(folder, kind.folder, kind, inside=False, project=False, found=found)
            yield from ((kind, rel) for rel in sorted(found))


def _walk(path: str, rel: str, kind: Kind, inside: bool, project: bool, found: list[str]) -> None:
    """Add to `found` the files under path that are searched but not listed. `inside`: every
    `.md` here counts (a hidden folder, pending-updates/, a project's folder), else only hidden
    ones, the visible ones being memories; `project`: path is a project's folder, whose
    status.md is its memory. One pass over each folder's entries, stat-free for the thousands
    of memory files of a kind folder (the search runs many times a minute)."""
    try:
        entries = list(os.scandir(path))
    except OSError:
        return  # the scan reports a folder it cannot list
    top = rel == kind.folder
    for entry in entries:
        name = entry.name
        hidden = name.startswith(".")
        if name.endswith(".md") and not (inside or hidden):
            continue  # a memory (in a project kind, one at the top of the kind folder)
        try:
            is_folder = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if is_folder:
            # At the top of a project kind, a visible folder is a project (pending-updates/
            # holds updates); inside either, every Markdown file is searched and not listed.
            opens = top and kind.is_project_kind and not hidden
            is_project = opens and not (kind is Kind.CURRENT_TASKS and name == PENDING_DIR)
            _walk(entry.path, f"{rel}/{name}", kind, inside or hidden or opens, is_project, found)
        elif (
            name.endswith(".md") and name != SKIPPED_NAME and not (project and name == STATUS_FILE)
        ):
            found.append(f"{rel}/{name}")


def other_files(root: Path, today: dt.date) -> list[OtherFile]:
    """Every such file, read as a memory file is read."""
    listed = list(other_paths(root))
    if not listed:
        return []
    # Imported only when there is a file to read: the reader brings the YAML parser, which a
    # search answered from the catalog never needs.
    from ..reading.reader import read_memory

    return [
        OtherFile(read_memory(root, rel, kind, today), what_it_is(kind, rel))
        for kind, rel in listed
    ]


def search_other_files(
    root: Path, today: dt.date, query: str | Query, limit: int | None = None
) -> OtherFound:
    """query over those files, ranked as the search ranks memories."""
    files = {file.record.path: file for file in other_files(root, today)}
    if not files:
        return OtherFound(SearchResult(), {})
    index = SearchIndex.build([file.record for file in files.values()], today)
    return OtherFound(index.search(query, limit), files)

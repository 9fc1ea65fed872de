"""What the assistant reads from the index.json files at start-up, read-only and never raising.

The assistant loads its memories from these lists, not from the memory files, so a hand-edited
index decides what it sees. Anything of an odd shape (a list where a mapping belongs, an entry
without a `file`, JSON nested too deep to parse) is skipped or reported, never raised.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..basics.json_read import TOO_DEEP, TooDeep, read_regular
from ..basics.json_read import loads as json_loads
from ..basics.model import Kind
from .indexes.sections import entries, sections

INDEX_NAME = "index.json"
MAX_INDEX_BYTES = 50 * 1024 * 1024
"""An index larger than this is not read: no real one comes near it."""


@dataclass(frozen=True)
class IndexFile:
    """One kind's index.json as read: its data, or why there is none."""

    kind: Kind
    path: str
    """Relative to the cerebrum root."""
    data: Mapping[str, Any] | None
    problem: str = ""
    """Why `data` is None: the file is missing, unreadable, or not a JSON object."""

    @property
    def found(self) -> bool:
        return self.data is not None

    @property
    def missing(self) -> bool:
        return self.data is None and not self.problem


@dataclass(frozen=True)
class Listed:
    """A memory an index names in one of its lists."""

    file: str
    """As the index writes it, relative to the kind folder."""
    path: str
    """The file it names, relative to the cerebrum root."""
    title: str


@dataclass(frozen=True)
class IndexedProject:
    """A current-tasks entry: the name every real reader goes by, and what it says of itself."""

    name: str
    status: str
    summary: str
    files: tuple[str, ...]


@dataclass(frozen=True)
class IndexedRunbook:
    """A procedural entry: the runbook file and the triggers the assistant matches."""

    file: str
    path: str
    domain: str
    triggers: Any
    """The raw `triggers` value; core.triggers.read_triggers reads it."""


def read_index(root: Path, kind: Kind) -> IndexFile:
    """The kind's index.json; a missing, unreadable or odd file gives data None and a problem."""
    rel = f"{kind.folder}/{INDEX_NAME}"
    path = root / rel
    try:
        if not path.is_file():
            return IndexFile(kind, rel, None)
        if path.stat().st_size > MAX_INDEX_BYTES:
            return IndexFile(kind, rel, None, f"larger than {MAX_INDEX_BYTES // 2**20} MB")
        raw = read_regular(path)
    except OSError as error:
        return IndexFile(kind, rel, None, f"unreadable: {error.strerror or error}")
    return index_from_bytes(kind, raw)


def index_from_bytes(kind: Kind, raw: bytes | None) -> IndexFile:
    """The kind's index.json from its bytes (None: there is no file), read as `read_index` reads
    the file: what a plan's index patch would leave is judged like what is on disk."""
    rel = f"{kind.folder}/{INDEX_NAME}"
    if raw is None:
        return IndexFile(kind, rel, None)
    if len(raw) > MAX_INDEX_BYTES:
        return IndexFile(kind, rel, None, f"larger than {MAX_INDEX_BYTES // 2**20} MB")
    try:
        data = json_loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return IndexFile(kind, rel, None, "not UTF-8 text")
    except TooDeep:
        return IndexFile(kind, rel, None, TOO_DEEP)
    except ValueError as error:
        return IndexFile(kind, rel, None, f"not valid JSON: {error}")
    if not isinstance(data, Mapping):
        return IndexFile(kind, rel, None, "not a JSON object")
    return IndexFile(kind, rel, data)


_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Control characters and bidi overrides: an index's text never reaches a terminal with them."""


def _text(value: Any) -> str:
    """A scalar as one line of showable text; a list or mapping (a hand edit) as nothing."""
    if isinstance(value, str):
        return " ".join(_UNSHOWABLE.sub(" ", value).split())
    if isinstance(value, bool | int | float):
        return str(value)
    return ""


def _relative(kind: Kind, file: str) -> str:
    """An entry's file as a path under the kind folder: `./x.md`, `a\\b.md` and full paths too."""
    file = file.strip().replace("\\", "/")
    while file.startswith("./"):
        file = file[2:]
    return file.removeprefix(kind.folder + "/")


def _section(data: Mapping[str, Any], section: str) -> Any:
    value: Any = data
    for part in section.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


def listed(index: IndexFile, section: str) -> list[Listed]:
    """The memories of a list (`critical`, `recent.high_importance`), in order, each once."""
    if index.data is None:
        return []
    return [
        Listed(file, path, _text(entry.get("title")) or rel.rsplit("/", 1)[-1])
        for entry, file, rel, path in _by_file(index, _section(index.data, section))
    ]


@dataclass(frozen=True)
class ProjectEntry:
    """A memory entry in one of an index's lists, with the `project` it says."""

    listed: Listed
    section: str
    project: str


def project_entries(index: IndexFile) -> list[ProjectEntry]:
    """Every memory entry of every list of a short- or long-term index, in list order, with
    the project it names ("" for none): the assistant finds a project's memories by these."""
    if index.data is None:
        return []
    found: list[ProjectEntry] = []
    for section, items in sections(index.kind, index.data):
        for entry, file, rel, path in _by_file(index, items):
            title = _text(entry.get("title")) or rel.rsplit("/", 1)[-1]
            found.append(
                ProjectEntry(Listed(file, path, title), section, _text(entry.get("project")))
            )
    return found


def unnamed_entries(index: IndexFile, section: str) -> int:
    """How many entries of a list name no file: the assistant can read nothing for them."""
    if index.data is None:
        return 0
    items = entries(_section(index.data, section))
    return sum(1 for e in items if not isinstance(e.get("file"), str) or not e["file"].strip())


def projects(index: IndexFile, section: str = "active") -> list[IndexedProject]:
    """The projects of a current-tasks list, each once by name; entries without a name skipped."""
    if index.data is None:
        return []
    found: list[IndexedProject] = []
    seen: set[str] = set()
    for entry in entries(index.data.get(section)):
        name = _text(entry.get("name"))
        if not name or name in seen:
            continue
        seen.add(name)
        files = entry.get("files")
        paths = tuple(
            _relative(index.kind, f)
            for f in (files if isinstance(files, list) else [files])
            if isinstance(f, str) and f.strip()
        )
        found.append(
            IndexedProject(name, _text(entry.get("status")), _text(entry.get("summary")), paths)
        )
    return found


def runbooks(index: IndexFile) -> list[IndexedRunbook]:
    """The procedural index's runbooks, each once by file, in order."""
    if index.data is None:
        return []
    found: list[IndexedRunbook] = []
    for entry, file, rel, path in _by_file(index, index.data.get("runbooks")):
        domain = _text(entry.get("domain")) or rel.rsplit("/", 1)[-1].removesuffix(".md")
        found.append(IndexedRunbook(file, path, domain, entry.get("triggers")))
    return found


def _by_file(index: IndexFile, items: Any) -> Iterator[tuple[Mapping[str, Any], str, str, str]]:
    """(entry, its `file`, that file inside the kind folder, from the root) for each entry of a
    list that names a file, the first entry only for a file named twice."""
    seen: set[str] = set()
    for entry in entries(items):
        file = entry.get("file")
        if not isinstance(file, str) or not file.strip():
            continue
        rel = _relative(index.kind, file)
        path = f"{index.kind.folder}/{rel}"
        if path not in seen:
            seen.add(path)
            yield entry, file, rel, path

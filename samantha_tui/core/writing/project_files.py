"""A project's own notes beside its status.md (notes.md, decisions.md), read to be shown."""

from __future__ import annotations

from dataclasses import dataclass

from ..basics.json_read import NotRegular, read_regular
from ..basics.model import Memory
from ..reading.reader import MAX_FILE_BYTES
from .atomic import StoreError
from .store import Store

NOTE_NAMES = ("notes.md", "decisions.md")
"""The files a project keeps next to its status.md, in the order they are shown."""


@dataclass(frozen=True)
class ProjectFile:
    """One of a project's notes: its text, or why it cannot be shown."""

    path: str
    """Relative to the cerebrum root."""
    name: str
    text: str = ""
    problem: str | None = None
    """Why the text is missing or not exactly the file's (not UTF-8), in words."""


def project_files(store: Store, memory: Memory) -> list[ProjectFile]:
    """The notes.md and decisions.md of a project memory's folder that are there, read now.

    Regular files only (a named pipe is named, never opened), through the store's path checks
    (a link out of the tree is refused), and no more than the 5 MB a memory may hold.
    """
    if not memory.kind.is_project_kind:
        return []
    folder = memory.path.rsplit("/", 1)[0]
    present = set(memory.companions)
    return [
        read_project_file(store, f"{folder}/{name}")
        for name in NOTE_NAMES
        if f"{folder}/{name}" in present
    ]


def read_project_file(store: Store, rel: str) -> ProjectFile:
    """The text of one file of a project, or a ProjectFile saying why it cannot be shown."""
    name = rel.rsplit("/", 1)[-1]
    try:
        raw = read_regular(store.safe_path(rel), MAX_FILE_BYTES + 1)
    except StoreError as error:
        return ProjectFile(rel, name, problem=str(error))
    except FileNotFoundError:
        return ProjectFile(rel, name, problem="no longer there")
    except NotRegular as error:
        return ProjectFile(rel, name, problem=f"{error}; not read")
    except OSError as error:
        return ProjectFile(rel, name, problem=f"cannot read: {error.strerror or error}")
    if len(raw) > MAX_FILE_BYTES:
        return ProjectFile(rel, name, problem="over the 5 MB limit; its text was not loaded")
    try:
        return ProjectFile(rel, name, raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        text = raw.decode("utf-8", errors="replace")
        byte = f"0x{raw[error.start]:02x}"
        problem = f"not UTF-8 text (byte {byte} at offset {error.start}); shown with replacements"
        return ProjectFile(rel, name, text, problem)

"""Where a memory came from: the subconscious session that wrote it, or the memory a merge copy
was copied beside.

samantha-llm's worker writes a session's memories with its `session_id` (`YYYYMMDD_HHMMSS`, the
time the session started) into `.ai/subconscious/.ai/sessions/<id>/`, whose status.json says
`processing`, `complete` (awaiting merge) or `failed`; the merge moves the folder to
`processed/<id>`. On a name clash the merge writes `<stem>_<id>.md` beside `<stem>.md`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from ..basics.json_read import read_json
from ..basics.model import Memory, Tree
from ..reading.scan import SUBCONSCIOUS

__all__ = ["Origin", "Session", "names_an_origin", "origin_of", "session_memories"]

PROCESSING = "processing"
AWAITING_MERGE = "complete, awaiting merge"
FAILED = "failed"
PROCESSED = "processed"
GONE = "gone"
UNKNOWN = "status unknown"
_STATUS_WORDS = {"processing": PROCESSING, "complete": AWAITING_MERGE, "failed": FAILED}
_SESSION_ID = re.compile(r"^\d{8}_\d{6}$")
_MERGE_STAMP = re.compile(r"^(?P<stem>.+)_(?P<stamp>\d{8}_\d{6})\.md$")
"""A merge copy's name (lifecycle's `_MERGE_STAMP`, with its `.md`)."""
_WORKSPACE_LINE = re.compile(r"^- \*\*Workspace\*\*: (?P<path>.+)$", re.MULTILINE)
"""The line samantha-llm's memory generator writes in a generated memory's body."""
SHOWN_OTHERS = 3


@dataclass(frozen=True)
class Session:
    """A subconscious session as the tree has it now."""

    id: str
    started: dt.datetime | None
    """From the id (`YYYYMMDD_HHMMSS`); None when the id is not of that form."""
    status: str
    """processing, complete (awaiting merge), failed, processed, gone, or unknown."""
    folder: str | None = None
    """Its folder relative to the root, while there is one."""
    workspace: str | None = None
    project: str | None = None


@dataclass(frozen=True)
class Origin:
    """Where one memory came from."""

    session: Session | None = None
    others: tuple[str, ...] = ()
    """The other memories of the tree written by the same session, by path."""
    original: str | None = None
    """For a merge copy: the memory it was copied beside, when it is in the tree."""

    def line(self) -> str:
        """One line for a person (user text: shown, never as markup)."""
        parts: list[str] = []
        if self.session is not None:
            session = self.session
            when = session.started.strftime("%Y-%m-%d %H:%M") if session.started else session.id
            parts.append(f"From session {when} · {session.status}")
            if session.project:
                parts.append(f"project {session.project}")
            count = len(self.others)
            parts.append(f"{count} other memor{'y' if count == 1 else 'ies'}")
        if self.original is not None:
            parts.append(f"Merge copy of {self.original.rsplit('/', 1)[-1]}")
        return " · ".join(parts)


def _started(session_id: str) -> dt.datetime | None:
    if not _SESSION_ID.match(session_id):
        return None
    try:
        return dt.datetime.strptime(session_id, "%Y%m%d_%H%M%S")
    except ValueError:
        return None


def _status_file(root: Path, folder: str) -> dict[str, object]:
    try:
        data = read_json(root / folder / "status.json")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _text(value: object) -> str | None:
    if isinstance(value, str) and value.strip() and value.strip() != "unknown":
        return " ".join(value.split())
    return None


def _session(tree: Tree[Memory], memory: Memory, session_id: str) -> Session:
    root = Path(tree.root)
    started = _started(session_id)
    # Only a plain id names a folder: never a path out of the sessions folder.
    safe = bool(_SESSION_ID.match(session_id))
    staged = f"{SUBCONSCIOUS}/sessions/{session_id}"
    processed = f"{SUBCONSCIOUS}/processed/{session_id}"
    status_data: dict[str, object] = {}
    if safe and (root / staged).is_dir():
        folder: str | None = staged
        status_data = _status_file(root, staged)
        word = status_data.get("status")
        status = _STATUS_WORDS.get(word, UNKNOWN) if isinstance(word, str) else UNKNOWN
    elif safe and (root / processed).is_dir():
        folder, status = processed, PROCESSED
        status_data = _status_file(root, processed)
    else:
        folder, status = None, GONE
    found = _WORKSPACE_LINE.search(memory.body)
    workspace = _text(status_data.get("workspace")) or (
        _text(found.group("path")) if found else None
    )
    return Session(session_id, started, status, folder, workspace, memory.project)


def _session_id(memory: Memory) -> str | None:
    value = memory.frontmatter.get("session_id")
    if value is None or isinstance(value, bool | list | dict):
        return None
    text = str(value).strip()
    return text or None


def session_memories(tree: Tree[Memory], session_id: str) -> list[Memory]:
    """Every memory of the tree whose `session_id` is this one, in tree order."""
    return [m for m in tree.memories if _session_id(m) == session_id]


def _original(tree: Tree[Memory], memory: Memory) -> str | None:
    match = _MERGE_STAMP.match(memory.name)
    if match is None:
        return None
    folder = memory.path.rsplit("/", 1)[0]
    wanted = f"{folder}/{match.group('stem')}.md"
    return next((m.path for m in tree.memories if m.path == wanted), None)


def names_an_origin(memory: Memory) -> bool:
    """Whether `origin_of` may find anything for `memory` (a `session_id`, or a merge copy's
    name), asked of the record alone: no file read, no walk of the tree."""
    return _session_id(memory) is not None or _MERGE_STAMP.match(memory.name) is not None


def origin_of(tree: Tree[Memory], memory: Memory) -> Origin | None:
    """The session that wrote `memory` and the others it wrote, and the original of a merge
    copy; None when the memory says nothing of where it came from."""
    session_id = _session_id(memory)
    original = _original(tree, memory)
    if session_id is None and original is None:
        return None
    session = None
    others: tuple[str, ...] = ()
    if session_id is not None:
        session = _session(tree, memory, session_id)
        others = tuple(m.path for m in session_memories(tree, session_id) if m.path != memory.path)
    return Origin(session, others, original)

"""Walk a cerebrum and read every memory, pending update and staged session into a Tree."""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import json
import os
from collections.abc import Iterator
from pathlib import Path

from .model import CONFIDENCE_WORDS, Kind, Memory, PendingUpdate, Problem, StagedSession, Tree
from .reader import outside_root
from .record_cache import RecordCache

INDEX_FILES = frozenset({"index.md", "index.json"})
PENDING_DIR = "pending-updates"
STATUS_FILE = "status.md"
SUBCONSCIOUS = ".ai/subconscious/.ai"


def _visible(name: str) -> bool:
    return not name.startswith(".")


def memory_paths(
    root: Path, kind: Kind, under: str | None = None
) -> list[tuple[str, tuple[str, ...]]]:
    """(memory path, companion paths) for every memory of a kind, relative to root, sorted.

    `under` limits the walk to one file or folder of the kind (after a change there), so one
    operation does not list the whole kind again.
    """
    folder = root / kind.folder
    found: list[tuple[str, tuple[str, ...]]] = []
    if not folder.is_dir():
        return found
    if kind.is_project_kind:
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            rel = f"{kind.folder}/{entry.name}"
            if under is not None and not (under == rel or under.startswith(rel + "/")):
                continue
            if entry.is_dir(follow_symlinks=False) and _visible(entry.name):
                if entry.name == PENDING_DIR and kind is Kind.CURRENT_TASKS:
                    continue
                files = sorted(
                    e.name
                    for e in os.scandir(entry.path)
                    if e.is_file() and _visible(e.name) and e.name != STATUS_FILE
                )
                companions = tuple(f"{rel}/{name}" for name in files)
                found.append((f"{rel}/{STATUS_FILE}", companions))
            elif (_is_memory_file(entry.name) and not entry.is_dir()) or _leads_out(root, entry):
                found.append((rel, ()))  # a link out is listed for the reader to report
        return found
    start = root / under if under is not None else folder
    if start.is_file():
        return [(under, ())] if under is not None and _is_memory_file(start.name) else []
    for dirpath, dirnames, filenames in os.walk(start):
        dirnames[:] = sorted(d for d in dirnames if _visible(d))
        base = Path(dirpath).relative_to(root).as_posix()
        found.extend((f"{base}/{name}", ()) for name in sorted(filenames) if _is_memory_file(name))
        # os.walk never enters a linked folder; one leading out of the tree is listed, so the
        # reader reports it instead of the folder vanishing without a word.
        found.extend(
            (f"{base}/{name}", ()) for name in dirnames if _leads_out(root, Path(dirpath, name))
        )
    return sorted(found)


def _leads_out(root: Path, path: Path | os.DirEntry[str]) -> bool:
    """A symlink that takes its path outside the tree."""
    return os.path.islink(path) and outside_root(root, Path(path)) is not None


def _is_memory_file(name: str) -> bool:
    return name.endswith(".md") and _visible(name) and name not in INDEX_FILES


def read_pending(root: Path) -> tuple[list[PendingUpdate], list[Problem]]:
    """Pending project updates, and a problem for each file that cannot be one."""
    folder = root / Kind.CURRENT_TASKS.folder / PENDING_DIR
    updates: list[PendingUpdate] = []
    problems: list[Problem] = []
    if not folder.is_dir():
        return updates, problems
    for path in sorted(folder.glob("*.json")):
        rel = path.relative_to(root).as_posix()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            problems.append(Problem(rel, f"pending update is not readable JSON: {error}"))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("proposed_changes"), dict):
            problems.append(Problem(rel, "pending update has no `proposed_changes` mapping"))
            continue
        session_id = data.get("session_id")
        updates.append(
            PendingUpdate(
                path=rel,
                project=str(data.get("project_name") or path.stem.split("_", 2)[-1]),
                session_date=data.get("session_date"),
                confidence=_confidence(data.get("confidence")),
                proposed_changes=data["proposed_changes"],
                reasoning=str(data.get("reasoning") or ""),
                session_id=str(session_id) if session_id else None,
            )
        )
    return updates, problems


def _confidence(value: object) -> str | float | None:
    """samantha-llm writes a word (`low`, `medium`, `high`); a number is kept too. Other text is
    kept as written, so a person sees what the file says."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and value.strip():
        word = value.strip()
        return word.lower() if word.lower() in CONFIDENCE_WORDS else word
    return None


def read_sessions(root: Path) -> list[StagedSession]:
    """Subconscious staging sessions, each with its status and generated memories."""
    folder = root / SUBCONSCIOUS / "sessions"
    sessions: list[StagedSession] = []
    if not folder.is_dir():
        return sessions
    for path in sorted(p for p in folder.iterdir() if p.is_dir() and _visible(p.name)):
        try:
            status = json.loads((path / "status.json").read_text(encoding="utf-8")).get("status")
        except (OSError, ValueError, AttributeError):
            status = "unknown"
        memories = tuple(
            p.relative_to(root).as_posix() for p in sorted((path / "memories").glob("*.md"))
        )
        sessions.append(StagedSession(path.relative_to(root).as_posix(), str(status), memories))
    return sessions


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Hold off the cycle collector while a scan builds records (hundreds of thousands of objects).

    The records all stay alive, so its passes free nothing; they cost about a sixth of a warm scan.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _read_memories(root: Path, today: dt.date) -> tuple[list[Memory], list[Problem]]:
    cache = RecordCache.open(root)
    memories: list[Memory] = []
    problems: list[Problem] = []
    for kind in Kind:
        not_folders = [
            path
            for path in (root / ".ai" / kind.folder_name, root / kind.folder)
            if path.exists() and not path.is_dir()
        ]
        if not_folders:
            rel = not_folders[0].relative_to(root).as_posix()
            problems.append(Problem(rel, "expected a folder of memories, found a file"))
            continue
        try:
            paths = memory_paths(root, kind)
        except OSError as error:
            problems.append(Problem(kind.folder, f"cannot list folder: {error.strerror or error}"))
            continue
        # Sorted by full path: the store finds records by bisection in this order.
        for rel, companions in sorted(paths):
            memories.append(cache.read(rel, kind, today, companions))
    cache.save()
    return memories, problems


def scan(root: Path, today: dt.date) -> Tree:
    """Read the whole tree. Bad files become records with problems; nothing in it is written.

    Records of files unchanged since the last scan come from the user's record cache.
    """
    with _collector_paused():
        memories, problems = _read_memories(root, today)
    updates, update_problems = read_pending(root)
    return Tree(
        root=str(root),
        memories=tuple(memories),
        pending_updates=tuple(updates),
        sessions=tuple(read_sessions(root)),
        problems=tuple(problems + update_problems),
    )

"""Watch a tree for what other programs change, sorted into what the store and the app must redo."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..basics.errors import StoreError
from ..basics.model import TRASH_DIR, Kind
from .scan import INDEX_FILES, PENDING_DIR, SUBCONSCIOUS

if TYPE_CHECKING:
    from watchfiles import Change

DEBOUNCE_MS = 600
"""A steady stream of changes is still reported this often, so a change shows within a second."""
STEP_MS = 100
"""A pause this long ends a burst: a `git checkout` of 500 files arrives as one batch."""
RUST_TIMEOUT_MS = 500
"""How often the watching thread looks up: cancelling the watch never waits longer."""

_MODIFIED = 2  # watchfiles.Change.modified, compared as an int so importing this stays cheap
_PENDING = f"{Kind.CURRENT_TASKS.folder}/{PENDING_DIR}"
_SESSIONS = f"{SUBCONSCIOUS}/sessions"
# The folders each flag of a FileBatch stands for.
_AREAS = {
    "indexes": tuple(kind.folder for kind in Kind),
    "pending": (_PENDING,),
    "sessions": (_SESSIONS,),
    "trash": (TRASH_DIR,),
}
# Editors' swap, backup and probe files, and the store's own temporary files (see atomic.py).
_JUNK = re.compile(r"(~|\.sw[a-p]|\.tmp)$|^(4913|\.#.*)$")


@dataclass(frozen=True)
class FileBatch:
    """One burst of outside changes, as the parts of the app that must react to it see it."""

    paths: tuple[str, ...] = ()
    """Root-relative memory files and folders, pending updates and session files, sorted:
    what `Store.absorb` re-reads."""
    indexes: bool = False
    """An index.json / index.md of a kind changed."""
    pending: bool = False
    """Pending project updates may have changed."""
    sessions: bool = False
    """Subconscious sessions may have changed."""
    trash: bool = False
    """Something in `.ai/.trash/` changed."""


def batch_of(root: Path, raw_changes: Iterable[tuple[Change, str]]) -> FileBatch | None:
    """Sort watchfiles' (change, absolute path) pairs into a FileBatch; None if nothing matters."""
    prefixes = {os.fspath(Path(root).absolute()), os.fspath(Path(root).resolve())}
    paths: set[str] = set()
    flags: set[str] = set()
    for change, raw in raw_changes:
        rel = _relative(raw, prefixes)
        if rel is None or ".git" in rel.split("/") or _JUNK.search(rel.rsplit("/", 1)[-1]):
            continue
        found = _sort(Path(root), rel, change == _MODIFIED)
        if found is not None:
            path, names = found
            if path is not None:
                paths.add(path)
            flags.update(names)
    if not paths and not flags:
        return None
    return FileBatch(
        paths=tuple(sorted(paths)),
        indexes="indexes" in flags,
        pending="pending" in flags,
        sessions="sessions" in flags,
        trash="trash" in flags,
    )


def _relative(raw: str, prefixes: set[str]) -> str | None:
    for prefix in prefixes:
        if raw == prefix:
            return ""
        if raw.startswith(prefix + os.sep):
            return Path(raw[len(prefix) + 1 :]).as_posix()
    return None


def _inside(rel: str, folder: str) -> str | None:
    """rel's part below folder, or None when rel is not inside it."""
    return rel[len(folder) + 1 :] if rel.startswith(folder + "/") else None


def _above(rel: str, folder: str) -> bool:
    """True when rel is the folder itself or one of the folders holding it."""
    return rel in ("", folder) or folder.startswith(rel + "/")


def _sort(root: Path, rel: str, modified: bool) -> tuple[str | None, set[str]] | None:
    """(path to re-read, flags) for one changed path, or None when the change does not matter."""
    path = root / rel
    # A folder's own "modified" is only its metadata; changes inside it come as their own events.
    if modified and path.is_dir():
        return None
    # A path at or above the areas the app reads (`.ai` itself, a kind folder) can hold all of them.
    above = {flag for flag, folders in _AREAS.items() if any(_above(rel, f) for f in folders)}
    if above:
        return (rel if above - {"trash"} else None), above
    if _inside(rel, TRASH_DIR) is not None:
        return None, {"trash"}
    if (rest := _inside(rel, _PENDING)) is not None:
        return (rel, {"pending"}) if _visible(rest) and rest.endswith(".json") else None
    if (rest := _inside(rel, _SESSIONS)) is not None:
        return (rel, {"sessions"}) if _session_file(path, rest) else None
    for kind in Kind:
        rest = _inside(rel, kind.folder)
        if rest is None or not _visible(rest):
            continue
        if rest in INDEX_FILES:
            return None, {"indexes"}
        return (rel, set()) if _memory_path(path, rest, kind.is_project_kind, modified) else None
    return None


def _visible(rest: str) -> bool:
    """The scan skips hidden files and folders; so does the watcher."""
    return not any(part.startswith(".") for part in rest.split("/"))


def _may_be_folder(path: Path) -> bool:
    # A path that is gone may have been a folder (its files sent no events of their own).
    return path.is_dir() or not path.exists()


def _memory_path(path: Path, rest: str, project_kind: bool, modified: bool) -> bool:
    depth = rest.count("/") + 1
    if rest.endswith(".md") and rest.rsplit("/", 1)[-1] not in INDEX_FILES:
        return not project_kind or depth <= 2 or not modified
    if project_kind:
        # Any file of a project folder, at any depth, is a companion: its arrival or departure
        # changes the project (the store re-reads the whole project folder).
        return (depth == 1 and _may_be_folder(path)) or (depth >= 2 and not modified)
    return _may_be_folder(path)


def _session_file(path: Path, rest: str) -> bool:
    parts = rest.split("/")
    if not _visible(rest):
        return False
    if len(parts) == 1 or parts[1:] == ["memories"]:
        return _may_be_folder(path)
    if len(parts) == 2:
        return parts[1] == "status.json"
    return len(parts) == 3 and parts[1] == "memories" and parts[2].endswith(".md")


async def watch_tree(
    root: Path, stop_event: asyncio.Event | None = None, *, force_polling: bool = False
) -> AsyncIterator[FileBatch]:
    """Yield a FileBatch for each burst of changes under `<root>/.ai` until stop_event is set.

    Watches the root when `.ai` does not exist (and from then on, so nothing is missed if it
    appears). `force_polling` is for filesystems that send no change notifications.
    """
    from watchfiles import awatch  # ~65 ms of imports, paid only once watching starts

    root = Path(root).absolute()
    stop = stop_event if stop_event is not None else asyncio.Event()
    ai = root / ".ai"
    while not stop.is_set():
        target = ai if ai.is_dir() else root
        changes = awatch(
            target,
            watch_filter=None,
            debounce=DEBOUNCE_MS,
            step=STEP_MS,
            stop_event=stop,
            rust_timeout=RUST_TIMEOUT_MS,
            force_polling=force_polling,
        )
        try:
            # Closed here, not whenever it is collected: the OS watch ends with the loop.
            async with contextlib.aclosing(changes):
                async for raw in changes:
                    batch = batch_of(root, raw)
                    if batch is not None:
                        yield batch
                    if target == ai and not ai.is_dir():
                        break  # `.ai` went away and its watch with it: watch the root from now on
        except FileNotFoundError:
            if not root.is_dir():
                raise StoreError(f"cannot watch {root}: the folder no longer exists") from None
            # `.ai` vanished between looking and watching: look again.

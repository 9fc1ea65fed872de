"""The trash inside the tree (`.ai/.trash/`): every delete lands here and can come back."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from .atomic import StoreError, move_no_replace, write_atomic
from .model import Kind, Memory
from .reader import MAX_FILE_BYTES, memory_from_bytes

TRASH_DIR = ".ai/.trash"
ORIGIN_FILE = "origin.json"
STATUS_FILE = "status.md"


@dataclass(frozen=True)
class TrashEntry:
    """One trashed file or folder and where it came from."""

    id: str
    path: str
    """Where it lived, relative to the root."""
    trashed_at: dt.datetime
    is_folder: bool = False

    def item(self, root: Path) -> Path:
        return root / TRASH_DIR / self.id / Path(self.path).name


def _new_id(folder: Path, now: dt.datetime) -> str:
    base = now.strftime("%Y%m%d-%H%M%S")
    candidate, n = base, 1
    while (folder / candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def put(root: Path, rel: str, now: dt.datetime) -> TrashEntry:
    """Move `root/rel` into the trash, recording its origin first so it is never orphaned."""
    source = root / rel
    folder = root / TRASH_DIR
    folder.mkdir(parents=True, exist_ok=True)
    entry_id = _new_id(folder, now)
    entry_dir = folder / entry_id
    entry_dir.mkdir()
    entry = TrashEntry(entry_id, rel, now, source.is_dir())
    origin = {
        "path": rel,
        "trashed_at": now.isoformat(timespec="seconds"),
        "folder": entry.is_folder,
    }
    write_atomic(entry_dir / ORIGIN_FILE, json.dumps(origin, indent=2).encode() + b"\n", "", None)
    move_no_replace(source, entry.item(root))
    return entry


def entries(root: Path) -> list[TrashEntry]:
    """What is in the trash, newest first; damaged entries are skipped."""
    folder = root / TRASH_DIR
    found: list[TrashEntry] = []
    if not folder.is_dir():
        return found
    for entry_dir in folder.iterdir():
        try:
            origin = json.loads((entry_dir / ORIGIN_FILE).read_text(encoding="utf-8"))
            entry = TrashEntry(
                entry_dir.name,
                str(origin["path"]),
                dt.datetime.fromisoformat(origin["trashed_at"]),
                bool(origin.get("folder")),
            )
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if entry.item(root).exists() or entry.item(root).is_symlink():
            found.append(entry)
    return sorted(found, key=lambda e: (e.trashed_at, e.id), reverse=True)


def find(root: Path, entry_id: str) -> TrashEntry:
    for entry in entries(root):
        if entry.id == entry_id:
            return entry
    raise StoreError(f"nothing in the trash has the id {entry_id!r}; see `samantha-tui trash list`")


def restore(root: Path, entry: TrashEntry) -> str:
    """Put a trashed item back where it was; refuses to overwrite anything there now."""
    target = root / entry.path
    if target.exists() or target.is_symlink():
        raise StoreError(f"{entry.path} exists again; move it away first, nothing was restored")
    move_no_replace(entry.item(root), target)
    shutil.rmtree(root / TRASH_DIR / entry.id)
    return entry.path


@dataclass(frozen=True)
class Peek:
    """A read-only look at a trashed item: its memory record, or else its text."""

    path: str
    """Where the file shown lived (a trashed project folder shows its status.md)."""
    memory: Memory | None
    text: str = ""
    """When it is not a memory: the file's text, or why there is nothing to show."""


def peek(root: Path, entry: TrashEntry, today: dt.date) -> Peek:
    """Read a trashed file (or a trashed project's status.md) for a preview; never raises."""
    item, rel = entry.item(root), entry.path
    if entry.is_folder:
        item, rel = item / STATUS_FILE, f"{entry.path}/{STATUS_FILE}"
    if item.is_symlink():
        return Peek(rel, None, "A symbolic link: restore it to follow it.")
    try:
        if item.stat().st_size > MAX_FILE_BYTES:
            return Peek(rel, None, "Over the 5 MB limit: not shown.")
        raw = item.read_bytes()
    except FileNotFoundError:
        return Peek(rel, None, "This folder has no status.md.")
    except OSError as error:
        return Peek(rel, None, f"Cannot read it: {error.strerror or error}")
    kind = next((k for k in Kind if rel.startswith(k.folder + "/")), None)
    if kind is None or not rel.endswith(".md"):
        return Peek(rel, None, raw.decode("utf-8", errors="replace"))
    companions: tuple[str, ...] = ()
    if entry.is_folder:
        with contextlib.suppress(OSError):
            others = sorted(p.name for p in item.parent.iterdir() if p.name != STATUS_FILE)
            companions = tuple(f"{entry.path}/{n}" for n in others if not n.startswith("."))
    return Peek(rel, memory_from_bytes(rel, kind, raw, today, companions))


def empty(root: Path, older_than_days: int, now: dt.datetime) -> list[TrashEntry]:
    """Delete for good the entries trashed more than `older_than_days` ago."""
    cutoff = now - dt.timedelta(days=older_than_days)
    removed = [entry for entry in entries(root) if entry.trashed_at < cutoff]
    for entry in removed:
        shutil.rmtree(root / TRASH_DIR / entry.id)
    return removed

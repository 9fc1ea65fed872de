"""The trash inside the tree (`.ai/.trash/`): every delete lands here and can come back."""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..basics.json_read import loads as json_loads
from ..basics.json_read import read_json, read_regular
from ..basics.model import TRASH_DIR, Memory, kind_of_path
from ..reading.reader import MAX_FILE_BYTES, memory_from_bytes, outside_root
from ..reading.scan import project_files
from .atomic import StoreError, move_into_new_folder, move_no_replace, write_atomic

ORIGIN_FILE = "origin.json"
STATUS_FILE = "status.md"
ORIGIN_LIMIT = 64 * 1024
"""Bytes of an origin.json read at most; the ones put writes are under 200."""
SET_ASIDE = "set_aside"
"""The origin.json key of an entry an undo set aside: what the undone change itself made (a
promotion's copy, an index file it created), holding the very bytes it made."""


@dataclass(frozen=True)
class TrashEntry:
    """One trashed file or folder and where it came from."""

    id: str
    path: str
    """Where it lived, relative to the root."""
    trashed_at: dt.datetime
    is_folder: bool = False
    set_aside: bool = False
    """Set aside by an undo: what the undone change made, as it made it, kept for redo; no
    one's own work, so the trash screen folds it away (see `mark_set_aside`)."""

    def item(self, root: Path) -> Path:
        return item_path(root, self.id, self.path)


def item_path(root: Path, entry_id: str, rel: str) -> Path:
    """Where the trash entry `entry_id` keeps the file or folder that lived at `rel`."""
    return root / TRASH_DIR / entry_id / Path(rel).name


def _new_id(folder: Path, now: dt.datetime) -> str:
    base = now.strftime("%Y%m%d-%H%M%S")
    candidate, n = base, 1
    # Path.exists, without a Path made for each name tried: a batch trashing hundreds of files
    # in one second tries every earlier name of that second for each of them.
    inside = os.path.join(folder, "")
    while _exists(inside + candidate):
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def _exists(path: str) -> bool:
    """As Path.exists: False for a name that is not there (or a broken or looping link), and any
    other failure raised."""
    try:
        os.stat(path)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return False
        raise
    except ValueError:
        return False
    return True


def put(root: Path, rel: str, now: dt.datetime) -> TrashEntry:
    """Move `root/rel` into the trash, recording its origin first so it is never orphaned.

    Killed part way, it leaves an entry folder holding no item (`sweep` removes it): never an
    item without its origin.
    """
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
    move_into_new_folder(source, entry.item(root))
    return entry


def mark_set_aside(root: Path, entry: TrashEntry) -> None:
    """Mark an entry as set aside by an undo (the caller has compared its item's bytes with
    what the undone change made). Only its origin record is rewritten, whole and at once: the
    item is not touched, and killed before, the entry is an ordinary one, listed as such."""
    origin_file = root / TRASH_DIR / entry.id / ORIGIN_FILE
    raw = read_regular(origin_file, ORIGIN_LIMIT + 1)
    origin = json_loads(raw.decode("utf-8"))
    origin[SET_ASIDE] = True
    write_atomic(origin_file, json.dumps(origin, indent=2).encode() + b"\n", "", raw)


def is_set_aside(root: Path, entry_id: str) -> bool:
    """Whether the entry `entry_id` was set aside by an undo; False when it cannot be told."""
    try:
        raw = read_regular(root / TRASH_DIR / entry_id / ORIGIN_FILE, ORIGIN_LIMIT + 1)
        origin = json_loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(origin, dict) and origin.get(SET_ASIDE) is True


@dataclass(frozen=True)
class Damaged:
    """A trash entry that cannot be put back by itself; it is reported and left as it is."""

    id: str
    reason: str


@dataclass(frozen=True)
class Listing:
    """What the trash holds: the entries that can be restored, and the ones that cannot."""

    entries: tuple[TrashEntry, ...] = ()
    """Newest first."""
    damaged: tuple[Damaged, ...] = ()
    """By id."""
    problem: str | None = None
    """Why the trash folder itself cannot be used (a file, a link out of the tree), or None."""


def listing(root: Path) -> Listing:
    """Read the trash without ever raising: a damaged entry is reported, never guessed at.

    Hidden names are not entries (the atomic writer's temporary files). An entry folder holding
    nothing but its origin.json is what a failed trashing or a finished restore leaves: it holds
    none of the person's files, so it is passed over in silence.
    """
    folder = root / TRASH_DIR
    try:
        if not folder.exists() and not folder.is_symlink():
            return Listing()
        if folder.is_symlink() and outside_root(root, folder) is not None:
            return Listing(problem=f"{TRASH_DIR} is a link out of the tree; it is not used")
        if not folder.is_dir():
            return Listing(
                problem=f"{TRASH_DIR} is a file, not a folder; move it away to use the trash"
            )
        names = sorted(name for name in os.listdir(folder) if not name.startswith("."))
    except OSError as error:
        return Listing(problem=f"cannot read {TRASH_DIR}: {error.strerror or error}")
    found: list[TrashEntry] = []
    damaged: list[Damaged] = []
    for name in names:
        read = _read_entry(root, folder / name)
        if isinstance(read, TrashEntry):
            found.append(read)
        elif read is not None:
            damaged.append(Damaged(name, read))
    found.sort(key=lambda e: (e.trashed_at, e.id), reverse=True)
    return Listing(tuple(found), tuple(damaged))


def _read_entry(root: Path, entry_dir: Path) -> TrashEntry | str | None:
    """The entry in one trash folder, or why it cannot be restored, or None if it holds nothing."""
    try:
        if entry_dir.is_symlink() or not entry_dir.is_dir():
            return "not a trash entry (a file, not a folder); left as it is"
        names = set(os.listdir(entry_dir)) - {ORIGIN_FILE}
        # A huge one is damaged: no need to read it all.
        raw = read_regular(entry_dir / ORIGIN_FILE, ORIGIN_LIMIT + 1)
    except FileNotFoundError:
        held = _shown(names)
        if not held:
            return None
        return f"no {ORIGIN_FILE}, so where {held} came from is unknown; move it back by hand"
    except OSError as error:
        return f"cannot read it: {error.strerror or error}"
    try:
        origin = json_loads(raw.decode("utf-8"))
        trashed_at = dt.datetime.fromisoformat(origin["trashed_at"])
        if trashed_at.tzinfo is not None:
            # Written by hand or another tool: compared with naive local times, as put writes.
            trashed_at = trashed_at.astimezone().replace(tzinfo=None)
        entry = TrashEntry(
            entry_dir.name,
            str(origin["path"]),
            trashed_at,
            bool(origin.get("folder")),
            origin.get(SET_ASIDE) is True,
        )
    except (ValueError, KeyError, TypeError, RecursionError):
        return f"{ORIGIN_FILE} is damaged (not JSON with a path and a time); move it back by hand"
    if not _inside_memory_folders(entry.path):
        return (
            f"{ORIGIN_FILE} names {entry.path!r}, outside the memory folders; it is never restored"
        )
    expected = Path(entry.path).name
    if expected not in names:
        held = _shown(names)
        if not held:
            return None
        return f"holds {held} where {ORIGIN_FILE} names {expected}; move it back by hand"
    return entry


def _shown(names: set[str]) -> str:
    """The person's files among an entry's names (not the atomic writer's hidden leftovers)."""
    return ", ".join(sorted(name for name in names if not name.startswith(".")))


def _inside_memory_folders(rel: str) -> bool:
    """True for a relative path below one of the kind folders, without `..` or odd parts."""
    parts = rel.split("/")
    if rel.startswith("/") or any(part in ("", ".", "..") for part in parts):
        return False
    return kind_of_path(rel) is not None


def entries(root: Path) -> list[TrashEntry]:
    """What is in the trash that can be restored, newest first."""
    return list(listing(root).entries)


def find(root: Path, entry_id: str) -> TrashEntry:
    """The entry with this id, or a StoreError saying why it cannot be restored."""
    found = listing(root)
    for entry in found.entries:
        if entry.id == entry_id:
            return entry
    for damaged in found.damaged:
        if damaged.id == entry_id:
            raise StoreError(f"trash entry {entry_id} cannot be restored: {damaged.reason}")
    if found.problem:
        raise StoreError(f"nothing can be restored: {found.problem}")
    raise StoreError(f"nothing in the trash has the id {entry_id!r}; see `samantha-tui trash list`")


def restore(root: Path, entry: TrashEntry) -> str:
    """Put a trashed item back where it was; refuses to overwrite anything there now.

    The item moves before its origin record goes: killed in between, the entry is an empty shell
    that `sweep` removes, never an item nobody knows the place of.
    """
    target = root / entry.path
    if target.exists() or target.is_symlink():
        raise StoreError(
            f"{entry.path} exists again; nothing was restored. Move it away first, or restore "
            "this one beside it as a copy (c in the trash, or `trash restore --as-copy`)"
        )
    move_no_replace(entry.item(root), target)
    shutil.rmtree(root / TRASH_DIR / entry.id)
    return entry.path


def link_reason(root: Path, entry_id: str, rel: str) -> str | None:
    """Why trash entry `entry_id` is not put back at rel, when its item is a symbolic link: a
    link is not a memory, and restoring one would make whatever it points at a memory (a file
    out of the tree, a secret). None for anything else."""
    item = item_path(root, entry_id, rel)
    if not item.is_symlink():
        return None
    try:
        leads = os.readlink(item)
    except OSError:
        leads = "somewhere that cannot be read"
    return (
        f"trash entry {entry_id} holds {rel} as a symbolic link (to {leads}), not a memory, "
        f"so it is not restored; look at it in {TRASH_DIR}/{entry_id} and move it back by hand "
        "if you mean to"
    )


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
        raw = read_regular(item)
    except FileNotFoundError:
        return Peek(rel, None, "This folder has no status.md.")
    except OSError as error:
        return Peek(rel, None, f"Cannot read it: {error.strerror or error}")
    kind = kind_of_path(rel)
    if kind is None or not rel.endswith(".md"):
        return Peek(rel, None, raw.decode("utf-8", errors="replace"))
    companions: tuple[str, ...] = ()
    if entry.is_folder:
        with contextlib.suppress(OSError, ValueError):
            # Named as they were before the trash: where a restore puts them back.
            inside = item.parent.relative_to(root).as_posix()
            companions = tuple(
                entry.path + rel.removeprefix(inside) for rel in project_files(root, inside)
            )
    return Peek(rel, memory_from_bytes(rel, kind, raw, today, companions))


def empty(root: Path, older_than_days: int, now: dt.datetime) -> list[TrashEntry]:
    """Delete for good the entries trashed more than `older_than_days` ago."""
    cutoff = now - dt.timedelta(days=older_than_days)
    removed = [entry for entry in entries(root) if entry.trashed_at < cutoff]
    for entry in removed:
        shutil.rmtree(root / TRASH_DIR / entry.id)
    return removed


def sweep(root: Path) -> list[str]:
    """Remove what a killed put or restore left in the trash, and say what (root-relative).

    An entry folder holding no item (only its origin record, or a temporary file of one) goes; so
    does the trash's name for a file that is back at its place as the very same file (a restore
    killed between its two steps). Nothing that holds a trashed item's only copy is touched.
    """
    folder = root / TRASH_DIR
    removed: list[str] = []
    if not folder.is_dir():
        return removed
    for entry_dir in sorted(folder.iterdir()):
        if entry_dir.is_symlink() or not entry_dir.is_dir():
            continue
        rel = entry_dir.relative_to(root).as_posix()
        names = {p.name for p in entry_dir.iterdir()}
        origin = _origin_path(entry_dir)
        item = item_path(root, entry_dir.name, origin) if origin is not None else None
        if origin is not None and item is not None and item.name in names:
            back = root / origin
            if item.is_file() and back.is_file() and _same_file(item, back):
                item.unlink()
                names.discard(item.name)
            else:
                continue
        if all(name == ORIGIN_FILE or _is_temporary(name) for name in names):
            shutil.rmtree(entry_dir)
            removed.append(rel)
    return removed


def _origin_path(entry_dir: Path) -> str | None:
    """The place an entry's origin.json names, when it is readable and inside the memory folders."""
    try:
        rel = str(read_json(entry_dir / ORIGIN_FILE)["path"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    return rel if _inside_memory_folders(rel) else None


def _same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def _is_temporary(name: str) -> bool:
    """The atomic writer's temporary file of an origin record."""
    return name.startswith(f".{ORIGIN_FILE}.") and name.endswith(".tmp")


def size_of(root: Path, entry: TrashEntry) -> int:
    """Bytes an entry's item takes (a folder: every file in it); never raises, 0 when unknown."""
    item = entry.item(root)
    try:
        if item.is_symlink() or not item.is_dir():
            return item.lstat().st_size
        return sum(
            path.lstat().st_size
            for path in item.rglob("*")
            if path.is_symlink() or not path.is_dir()
        )
    except OSError:
        return 0


def remove(root: Path, entry_ids: list[str]) -> list[TrashEntry]:
    """Delete for good exactly these entries (the ones a person was shown); an id no longer in
    the trash is passed over. Returns the entries deleted."""
    wanted = set(entry_ids)
    removed = [entry for entry in entries(root) if entry.id in wanted]
    for entry in removed:
        shutil.rmtree(root / TRASH_DIR / entry.id)
    return removed


COPY_SUFFIX = "_restored"


def copy_name(entry: TrashEntry, taken: Callable[[str], bool]) -> str:
    """Where a restore as a copy puts a trashed file: `<stem>_restored.md` beside its old
    place, then `_restored_2`, `_restored_3` while `taken` says a name is in use."""
    folder, _, name = entry.path.rpartition("/")
    stem, dot, suffix = name.rpartition(".") if "." in name.lstrip(".") else (name, "", "")
    number = 1
    while True:
        tail = COPY_SUFFIX if number == 1 else f"{COPY_SUFFIX}_{number}"
        rel = f"{folder}/{stem}{tail}{dot}{suffix}"
        if not taken(rel):
            return rel
        number += 1


def item_bytes(root: Path, entry: TrashEntry) -> bytes:
    """A trashed file's bytes, for a restore as a copy; StoreError for a folder, a link, a file
    too big to be a memory or one that cannot be read."""
    if entry.is_folder:
        raise StoreError(
            f"{entry.path} is a project folder: it can only go back to its own place; "
            "move what is there now away, then restore it with r"
        )
    item = entry.item(root)
    if item.is_symlink():
        raise StoreError(f"{entry.path} is a symbolic link; restore it with r instead")
    try:
        if item.stat().st_size > MAX_FILE_BYTES:
            raise StoreError(f"{entry.path} is over the 5 MB limit; restore it with r instead")
        return read_regular(item)
    except OSError as error:
        raise StoreError(
            f"cannot read {entry.path} in the trash: {error.strerror or error}"
        ) from None

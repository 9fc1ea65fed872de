"""Before a batch's first step: can every path it will write be written?

A batch that stops part way is rolled back, or (once every step ran) leaves its journal to be
finished. Some stops are foreseeable: an index file that is a link out of the tree (the write is
refused after every step ran, and recovery then refuses the journal naming it, so the tree stays
blocked), a folder the user may not write in, a disk without room for the batch and its journal.
Each is looked for here, before the journal is begun, and refuses the batch with its reason,
taking no step. Only what can be told without writing is looked at; the steps still check
everything as they run.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..basics.model import TRASH_DIR, Kind
from ..basics.plans import Operation, Plan, touched_by
from ..reading.reader import outside_root
from ..views.indexes import kinds_affected
from ..views.indexes.plan import INDEX_JSON, INDEX_MD
from . import trash
from .atomic import StoreError
from .edits import RESTORE
from .journal_paths import JOURNAL_DIR

NOTHING_DONE = "no step was taken"
_ROOM_PER_FILE = 8 * 1024
"""Bytes allowed for each file written besides its content: its journal record, folder entries,
the last partly used block."""

# How a step changes a path: rewritten in place (the write follows a link at its very name),
# created, or moved away (a link at its very name is moved itself, never followed).
REWRITE, CREATE, MOVE_AWAY = "rewrite", "create", "move away"


@dataclass(frozen=True)
class Write:
    """One path a batch changes, and how."""

    rel: str
    how: str


def check(store_root: Path, plan: Plan, index_kinds: Iterable[Kind] = ()) -> None:
    """Refuse the batch (StoreError, nothing written) when a path it will change is a link, lies
    in a folder the user may not write in, or the disk has no room for it and its journal.

    `index_kinds`: the kinds whose index files the batch rewrites after its steps."""
    root = Path(store_root)
    writes = list(_writes(root, plan, index_kinds))
    for write in writes:
        why = _link_on_the_way(root, write) or _not_writable(root, write)
        if why is not None:
            raise StoreError(f"{plan.name}: cannot write {write.rel}: {why}; {NOTHING_DONE}")
    if plan.rule == RESTORE:
        # A person's restore from the trash; an undo or a rollback puts back what a change of
        # samantha-tui's own moved there, whatever it is.
        for op in plan.operations:
            _check_restorable(root, plan, op)
    _check_room(root, plan, writes)


def index_kinds_of(plan: Plan, also: Iterable[Kind] = ()) -> set[Kind]:
    """The kinds whose index files a batch patches once its steps ran."""
    return kinds_affected([path for op in plan.operations for path in touched_by(op)]) | set(also)


def _writes(root: Path, plan: Plan, index_kinds: Iterable[Kind]) -> Iterator[Write]:
    yield Write(JOURNAL_DIR, CREATE)
    for op in plan.operations:
        target = op.target or ""
        if op.action in ("edit", "write", "index", "project-fields"):
            yield Write(op.path, REWRITE)
        elif op.action == "add":
            yield Write(op.path, CREATE)
        elif op.action == "copy":
            yield Write(target, CREATE)
        elif op.action == "trash":
            yield Write(op.path, MOVE_AWAY)
            yield Write(f"{TRASH_DIR}/entry", CREATE)
        elif op.action == "restore":
            yield Write(op.path, CREATE)
        elif op.action == "move":
            yield Write(op.path, MOVE_AWAY)
            yield Write(target, CREATE)
    for kind in Kind:
        if kind in set(index_kinds):
            for name in (INDEX_JSON, INDEX_MD):
                yield Write(f"{kind.folder}/{name}", REWRITE)


def _link_on_the_way(root: Path, write: Write) -> str | None:
    """Why a link makes this path one not to write: a folder on its way is a link (recovery
    refuses any journal naming such a path), or a file rewritten in place is one (the write
    would land wherever it points)."""
    here, parts = root, write.rel.split("/")
    for number, part in enumerate(parts):
        here = here / part
        try:
            info = os.lstat(here)
        except OSError:
            return None  # nothing below a missing folder exists either
        if not stat.S_ISLNK(info.st_mode):
            continue
        last = number == len(parts) - 1
        if last and write.how == MOVE_AWAY:
            return None  # the link itself moves
        leads = outside_root(root, here)
        where = f"that leads outside the tree (to {leads})" if leads else "within the tree"
        on_the_way = here.relative_to(root).as_posix()
        what = "it is" if last else f"{on_the_way} is"
        return (
            f"{what} a symbolic link {where}; a change is never written through a link, "
            "since it could be neither finished nor rolled back. Replace the link with the "
            "file or folder itself, then try again"
        )
    return None


def _not_writable(root: Path, write: Write) -> str | None:
    """Why the user may not make this change: its folder (or the nearest one that exists) is
    not writable, or a file rewritten in place is read-only."""
    path = root / write.rel
    folder = path.parent
    while not os.path.lexists(folder) and folder != root:
        folder = folder.parent
    if os.path.isdir(folder) and not os.access(folder, os.W_OK | os.X_OK):
        shown = folder.relative_to(root).as_posix() if folder != root else "the tree's folder"
        return (
            f"permission was denied to write in {shown}; make sure you may change it, "
            "then try again"
        )
    if write.how == REWRITE and path.is_file() and not path.is_symlink():
        mode = path.stat().st_mode
        if not mode & 0o222 or not os.access(path, os.W_OK):
            return "the file is read-only; make it writable (chmod u+w), then try again"
    return None


def _check_restorable(root: Path, plan: Plan, op: Operation) -> None:
    """A trashed symbolic link is not a memory: putting it back would make whatever it points
    at one (see trash.link_reason)."""
    why = trash.link_reason(root, op.target or "", op.path)
    if why is not None:
        raise StoreError(f"{plan.name}: {why}; {NOTHING_DONE}")


def _check_room(root: Path, plan: Plan, writes: list[Write]) -> None:
    """Refuse when the disk's free space, where it can be told, is short of what the batch
    writes: new content, each rewritten file twice (its new version, and its old bytes kept
    in the journal), and a little for each file."""
    try:
        info = os.statvfs(root)
    except (OSError, AttributeError):
        return  # no way to tell here: the writes themselves will say
    free = info.f_bavail * (info.f_frsize or info.f_bsize)
    need = _ROOM_PER_FILE * len(writes)
    for op in plan.operations:
        if op.data is not None:
            need += len(op.data)
        elif op.action == "copy":
            need += _size(root / op.path)
    need += sum(2 * _size(root / write.rel) for write in writes if write.how == REWRITE)
    if need > free:
        raise StoreError(
            f"{plan.name}: cannot write its {len(writes)} files (about {_kib(need)} with its "
            f"journal, {_kib(free)} free): the disk is full; free some space, then try again; "
            f"{NOTHING_DONE}"
        )


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _kib(count: int) -> str:
    return f"{max(1, round(count / 1024)):,} KiB"

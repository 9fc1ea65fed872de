"""The paths a journal names, checked before recovery acts on any of them.

A tree arrives from elsewhere (a colleague's clone, a backup, a tarball) and its journal with it:
the journal is data someone else wrote, never a command. Every path in it must be a relative POSIX
path below a memory kind folder (or inside a trash entry), reached through no symbolic link, and an
index file wherever the journal says it writes an index. One bad path refuses the whole journal,
before anything is done: recovery would otherwise copy, write or trash whatever it names.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..basics.model import TRASH_DIR, Kind
from .atomic import StoreError
from .journal_records import Journal

JOURNAL_DIR = ".ai/.journal"
"""Where a batch in progress keeps its journal (journal.py)."""
INDEX_NAMES = ("index.json", "index.md")
ACTIONS = frozenset(
    ("trash", "restore", "add", "copy", "edit", "write", "move", "project-fields", "index")
)
_INDEX_ACTIONS = ("index", "project-fields")
# The trash names its entries after the moment: `YYYYMMDD-HHMMSS`, then `-N` on a clash.
TRASH_ID = re.compile(r"^\d{8}-\d{6}(-\d+)?$")
_ADVICE = "nothing was done; look at that folder, then remove it by hand"


def check_folder(root: Path) -> None:
    """Refuse a journal folder that is a link, or not a folder, or lies behind a linked `.ai`."""
    base = Path(root) / JOURNAL_DIR
    if not os.path.lexists(base):
        return
    for rel in (".ai", JOURNAL_DIR):
        info = os.lstat(Path(root) / rel)
        if stat.S_ISLNK(info.st_mode):
            raise StoreError(
                f"{rel} is a symbolic link, so the journal of an interrupted change in "
                f"{JOURNAL_DIR} is not followed: {_ADVICE}"
            )
    if not base.is_dir():
        raise StoreError(f"{JOURNAL_DIR} is not a folder, so it holds no journal: {_ADVICE}")


def check(root: Path, found: Journal) -> None:
    """Refuse the whole journal when any path, trash id or step number in it is not one recovery
    may act on; the message names the first one found."""
    total = len(found.operations)
    for number, data in enumerate(found.operations):
        _check_operation(root, number, data)
    for number, befores in found.steps.items():
        _check_number("step", number, total)
        action = found.operations[number].get("action")
        if len(befores) < (2 if action == "move" else 1):
            raise _refused(f"step-{number}.json records too little for a {action} step")
        for before in befores:
            _check_path(root, before.path, f"step-{number}.json")
    for number, done in found.done.items():
        _check_number("done", number, total)
        for path in done.after:
            _check_path(root, path, f"done-{number}.json")
        if done.trash_id is not None:
            _check_trash_id(root, done.trash_id, f"done-{number}.json")
    for before in found.indexes or ():
        _check_path(root, before.path, "indexes.json", index=True)


def _check_operation(root: Path, number: int, data: Mapping[str, Any]) -> None:
    where = f"operation {number + 1} of plan.json"
    if not isinstance(data, Mapping):
        raise _refused(f"{where} is not an operation")
    action = data.get("action")
    if action not in ACTIONS:
        raise _refused(f"{where} has the action {_shown(action)}, which samantha-tui never makes")
    _check_path(root, data.get("path"), where, index=action in _INDEX_ACTIONS)
    target = data.get("target")
    if action in ("move", "copy"):
        _check_path(root, target, where)
    elif action == "restore":
        _check_trash_id(root, target, where)


def _check_number(record: str, number: int, total: int) -> None:
    if number >= total:
        raise _refused(f"{record}-{number}.json names a step the plan of {total} does not have")


def _check_trash_id(root: Path, entry_id: object, where: str) -> None:
    if not isinstance(entry_id, str) or TRASH_ID.match(entry_id) is None:
        raise _refused(f"{where} names the trash entry {_shown(entry_id)}, not a trash entry id")
    _check_no_link(root, f"{TRASH_DIR}/{entry_id}", where)


def _check_path(root: Path, rel: object, where: str, index: bool = False) -> None:
    """Refuse rel unless it is a plain relative path recovery may change."""
    if not isinstance(rel, str) or not rel:
        raise _refused(f"{where} names {_shown(rel)}, which is not a path")
    if "\0" in rel or "\\" in rel or rel.startswith("/"):
        raise _refused(f"{where} names {_shown(rel)}, which is not a relative path inside the tree")
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise _refused(f"{where} names {_shown(rel)}, which steps out of its folder or is odd")
    if index:
        if not _is_index(parts):
            raise _refused(
                f"{where} names {_shown(rel)} as an index; only a kind folder's "
                "index.json or index.md is one"
            )
    elif not (_in_kind_folder(parts) or _in_trash_entry(parts)):
        raise _refused(
            f"{where} names {_shown(rel)}, which is outside the memory folders and the trash"
        )
    _check_no_link(root, rel, where)


def _kind_of(parts: list[str]) -> Kind | None:
    if len(parts) < 4 or parts[0] != ".ai" or parts[2] != ".ai":
        return None
    return next((kind for kind in Kind if kind.folder_name == parts[1]), None)


def _in_kind_folder(parts: list[str]) -> bool:
    return _kind_of(parts) is not None


def _is_index(parts: list[str]) -> bool:
    return len(parts) == 4 and _kind_of(parts) is not None and parts[3] in INDEX_NAMES


def _in_trash_entry(parts: list[str]) -> bool:
    return (
        len(parts) >= 3 and parts[:2] == [".ai", ".trash"] and TRASH_ID.match(parts[2]) is not None
    )


def _check_no_link(root: Path, rel: str, where: str) -> None:
    """lstat each component that exists, from the root down: a link anywhere on the way could
    take a write elsewhere."""
    here = Path(root)
    for part in rel.split("/"):
        here = here / part
        try:
            info = os.lstat(here)
        except FileNotFoundError:
            return  # nothing below a missing folder exists either
        except OSError as error:
            raise _refused(
                f"{where} names {rel}, which cannot be looked at ({error.strerror})"
            ) from None
        if stat.S_ISLNK(info.st_mode):
            on_the_way = here.relative_to(root).as_posix()
            raise _refused(f"{where} names {rel}, and {on_the_way} is a symbolic link")


def _shown(value: object) -> str:
    """A value from the journal as the message shows it: quoted, its control characters escaped."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _refused(why: str) -> StoreError:
    return StoreError(
        f"the journal of an interrupted change in {JOURNAL_DIR} is refused: {why}; {_ADVICE}"
    )

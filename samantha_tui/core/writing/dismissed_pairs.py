"""Dismissed pairs, remembered across runs: one small JSON file per tree in the app's own state
folder (`dismissed-pairs/<sha256 of the resolved root>.json` beside the state file; see
basics/xdg.py), never inside the memory tree, which is samantha-llm's and the person's.

What a dismissal is and when it holds (paths, verdict and both files' digests) is said in
views/dismissals.py. The file is the app's: read tolerantly (missing is empty; anything odd, too
big, not JSON, of the wrong shape, a link or a pipe in its place, is empty and one message, never
an exception) and replaced atomically, never through a link.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..basics.json_read import kind_of, loads, read_regular
from ..basics.xdg import state_folder
from ..views.dismissals import Dismissal, Dismissed
from .own_files import replace_own_file

FOLDER = "dismissed-pairs"
VERSION = 1
LIMIT = 1 << 20
"""Bytes read at most: a dismissal takes about 300; more than a mebibyte is not this app's file."""
MAX_PAIRS = 2000
"""Dismissals kept per tree, the newest; older ones are judged again."""
_FIELDS = ("first", "second", "verdict", "first_digest", "second_digest", "day")


def dismissed_path(root: Path, environ: Mapping[str, str] = os.environ) -> Path:
    """The file of one tree's dismissals, named by the sha256 of its resolved root."""
    resolved = str(Path(root).resolve()).encode("utf-8", "surrogateescape")
    name = hashlib.sha256(resolved).hexdigest()[:32]
    return state_folder(environ) / FOLDER / f"{name}.json"


@dataclass(frozen=True)
class Loaded:
    dismissals: tuple[Dismissal, ...]
    message: str | None
    """Why the file could not be used (its dismissals are then none), or None."""

    @property
    def dismissed(self) -> Dismissed:
        return Dismissed(self.dismissals)


def load_for(root: Path, environ: Mapping[str, str] = os.environ) -> Loaded:
    """The dismissals of the tree at `root`."""
    return load(dismissed_path(root, environ))


def load(path: Path) -> Loaded:
    """The dismissals in `path`; a fault anywhere in the file is none, and one message."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return Loaded((), None)
    except OSError as error:
        return _refused(path, error.strerror or str(error))
    if not stat.S_ISREG(info.st_mode):
        return _refused(path, f"it is {kind_of(info.st_mode)}, not a plain file")
    if info.st_size > LIMIT:
        return _refused(path, f"it is {info.st_size} bytes, more than this app ever writes")
    try:
        raw = read_regular(path, LIMIT + 1)
    except OSError as error:  # NotRegular too: a pipe swapped in after the lstat
        return _refused(path, error.strerror or str(error))
    if len(raw) > LIMIT:
        return _refused(path, "it grew past what this app ever writes")
    try:
        data = loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return _refused(path, "it is not UTF-8 text")
    except ValueError:
        return _refused(path, "it is not valid JSON")
    dismissals = _dismissals(data)
    if dismissals is None:
        return _refused(path, "it is not a list of dismissed pairs in the shape this app writes")
    return Loaded(dismissals, None)


def _refused(path: Path, reason: str) -> Loaded:
    return Loaded(
        (),
        f"{path}: cannot use it ({reason}); no pair is dismissed, the next dismissal replaces it",
    )


def _dismissals(data: Any) -> tuple[Dismissal, ...] | None:
    """The dismissals of the file's data, or None when any part of it has the wrong shape."""
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    pairs = data.get("pairs")
    if not isinstance(pairs, list) or len(pairs) > MAX_PAIRS:
        return None
    found = []
    for pair in pairs:
        if not isinstance(pair, dict) or set(pair) != set(_FIELDS):
            return None
        if not all(isinstance(pair[key], str) for key in _FIELDS):
            return None
        if pair["first"] >= pair["second"]:
            return None
        found.append(Dismissal(**{key: pair[key] for key in _FIELDS}))
    return tuple(found)


def kept(dismissals: Iterable[Dismissal]) -> tuple[Dismissal, ...]:
    """Each dismissal once, the newest MAX_PAIRS of them, in path order."""
    unique = {d.key: d for d in dismissals}.values()
    newest = sorted(unique, key=lambda d: (d.day, d.key), reverse=True)[:MAX_PAIRS]
    return tuple(sorted(newest, key=lambda d: d.key))


def file_bytes(root: Path, dismissals: Iterable[Dismissal]) -> bytes:
    """The file's bytes: what `kept` keeps, keys sorted, so the same pairs write the same bytes."""
    data = {
        "version": VERSION,
        "root": str(Path(root).resolve()),
        "pairs": [{key: getattr(d, key) for key in _FIELDS} for d in kept(dismissals)],
    }
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8")


def save(path: Path, root: Path, dismissals: Iterable[Dismissal]) -> str | None:
    """Replace the file atomically; the reason when it could not (None when it did). Never over
    a link, pipe or folder in its place."""
    reason = replace_own_file(path, file_bytes(root, dismissals), sync=True)
    return None if reason is None else _not_saved(path, reason)


def _not_saved(path: Path, reason: str) -> str:
    return f"{path}: not saved ({reason}); the pair is dismissed for this run only"


@dataclass(frozen=True)
class Changed:
    dismissals: tuple[Dismissal, ...]
    """The tree's dismissals now (kept in memory even when the file could not be written)."""
    messages: tuple[str, ...]
    """What went wrong reading or writing the file, if anything."""


def dismiss(root: Path, added: Dismissal, environ: Mapping[str, str] = os.environ) -> Changed:
    """Remember `added` for the tree at `root`."""
    return _change(root, environ, lambda found: (*found, added))


def undismiss(root: Path, removed: Dismissal, environ: Mapping[str, str] = os.environ) -> Changed:
    """Forget a dismissal (the undo of `dismiss`): the pair is judged again."""
    return _change(root, environ, lambda found: tuple(d for d in found if d.key != removed.key))


def _change(
    root: Path,
    environ: Mapping[str, str],
    how: Callable[[tuple[Dismissal, ...]], tuple[Dismissal, ...]],
) -> Changed:
    path = dismissed_path(root, environ)
    loaded = load(path)
    dismissals = kept(how(loaded.dismissals))
    messages = [loaded.message] if loaded.message else []
    failed = save(path, root, dismissals)
    if failed:
        messages.append(failed)
    return Changed(dismissals, tuple(messages))

"""Parsed records kept between runs, so a second start reads only the files that changed.

One file per tree in the user's cache folder, keyed by each memory's path, size and mtime_ns.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import io
import json
import os
import pickle
import stat
import tempfile
import time
import zlib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from .. import __version__
from .model import Kind, Memory, Problem, Severity
from .reader import read_memory, refresh_future_date

CACHE_ENV = "SAMANTHA_TUI_CACHE"
DISABLED = "off"
FORMAT_VERSION = 2
"""2: frontmatter YAML refuses is read as samantha-llm reads it, integers and topics mean what they
mean to samantha-llm, and date and trigger checks were added."""
MAGIC = b"samantha-tui record cache\n"
# Racy-git rule: a file changed again within its mtime's granularity (up to 2 s on some file
# systems) keeps the same mtime, and may keep its size. A file whose mtime is that close to the
# scan's start is therefore read every time and never cached.
RACY_NS = 2_000_000_000
# What the scan supplies itself (kind and path from the listing, companions as they are now,
# age_days from today) is not stored; everything else of the record is.
_FROM_SCAN = frozenset({"kind", "path", "companions", "age_days"})
_STORED = tuple(f.name for f in dataclasses.fields(Memory) if f.name not in _FROM_SCAN)
# The only classes a record holds besides builtins: its problems, and the dates a safe YAML load
# can make. Anything else named in a cache file means it is not ours, and is never imported.
_ALLOWED_CLASSES = {
    ("datetime", name): getattr(dt, name)
    for name in ("date", "datetime", "time", "timedelta", "timezone")
} | {
    ("samantha_tui.core.model", "Problem"): Problem,
    ("samantha_tui.core.model", "Severity"): Severity,
}

Entry = tuple[int, int, dict[str, Any]]
"""(size, mtime_ns, stored fields) of one memory file."""


def cache_folder(environ: Mapping[str, str] = os.environ) -> Path | None:
    """`$SAMANTHA_TUI_CACHE`, else `$XDG_CACHE_HOME/samantha-tui` (default ~/.cache/samantha-tui).

    None when set to `off`, or when there is no home folder to keep it in.
    """
    chosen = environ.get(CACHE_ENV)
    if chosen:
        return None if chosen == DISABLED else Path(chosen).expanduser()
    try:
        base = environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(base).expanduser() / "samantha-tui"
    except RuntimeError:  # Path.home() when neither $HOME nor the user database knows it
        return None


def _header(root: str) -> dict[str, Any]:
    # Any change of package, format, parser or record shape makes older files unreadable here.
    return {
        "format": FORMAT_VERSION,
        "version": __version__,
        "yaml": yaml.__version__,
        "fields": list(_STORED),
        "root": root,
    }


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        try:
            return _ALLOWED_CLASSES[module, name]
        except KeyError:
            raise pickle.UnpicklingError(
                f"{module}.{name} is not allowed in a record cache"
            ) from None


class RecordCache:
    """The cached records of one tree, as loaded at the start of a scan and updated by it."""

    def __init__(self, root: Path, file: Path | None, entries: dict[str, Entry]) -> None:
        self.root = root
        self.resolved = str(root.resolve())
        self.file = file
        self._old = entries
        self._new: dict[str, Entry] = {}
        self._scan_start_ns = time.time_ns()

    @classmethod
    def open(cls, root: Path, environ: Mapping[str, str] = os.environ) -> RecordCache:
        """The cache of root's tree; empty (and never saved) when disabled or unusable."""
        folder = cache_folder(environ)
        resolved = root.resolve()
        if folder is None or folder.resolve().is_relative_to(resolved):
            return cls(root, None, {})
        name = hashlib.sha256(str(resolved).encode("utf-8")).hexdigest()[:32]
        file = folder / f"records-{name}.pickle"
        return cls(root, file, _load(file, _header(str(resolved))))

    def read(self, rel: str, kind: Kind, today: dt.date, companions: tuple[str, ...]) -> Memory:
        """The record of root/rel: from the cache when its size and mtime match, else read."""
        try:
            info = os.lstat(f"{self.root}/{rel}")
        except OSError:
            return read_memory(self.root, rel, kind, today, companions)
        if not stat.S_ISREG(info.st_mode):  # symlinks and oddities: the reader judges them
            return read_memory(self.root, rel, kind, today, companions, info)
        size, mtime = info.st_size, info.st_mtime_ns
        cached = self._old.get(rel)
        if cached is not None and cached[0] == size and cached[1] == mtime:
            memory = _rebuild(rel, kind, today, companions, cached[2])
            if memory is not None:
                self._new[rel] = cached
                return memory
        memory = read_memory(self.root, rel, kind, today, companions, info)
        # A size differing from the stat's means the file changed while being read.
        if memory.size == size and mtime < self._scan_start_ns - RACY_NS:
            self._new[rel] = (size, mtime, _stored(memory))
        return memory

    def save(self) -> None:
        """Write the cache if this scan changed it; a failure only costs the next start time."""
        if self.file is None or self._new == self._old:
            return
        try:
            payload = pickle.dumps(self._new, protocol=pickle.HIGHEST_PROTOCOL)
            header = _header(self.resolved)
            header["crc32"] = zlib.crc32(payload)
            header["length"] = len(payload)
            data = MAGIC + json.dumps(header).encode("ascii") + b"\n" + payload
            _write_atomically(self.file, data)
        except (OSError, pickle.PicklingError, TypeError, ValueError, RecursionError):
            return
        self._old = self._new


def _load(file: Path, expected: dict[str, Any]) -> dict[str, Entry]:
    """The entries of a cache file, or none when it is missing, foreign, stale or damaged."""
    try:
        data = file.read_bytes()
        if not data.startswith(MAGIC):
            return {}
        end = data.index(b"\n", len(MAGIC))
        header = json.loads(data[len(MAGIC) : end])
        payload = memoryview(data)[end + 1 :]
        crc, length = header.pop("crc32"), header.pop("length")
        if header != expected or length != len(payload) or crc != zlib.crc32(payload):
            return {}
        entries = _Unpickler(io.BytesIO(payload)).load()
    except Exception:  # a damaged file can fail in any way; it only means reading every file
        return {}
    return entries if isinstance(entries, dict) else {}


def _stored(memory: Memory) -> dict[str, Any]:
    state = {name: getattr(memory, name) for name in _STORED}
    state["frontmatter"] = dict(memory.frontmatter)  # a mapping proxy cannot be pickled
    return state


def _rebuild(
    rel: str, kind: Kind, today: dt.date, companions: tuple[str, ...], stored: dict[str, Any]
) -> Memory | None:
    """The record from its stored fields, with today's age; None when they do not fit it."""
    try:
        if len(stored) != len(_STORED):
            return None
        state = dict(stored)
        date = state["date"]
        problems = refresh_future_date(state["problems"], date, today)
        if problems is None:
            return None
        state.update(
            problems=problems,
            kind=kind,
            path=rel,
            companions=companions,
            age_days=(today - date).days if date else None,
            frontmatter=MappingProxyType(state["frontmatter"]),
        )
    except (KeyError, TypeError, ValueError):
        return None
    return Memory.from_state(state)


def _write_atomically(file: Path, data: bytes) -> None:
    # The cache lives outside the tree and is not a memory file, so it is written here rather
    # than through the store. No fsync: after a crash a torn file fails its checksum and is
    # ignored, which costs one full read and nothing else.
    file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    handle, temp = tempfile.mkstemp(dir=file.parent, prefix=file.name + ".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temp, file)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise

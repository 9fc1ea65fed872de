"""Injected file-system faults for the write paths, and the checks every fault test makes.

Tests run as root, for whom chmod stops nothing, so faults are injected by wrapping the primitives
the atomic writer and the moves call (os.write, os.fsync, tempfile.mkstemp, os.replace, the
swap of two names, os.link, os.rename, os.mkdir, os.unlink). A wrapper fails only for paths
inside the tree (and inside the folders given as scope), and passes everything else to the real
call, so the test machinery and the app's own terminal output are untouched.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from samantha_tui.core.writing import name_swap
from samantha_tui.core.writing.store import Store

from .conftest import TODAY

PATH_CALLS = ("mkstemp", "mkdir", "link", "rename", "replace", "exchange", "unlink")
"""Every call that creates or removes a name in a folder."""
READ_ONLY_FILE = "read-only file"
RENAMES = ("replace", "exchange", "link", "rename")
"""Every call that puts a file in place."""


@dataclass(frozen=True)
class Fault:
    """A fault: which calls fail, and with which error."""

    name: str
    calls: tuple[str, ...]
    errno: int
    advice: str
    """Words the refusal must contain: what the person can do."""


FAULTS = {
    fault.name: fault
    for fault in (
        Fault("disk full on write", ("write",), errno.ENOSPC, "free some space"),
        Fault("disk full on fsync", ("fsync",), errno.ENOSPC, "free some space"),
        Fault("read-only folder", PATH_CALLS, errno.EROFS, "mount it writable"),
        Fault("permission denied", PATH_CALLS, errno.EACCES, "make sure you may change it"),
        Fault(
            "rename fails", ("replace", "exchange", "link", "rename"), errno.EIO, "check the disk"
        ),
        Fault("unlink fails", ("unlink",), errno.EPERM, "make sure you may change it"),
        Fault(READ_ONLY_FILE, (), errno.EACCES, "make it writable (chmod u+w)"),
    )
}

_REAL = {
    "write": os.write,
    "fsync": os.fsync,
    "mkstemp": tempfile.mkstemp,
    "mkdir": os.mkdir,
    "link": os.link,
    "rename": os.rename,
    "replace": os.replace,
    "exchange": name_swap.exchange,
    "unlink": os.unlink,
}


class Faults:
    """Installs the wrappers once; `arm` chooses the fault, `clear` removes it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
        self.root = os.path.realpath(root)
        self.fault: Fault | None = None
        self.scope: tuple[str, ...] = ("",)
        self.once = False
        self.fired = 0
        self._read_only: Path | None = None
        for name in _REAL:
            module = {"mkstemp": tempfile, "exchange": name_swap}.get(name, os)
            monkeypatch.setattr(module, name, self._wrapper(name))

    def arm(
        self,
        fault: Fault,
        file: Path | None = None,
        scope: Iterable[str] = ("",),
        once: bool = False,
    ) -> None:
        """Make `fault` happen for paths at or under `scope` (relative; "" is the whole tree).

        A read-only file is real: `file` loses its write bits (root ignores them; the store
        does not). `once`: the first failure disarms it, as a passing hiccup would.
        """
        self.fault, self.scope, self.once = fault, tuple(scope), once
        if fault.name == READ_ONLY_FILE:
            assert file is not None
            file.chmod(0o444)
            self._read_only = file

    def clear(self) -> None:
        self.fault = None
        if self._read_only is not None:
            self._read_only.chmod(0o644)
            self._read_only = None

    def _hits(self, name: str, path: object) -> bool:
        if self.fault is None or name not in self.fault.calls:
            return False
        real = os.path.realpath(os.fspath(path))  # type: ignore[arg-type]
        for rel in self.scope:
            base = os.path.join(self.root, rel).rstrip("/")
            if real == base or real.startswith(base + "/"):
                return True
        return False

    def _fail(self, name: str) -> None:
        assert self.fault is not None
        self.fired += 1
        code = self.fault.errno
        if self.once:
            self.fault = None
        raise OSError(code, os.strerror(code))

    def _wrapper(self, name: str):
        real = _REAL[name]

        def by_fd(fd: int, *args):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                target = ""
            # Only the writer's temporary files: never a directory synced after a rename.
            if target.endswith(".tmp") and self._hits(name, target):
                self._fail(name)
            return real(fd, *args)

        def mkstemp(*args, **kwargs):
            if self._hits(name, Path(kwargs.get("dir") or ".") / "x"):
                self._fail(name)
            return real(*args, **kwargs)

        def by_path(path, *args, **kwargs):
            # Creating a folder that exists says so even on a read-only disk; a call relative
            # to a folder descriptor (rmtree) is not the writer's.
            exists = name == "mkdir" and os.path.lexists(path)
            if not exists and kwargs.get("dir_fd") is None and self._hits(name, path):
                self._fail(name)
            return real(path, *args, **kwargs)

        if name in ("write", "fsync"):
            return by_fd
        return mkstemp if name == "mkstemp" else by_path


def record_notices(app) -> list[tuple[str, str]]:
    """Every notice the app shows from now on, as (title, message): the app's own list drops
    them as they time out, which a loaded machine can reach within one test."""
    said: list[tuple[str, str]] = []
    shown = app.notify

    def notify(message: str, **options) -> None:
        said.append((options.get("title", ""), message))
        shown(message, **options)

    app.notify = notify
    return said


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under root, but for what a failed trashing may
    leave: an entry folder holding no item (the listing passes over it; recovery sweeps it)."""
    found: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel in (".ai/.trash", ".ai/.journal") or _no_item(root, rel):
            continue
        found[rel] = None if path.is_dir() and not path.is_symlink() else path.read_bytes()
    return found


def _no_item(root: Path, rel: str) -> bool:
    parts = rel.split("/")
    if parts[:2] != [".ai", ".trash"] or len(parts) < 3:
        return False
    entry = root / ".ai" / ".trash" / parts[2]
    return entry.is_dir() and set(os.listdir(entry)) <= {"origin.json"}


def temporary_files(root: Path) -> list[str]:
    """The atomic writer's `.<name>.<random>.tmp` files anywhere in the tree."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob(".*.tmp"))


def assert_plain(message: str, names: str, advice: str) -> None:
    """One sentence a person can act on: it names the file and says what to do."""
    assert names in message, message
    assert advice in message, message
    assert "\n" not in message and ". " not in message, message
    assert not re.search(r"errno|traceback|\[Errno|OSError", message, re.IGNORECASE), message


def assert_records_match_disk(store: Store) -> None:
    """The store's records are what a fresh scan of the disk reads."""
    fresh = Store(store.root, lambda: TODAY).scan()

    def records(memories) -> list[tuple[str, str, tuple[str, ...]]]:
        return [(m.path, m.digest, m.companions) for m in memories]

    assert records(store.tree.memories) == records(fresh.memories)

"""Atomic, conflict-checked file replacement and no-overwrite moves."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path


class StoreError(Exception):
    """A change the store refused or could not make; the message says what to do."""


class ConflictError(StoreError):
    """The file changed on disk since it was read."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(
            f"{path} changed on disk since it was read; nothing was written. "
            "Reload it and try again."
        )


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest_of(path: Path) -> str | None:
    """sha256 of the file's bytes, or None when it does not exist."""
    try:
        return digest_bytes(path.read_bytes())
    except FileNotFoundError:
        return None


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; some filesystems refuse, which is not worth failing over.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomic(path: Path, data: bytes, rel: str, expected: str | None) -> None:
    """Replace `path` with `data` via a synced temporary file and a rename.

    `expected` is the sha256 the file must still have (None: it must not exist yet). The original is
    intact and no temporary file remains if anything fails.
    """
    if digest_of(path) != expected:
        raise ConflictError(rel)
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        # Checked again at the last moment: another program may have written while we worked.
        if digest_of(path) != expected:
            raise ConflictError(rel)
        if expected is None:
            os.link(tmp, path)  # fails if the file appeared meanwhile: never overwrite
            tmp.unlink()
        else:
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def move_no_replace(source: Path, target: Path) -> None:
    """Rename a file or folder, refusing to replace anything at the target."""
    if target.exists() or target.is_symlink():
        raise StoreError(f"{target} already exists; nothing was moved")
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir() and not source.is_symlink():
        os.rename(source, target)
    else:
        os.link(source, target, follow_symlinks=False)
        source.unlink()
    _fsync_dir(target.parent)
    _fsync_dir(source.parent)

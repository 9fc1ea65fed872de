"""The bytes the app last wrote or read in a file, reused while the file's stat proves that no
one has changed it since; a file that cannot be proved unchanged is read again.

The proof is the stat key (device, inode, size, mtime_ns, ctime_ns). Every write to a file sets
its ctime to the time of the write, and no program can set ctime back (`os.utime` itself sets it
to now), so a file rewritten in place with the same size and its old mtime put back still shows
a new key; a file replaced by a rename has a new inode. The one gap is the clock's grain: file
times come from a coarse clock (a few milliseconds; whole seconds on some file systems), so a
second write in the same tick as the last one can leave the key as it was. A remembered content
is therefore trusted on its key alone only when the file's ctime was already MARGIN_NS older
than the moment the key was taken: any later write then carries a later ctime. A file changed
more recently than that ("racy", as git calls it) is read again and compared byte for byte,
which costs a read of the page cache, not a digest.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import threading
import time

from ..basics.json_read import NotRegular, kind_of

MARGIN_NS = 3_000_000_000
"""How much older than the moment of the stat a file's last change must be for its key alone to
prove it unchanged: above any file system's time grain (FAT's is 2 s) and any write in flight."""

_LIMIT = 256
"""Files remembered at once; past it the memo starts again (each file is then read once more)."""

Key = tuple[int, int, int, int, int]


class _Known:
    __slots__ = ("data", "digest", "key", "trusted")

    def __init__(self, key: Key | None, data: bytes, trusted: bool) -> None:
        self.key = key
        self.data = data
        self.trusted = trusted
        self.digest: str | None = None


_KNOWN: dict[str, _Known] = {}
_LOCK = threading.Lock()


def _key(info: os.stat_result) -> Key:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _name(path: str | os.PathLike[str]) -> str:
    # One name per file, however it was reached (the store writes through resolved paths).
    return os.path.realpath(os.fspath(path))


def _store(name: str, known: _Known) -> None:
    with _LOCK:
        if len(_KNOWN) >= _LIMIT and name not in _KNOWN:
            _KNOWN.clear()
        _KNOWN[name] = known


def forget(path: str | os.PathLike[str]) -> None:
    """Drop what is remembered of path (its next read goes to the disk)."""
    with _LOCK:
        _KNOWN.pop(_name(path), None)


def clear() -> None:
    """Forget every file."""
    with _LOCK:
        _KNOWN.clear()


def wrote(path: str | os.PathLike[str], data: bytes) -> None:
    """Remember that this process has just put `data` at path.

    Never trusted on the key alone (the write is as recent as can be): the next read compares the
    file with `data`, and while they match hands back this very object.
    """
    _store(_name(path), _Known(None, data, trusted=False))


def read(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes as they are now; from memory when its stat key proves them unchanged.

    Raises as `json_read.read_regular` does: FileNotFoundError when absent, NotRegular for a pipe
    or device (never opened for reading, which could wait forever), IsADirectoryError.
    """
    name = _name(path)
    known = _KNOWN.get(name)
    # Taken before the stat: a write after this moment has a ctime no older than MARGIN_NS less.
    moment = time.time_ns()
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"not a regular file ({kind_of(info.st_mode)})")
        key = _key(info)
        if known is not None and known.trusted and known.key == key:
            return known.data
        data = _read_all(fd, info.st_size)
        after = _key(os.fstat(fd))
    finally:
        os.close(fd)
    if known is not None and known.data == data:
        data = known.data  # the same object again: callers compare by identity first
    if after == key:
        old_enough = info.st_ctime_ns < moment - MARGIN_NS
        kept = _Known(key, data, trusted=old_enough)
        if known is not None and known.data is data:
            kept.digest = known.digest
        _store(name, kept)
    else:
        forget(name)  # it changed while being read: nothing about it is known
    return data


def read_or_none(path: str | os.PathLike[str]) -> bytes | None:
    """`read`, or None when there is no file at path."""
    try:
        return read(path)
    except FileNotFoundError:
        return None


def digest(path: str | os.PathLike[str]) -> str | None:
    """sha256 of the file's bytes now (None when absent); hashed once per content remembered."""
    data = read_or_none(path)
    if data is None:
        return None
    known = _KNOWN.get(_name(path))
    if known is not None and known.data is data:
        if known.digest is None:
            known.digest = hashlib.sha256(data).hexdigest()
        return known.digest
    return hashlib.sha256(data).hexdigest()


def _read_all(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    step = size + 1  # one byte more, to see the end at once: a file takes one read
    while True:
        chunk = os.read(fd, step)
        if not chunk:
            break
        chunks.append(chunk)
        step = 1 << 16  # it grew while being read
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)

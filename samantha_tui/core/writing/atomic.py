"""Atomic, conflict-checked file replacement and no-overwrite moves, and failures said plainly."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from ..basics.digest import digest_bytes
from ..basics.errors import StoreError
from ..basics.json_read import NotRegular, kind_of, sha256_of_regular
from ..reading import known_files
from . import name_swap


class ConflictError(StoreError):
    """The file changed on disk since it was read."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(
            f"{path} changed on disk since it was read; nothing was written. "
            "Reload it and try again."
        )


_AGAIN = "then try again"
# What an OSError means for a person, and what they can do about it: errno numbers and the C
# library's wording ("Read-only file system") are no help to someone whose note did not save.
_PLAIN: dict[int, tuple[str, str]] = {
    errno.ENOSPC: ("the disk is full", f"free some space, {_AGAIN}"),
    errno.EDQUOT: ("your disk quota is used up", f"free some space, {_AGAIN}"),
    errno.EROFS: ("the file system is read-only", f"mount it writable, {_AGAIN}"),
    errno.EACCES: (
        "permission was denied",
        f"make sure you may change it and its folder, {_AGAIN}",
    ),
    errno.EPERM: (
        "the system does not permit it",
        f"make sure you may change it and its folder, {_AGAIN}",
    ),
    errno.EIO: ("the disk reported an input/output error", f"check the disk, {_AGAIN}"),
    errno.ENOENT: ("it, or a folder on its way, is no longer there", f"reload the tree, {_AGAIN}"),
    errno.ENOTDIR: ("a folder on its way is a file", f"move that file away, {_AGAIN}"),
    errno.EEXIST: (
        "something else took its place meanwhile",
        f"reload the tree, {_AGAIN}",
    ),
    errno.EBUSY: ("it is in use by another program", f"close that program, {_AGAIN}"),
}


def failure(doing: str, rel: str, error: OSError, outcome: str) -> StoreError:
    """One sentence for a failed file operation: what, on which file, why in plain words, what now.

    `doing` is the verb ("write", "move"), `outcome` what the failure left ("it is unchanged").
    """
    what, advice = _PLAIN.get(error.errno or 0, ("", _AGAIN))
    if not what:
        what = (error.strerror or str(error) or type(error).__name__).lower()
    return StoreError(f"cannot {doing} {rel} ({outcome}): {what}; {advice}")


def digest_of(path: Path) -> str | None:
    """sha256 of the file's bytes, or None when it does not exist.

    Something that is not a regular file (a named pipe, a device) is never opened for reading,
    which could wait forever: its digest stands for its type, so it never matches a file's.
    """
    try:
        return sha256_of_regular(path)
    except FileNotFoundError:
        return None
    except NotRegular:
        return irregular_digest(os.stat(path).st_mode)


def irregular_digest(mode: int) -> str:
    """The digest that stands for something that is not a regular file, by its type."""
    return digest_bytes(f"\0not a regular file: {kind_of(mode)}".encode("ascii"))


_DEFERRED = threading.local()
"""Per thread: the folders whose sync waits for the end of `one_folder_sync`, or None."""


@contextlib.contextmanager
def one_folder_sync() -> Iterator[None]:
    """Within the block, each folder written in is synced once, at its end, however many files
    were renamed into it: an index.json and its index.md are made durable by one sync, not two.
    Every file's own bytes are still synced before its rename, so each lands whole or not at all.
    """
    if getattr(_DEFERRED, "folders", None) is not None:
        yield  # already inside one: the outer block syncs
        return
    folders: dict[Path, None] = {}
    _DEFERRED.folders = folders
    try:
        yield
    finally:
        _DEFERRED.folders = None
        for folder in folders:
            _sync_dir_now(folder)


def _fsync_dir(folder: Path) -> None:
    folders = getattr(_DEFERRED, "folders", None)
    if folders is not None:
        folders[folder] = None
        return
    _sync_dir_now(folder)


def _sync_dir_now(folder: Path) -> None:
    # Makes the rename itself durable; some filesystems refuse, which is not worth failing over.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def folders_for(path: Path) -> Iterator[None]:
    """Make the missing folders above `path`; if the block fails, take away those it made.

    A failed write or move then leaves no empty folder behind (one the scan would report).
    """
    missing: list[Path] = []
    folder = path.parent
    while not folder.exists() and not folder.is_symlink():
        missing.append(folder)
        folder = folder.parent
    made: list[Path] = []
    try:
        for folder in reversed(missing):
            folder.mkdir()
            made.append(folder)
        yield
    except BaseException:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _write_all(fd: int, data: bytes) -> None:
    # os.write may write less than asked (a signal, a nearly full disk): go on until all is out.
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if not written:  # a file that takes nothing and says nothing: never spin on it
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def holds(path: Path, expected: str | bytes | None) -> bool:
    """Whether the file at path is what the caller saw: these very bytes, or content with this
    sha256, or (None) no file at all.

    Bytes are compared with the file as `known_files` proves it is now, without hashing it.
    """
    if not isinstance(expected, bytes):
        return digest_of(path) == expected
    try:
        return known_files.read(path) == expected
    except FileNotFoundError:
        return False
    except NotRegular:
        return False


def write_atomic(path: Path, data: bytes, rel: str, expected: str | bytes | None) -> None:
    """Replace `path` with `data` via a synced temporary file and a rename.

    `expected` is what the file must still hold (see `holds`): its bytes, their sha256, or None
    when it must not exist yet. A file without any write permission is refused: someone made it
    read-only on purpose. The original is intact and no temporary file remains if anything fails.
    """
    if not holds(path, expected):
        raise ConflictError(rel)
    owner: tuple[int, int] | None = None
    try:
        info = path.stat()
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    else:
        mode, owner = info.st_mode & 0o7777, (info.st_uid, info.st_gid)
        if not mode & 0o222 or not _may_write(path):
            raise StoreError(
                f"cannot write {rel} (it is unchanged): the file is read-only; "
                f"make it writable (chmod u+w), {_AGAIN}"
            )
    fd, tmp_name = tempfile.mkstemp(prefix=_temporary_prefix(path), suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    swapped = False
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
            _keep_owner(fd, owner)
            os.fchmod(fd, mode)  # after the chown, which may clear set-id bits
        finally:
            os.close(fd)
        # Checked again at the last moment: another program may have written while we worked.
        if not holds(path, expected):
            raise ConflictError(rel)
        if expected is None:
            os.link(tmp, path)  # fails if the file appeared meanwhile: never overwrite
        elif name_swap.exchange(tmp, path):
            swapped = True
            _keep_theirs_if_changed(path, tmp, data, rel, expected)
        else:
            os.replace(tmp, path)
    except BaseException:
        # After a swap the temporary name may hold another program's file (when putting it
        # back failed): only our own bytes are removed.
        if not swapped or _holds_bytes(tmp, data):
            with contextlib.suppress(OSError):
                tmp.unlink()
        known_files.forget(path)
        raise
    known_files.wrote(path, data)
    if expected is None or tmp.exists():
        # The file is in place; a leftover link to it, or the old file swapped out, is no reason
        # to say the write failed.
        with contextlib.suppress(OSError):
            tmp.unlink()
    _fsync_dir(path.parent)


def _keep_theirs_if_changed(
    path: Path, swapped_out: Path, data: bytes, rel: str, expected: str | bytes
) -> None:
    """After the swap: the old file is at `swapped_out`. If it is not what the caller saw, another
    program wrote between the last check and the swap: its file goes back in place, ours goes,
    and the write is refused as a conflict."""
    unchanged = holds(swapped_out, expected)
    known_files.forget(swapped_out)  # a name about to go: nothing to remember of it
    if unchanged:
        return
    name_swap.exchange(swapped_out, path)
    # Theirs is back in place, and ours is at the temporary name unless they wrote again in
    # between: then theirs newest is what went to the temporary name, and it goes back in place
    # too (what is dropped is a version they themselves replaced).
    if swapped_out.exists() and not _holds_bytes(swapped_out, data):
        name_swap.exchange(swapped_out, path)
        swapped_out.unlink()
    raise ConflictError(rel)


def _holds_bytes(path: Path, data: bytes) -> bool:
    try:
        return path.read_bytes() == data
    except OSError:
        return False


def _may_write(path: Path) -> bool:
    """Whether the running user may write this file, judged by trying (ownership and ACLs, not
    mode bits): opened for writing without truncating, without blocking, then closed."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except PermissionError:
        return False
    os.close(fd)
    return True


def _keep_owner(fd: int, owner: tuple[int, int] | None) -> None:
    """Give the replacement the old file's owner and group. As a user other than root this is a
    no-op for oneself and fails for a group one is not in: then the mode is kept and the write
    goes on, as an editor's save would."""
    if owner is None:
        return
    now = os.fstat(fd)
    if (now.st_uid, now.st_gid) == owner:
        return
    with contextlib.suppress(OSError):
        os.fchown(fd, *owner)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def move_no_replace(source: Path, target: Path) -> None:
    """Rename a file or folder, refusing to replace anything at the target.

    A file is linked at the target, then unlinked at the source; if that unlink fails the new
    link is taken back, so a failed move never leaves the file in two places.
    """
    if target.exists() or target.is_symlink():
        raise StoreError(f"{target} already exists; nothing was moved")
    with folders_for(target):
        if source.is_dir() and not source.is_symlink():
            os.rename(source, target)
        else:
            os.link(source, target, follow_symlinks=False)
            try:
                source.unlink()
            except BaseException:
                with contextlib.suppress(OSError):
                    target.unlink()
                raise
    _fsync_dir(target.parent)
    _fsync_dir(source.parent)


def move_into_new_folder(source: Path, target: Path) -> None:
    """Move a file or folder, in one rename, into a folder made for it a moment ago.

    Nothing else writes in that folder, so the rename cannot replace anything there; and being
    one step, it takes whatever is at source at that instant. Linking then unlinking, as
    move_no_replace must where others write, would unlink a file another program renamed into
    source between the two calls, and that file would be lost.
    """
    if target.exists() or target.is_symlink():
        raise StoreError(f"{target} already exists; nothing was moved")
    os.rename(source, target)
    _fsync_dir(target.parent)
    _fsync_dir(source.parent)


def _temporary_prefix(path: Path) -> str:
    """`.name.`, the name cut so that with mkstemp's 8 characters and `.tmp` it stays within the
    255 bytes a file name may have: a memory with the longest name can still be edited."""
    # surrogateescape: a name's bytes that are not UTF-8 are counted and kept as they are.
    name = path.name.encode("utf-8", "surrogateescape")[:200].decode("utf-8", "surrogateescape")
    return f".{name}."

"""One writer at a time per tree: an advisory lock on `.ai/.lock`, held by every write.

samantha-tui is often not the only one at work on a tree: a second app, a CLI batch in another
terminal. Every change (a batch for its whole run, a single write, recovery) holds this lock, so
two writers never interleave and a batch whose journal exists while its writer still holds the
lock is known to be live, not interrupted.

The lock is `flock` on `.ai/.lock`: the kernel drops it when its process ends, even on kill -9, so
a crash never leaves a tree locked. Within one process it is re-entrant (a batch's writes, an app
change and its index patch, recovery's own store calls) and thread-safe. The file holds who has it
(pid, command, since when) so a writer that gives up can name it. It is a dot-file in `.ai/`: the
scan, the watcher and samantha-llm (which reads only `*.md` and its own JSON files) pass over it.
samantha-llm takes no lock; its writes stay covered by the store's conflict checks.

Trees that cannot hold a lock file (a read-only `.ai/`, no `.ai/` at all) are written without it,
so the write itself fails, or succeeds, with its own plain message, as it always has.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import functools
import json
import os
import shlex
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..basics.errors import StoreError

LOCK_FILE = ".ai/.lock"
WAIT_SECONDS = 3.0
"""How long a second writer waits for the first before giving up."""
WAIT_ENV = "SAMANTHA_TUI_LOCK_WAIT"
"""Seconds to wait instead of WAIT_SECONDS (slow disks, tests)."""
APP = "samantha-tui app"
_POLL_SECONDS = 0.02
_MAX_HOLDER_BYTES = 4096
_NOT_OURS_TO_LOCK = (errno.EROFS, errno.EACCES, errno.EPERM)
"""Making the lock file is refused: write as if there were no lock (the write says why it fails)."""

_F = TypeVar("_F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Holder:
    """Who holds a tree's lock, as its file tells it."""

    pid: int | None
    command: str = ""
    since: str = ""
    """ISO time the lock was taken."""

    def describe(self) -> str:
        """`pid 1234, `prune --yes`, since 12:03:04`: enough for a person to find it."""
        parts = [f"pid {self.pid}" if self.pid is not None else "pid unknown"]
        if self.command:
            parts.append(f"`{self.command}`")
        if self.since:
            parts.append(f"since {self.since.partition('T')[2] or self.since}")
        return ", ".join(parts)


class TreeBusy(StoreError):
    """Another writer held the tree for the whole wait; nothing was written."""

    def __init__(self, holder: Holder, message: str) -> None:
        super().__init__(message)
        self.holder = holder


def busy_message(holder: Holder) -> str:
    return (
        f"another samantha-tui ({holder.describe()}) is changing this tree; nothing was "
        "written; try again when it is done"
    )


class _Tree:
    """This process's hold on one tree: one descriptor, counted, behind a re-entrant mutex."""

    def __init__(self) -> None:
        self.mutex = threading.RLock()
        self.count = 0
        self.fd: int | None = None
        self.holder: Holder | None = None


_trees: dict[str, _Tree] = {}
_trees_guard = threading.Lock()
_command: str | None = None


def name_this_process(command: str) -> None:
    """What the lock file says this process is: the command line, or "samantha-tui app"."""
    global _command
    _command = command


def _this_command() -> str:
    if _command is not None:
        return _command
    return shlex.join(sys.argv[1:]) or "samantha-tui"


def _tree(root: Path) -> _Tree:
    # One entry per real folder: two Store objects (or two spellings) of a tree share it, and
    # flock would otherwise make them wait for each other within one process.
    key = os.path.realpath(root)
    with _trees_guard:
        return _trees.setdefault(key, _Tree())


def wait_seconds() -> float:
    """The bounded wait: WAIT_SECONDS, or the number in $SAMANTHA_TUI_LOCK_WAIT."""
    raw = os.environ.get(WAIT_ENV, "")
    try:
        return max(0.0, float(raw)) if raw else WAIT_SECONDS
    except ValueError:
        return WAIT_SECONDS


@contextmanager
def hold(root: Path, wait: float | None = None, busy: str | None = None) -> Iterator[None]:
    """Hold the tree's lock for the block, waiting at most `wait` seconds for another writer.

    Re-entrant within a process. Raises TreeBusy naming the holder when the wait runs out (with
    `busy` in place of the usual sentence when given: `{holder}` stands for who holds it), and
    StoreError when `.ai/.lock` is a link or not a regular file.
    """
    wait = wait_seconds() if wait is None else wait
    tree = _tree(root)
    deadline = time.monotonic() + wait
    if not tree.mutex.acquire(timeout=wait):
        holder = tree.holder or Holder(os.getpid(), _this_command())
        raise _busy(holder, busy)
    try:
        if tree.count == 0:
            tree.fd, tree.holder = _take(Path(root), deadline, busy)
        tree.count += 1
        try:
            yield
        finally:
            tree.count -= 1
            if tree.count == 0:
                _release(tree.fd, clear=True)
                tree.fd, tree.holder = None, None
    finally:
        tree.mutex.release()


@contextmanager
def peek(root: Path) -> Iterator[Holder | None]:
    """Hold the lock for a look, without waiting and without making the lock file.

    Yields None while the look holds it (nobody else can start a change meanwhile) or when the
    tree holds no lock file; yields the holder when another process (or thread) has it.
    """
    tree = _tree(root)
    if not tree.mutex.acquire(blocking=False):
        yield tree.holder or Holder(os.getpid(), _this_command())
        return
    try:
        if tree.count > 0:
            yield None  # this thread holds it already
            return
        fd = _open(Path(root) / LOCK_FILE, create=False)
        if fd is None:
            yield None
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            yield holder
            return
        except OSError:
            os.close(fd)  # a filesystem without locks: nobody can hold it
            yield None
            return
        # Counted like a hold, so a write inside the look does not lock a second time.
        tree.fd, tree.count = fd, 1
        try:
            yield None
        finally:
            tree.count = 0
            tree.fd = None
            _release(fd, clear=False)  # a look writes nothing
    finally:
        tree.mutex.release()


def holds(root: Path) -> bool:
    """True when this thread holds the tree's lock (or a look at it)."""
    tree = _tree(root)
    if not tree.mutex.acquire(blocking=False):
        return False
    try:
        return tree.count > 0
    finally:
        tree.mutex.release()


def writes_tree(function: _F | None = None, *, busy: str | None = None) -> Any:
    """Decorate a function whose first argument has `.root` (a Store, or a method's self): it
    runs holding that tree's lock. `busy` as for `hold`."""

    def decorate(inner: _F) -> _F:
        @functools.wraps(inner)
        def wrapper(first: Any, *args: Any, **kwargs: Any) -> Any:
            with hold(first.root, busy=busy):
                return inner(first, *args, **kwargs)

        # Called as `inner` is, with the same answer: mypy cannot see that of an _F.
        return wrapper  # type: ignore[return-value]

    return decorate if function is None else decorate(function)


def _busy(holder: Holder, busy: str | None) -> TreeBusy:
    message = busy.format(holder=holder.describe()) if busy else busy_message(holder)
    return TreeBusy(holder, message)


def _take(root: Path, deadline: float, busy: str | None) -> tuple[int | None, Holder | None]:
    """Lock the tree's file, polling until the deadline; record who holds it."""
    fd = _open(root / LOCK_FILE, create=True)
    if fd is None:
        return None, None
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                holder = _read_holder(fd)
                os.close(fd)
                raise _busy(holder, busy) from None
            time.sleep(min(_POLL_SECONDS, left))
        except OSError:
            os.close(fd)  # a filesystem without locks (some network mounts): write as before
            return None, None
    holder = Holder(os.getpid(), _this_command(), dt.datetime.now().isoformat(timespec="seconds"))
    _write_holder(fd, holder)
    return fd, holder


def _open(path: Path, create: bool) -> int | None:
    """The lock file's descriptor; None when the tree cannot hold one. Never makes `.ai/`, never
    follows a link, and refuses anything but a regular file."""
    flags = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
    try:
        fd = os.open(path, flags | (os.O_CREAT if create else 0), 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise _hostile("a link") from None
        if error.errno == errno.EISDIR:
            raise _hostile("a folder") from None
        if error.errno not in _NOT_OURS_TO_LOCK:
            return None  # no `.ai/` (the write says what is wrong), or the lock file is not there
        try:
            # A lock file that exists can still be locked read-only (a read-only mount).
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError:
            return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _hostile("not a regular file")
    return fd


def _hostile(what: str) -> StoreError:
    return StoreError(
        f"{LOCK_FILE} is {what}, not samantha-tui's lock file; nothing was written; "
        "move it away (samantha-tui makes it again), then try again"
    )


def _write_holder(fd: int, holder: Holder) -> None:
    record = {"pid": holder.pid, "command": holder.command, "since": holder.since}
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(record).encode("utf-8") + b"\n", 0)
    except OSError:
        pass  # who holds it is a courtesy to the next writer; the lock itself is taken


def _read_holder(fd: int) -> Holder:
    try:
        data = json.loads(os.pread(fd, _MAX_HOLDER_BYTES, 0) or b"null")
        pid = data.get("pid")
        return Holder(
            pid if isinstance(pid, int) else None,
            str(data.get("command") or ""),
            str(data.get("since") or ""),
        )
    except (OSError, ValueError, AttributeError, RecursionError):
        # Not written yet (it has only just been taken), or not ours to read.
        return Holder(None)


def _release(fd: int | None, clear: bool) -> None:
    if fd is None:
        return
    if clear:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)  # a lock file left behind names nobody
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)

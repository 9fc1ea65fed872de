"""Helpers for tests that run other processes or many file operations.

`in_memory_folder`: a scratch folder on a memory file system (/dev/shm) when the system has one.
Renames, links and reads there behave as on disk for another process too; only fsync, which
these tests cannot observe (a killed process leaves the page cache to the kernel), costs nothing
instead of milliseconds a call.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

SHM = Path("/dev/shm")


@contextlib.contextmanager
def in_memory_folder(fallback: Path, prefix: str = "samantha-test-") -> Iterator[Path]:
    """A fresh folder in memory, removed afterwards; `fallback` where there is no /dev/shm."""
    if not (SHM.is_dir() and os.access(SHM, os.W_OK)):
        yield fallback
        return
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=SHM))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def next_tick(folder: Path) -> None:
    """Wait until the clock that stamps ctimes in `folder`'s file system has moved on: a change
    made afterwards gets a ctime that no file changed before the call has. The file system is
    asked (a probe file in `folder`, which must be outside the tree under test); a coarse clock
    ticks every few milliseconds, a fine-grained one has moved by the time it is asked."""
    probe = folder / ".tick"
    probe.touch()
    start = os.stat(probe).st_ctime_ns
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        os.utime(probe)
        if os.stat(probe).st_ctime_ns > start:
            return
        time.sleep(0.0005)
    raise AssertionError(f"the ctime clock of {folder} did not move in 30 s")

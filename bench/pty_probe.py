"""Programs on a pseudo-terminal, as a person runs them: start-up to a pattern, and a held key.

A `PtySession` spawns a command on a 120×40 pseudo-terminal (python `pty`, TERM=xterm-256color),
reads everything it writes, and notes when each write arrived: start-up is the time from spawn to
the first output holding a pattern; a held key is sent at a key repeat's rate whatever the app is
doing, and the longest wait between two screen updates meanwhile is its worst frame stall.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from samantha_tui.ui.tabs import TABS

ROWS, COLUMNS = 40, 120
WAIT_LIMIT = 600.0
QUIT_LIMIT = 3.0

# The first tab's label gains its count in the same handler that fills the list, so the first
# frame showing "Short-term <digits>" is the first frame with the list filled.
FILLED = re.compile(re.escape(TABS[0].label).encode() + rb" (\d+)(?=\D)")

PAGE_DOWN = b"\x1b[6~"
"""What an xterm sends for PgDn."""
FIRST_ROW = b"g"
LAST_ROW = b"G"
"""The list's keys for its first and last rows: pressed at the end, the last must change nothing."""
PAGE_AT_LEAST = 10
"""A PgDn moves at least this many rows at 120×40: with the list's count, it caps the keys."""
REPEAT_RATE = 30.0
"""Keys a second while a key is held: terminals' key repeat commonly sends 25-33."""
SETTLE_WINDOW = 1.0
SETTLE_CPU = 0.05
"""Settled: the process used at most this share of one core over SETTLE_WINDOW seconds."""
QUIET = 1.5
"""No screen update for this long while keys are sent: the keys stopped changing anything."""
DRAIN = 3.0
"""Then no update for this long more after the last key: nothing was still queued."""
REPEATS = 3
"""This many identical updates in a row: the keys no longer change the screen."""
BURST_GAP = 0.004
"""Writes closer together than this are one frame (a terminal reads a frame in several reads)."""


def longest_gap(times: Sequence[float]) -> float:
    """The longest interval between consecutive times (ascending); 0.0 with fewer than two."""
    return max((b - a for a, b in itertools.pairwise(times)), default=0.0)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of the process so far, every thread included (Linux /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # the name in parentheses may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class HeldKey:
    """What holding a key did: keys sent, seconds from the first key to the last screen update,
    and the longest wait for a screen update in between (from the first key on)."""

    keys: int
    seconds: float
    longest_stall_s: float


class Updates:
    """A program's screen updates as they arrive: a write and those right after it (less than
    BURST_GAP apart) are one update, one frame the terminal draws."""

    def __init__(self, start: float) -> None:
        self.times = [start]
        """When each update began, after the start (the first key, which the first answers)."""
        self._frames: list[bytes] = []
        self._current = bytearray()
        self._last = start

    def add(self, at: float, chunk: bytes) -> None:
        """A write of chunk read at the given time."""
        if at - self._last >= BURST_GAP or not self._current:
            self._close()
            self.times.append(at)
        self._current += chunk
        self._last = at

    def _close(self) -> None:
        if self._current:
            self._frames.append(bytes(self._current))
            self._current = bytearray()

    def frames(self) -> list[bytes]:
        """Each update's bytes, the one still arriving included."""
        return self._frames + ([bytes(self._current)] if self._current else [])

    def finished(self) -> bytes:
        """The last update known to be whole (b"" before the second one began)."""
        return self._frames[-1] if self._frames else b""

    def repeats(self) -> int:
        """How many finished updates at the end were the same bytes (1: the last differs)."""
        count = 0
        for frame in reversed(self._frames):
            if count and frame != self._frames[-1]:
                break
            count += 1
        return count

    def until_still(self) -> list[float]:
        """The update times up to the first of the identical ones at the end (all of them when
        the last update differs from the one before)."""
        repeats = self.repeats()
        if repeats < 2:
            return self.times
        # times[0] is the start; frame i began at times[i + 1].
        return self.times[: len(self._frames) - repeats + 2]


class PtySession:
    """A command running on its own pseudo-terminal; every write it makes is read as it comes."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str]) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.start = time.perf_counter()
        self.process = subprocess.Popen(
            [str(part) for part in command],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**env, "TERM": "xterm-256color"},
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.tail = b""
        self.last_output = self.start

    def __enter__(self) -> PtySession:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _read(self, timeout: float) -> bytes | None:
        """One write's worth of output within timeout: None when none came, b"" at its end."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return None
        try:
            chunk = os.read(self.master, 1 << 16)
        except OSError:
            chunk = b""
        if chunk:
            self.last_output = time.perf_counter()
            self.tail = self.tail[-256:] + chunk  # a pattern may straddle two reads
        return chunk

    def wait_for(self, pattern: re.Pattern[bytes]) -> tuple[float, re.Match[bytes]]:
        """Read until pattern shows; seconds since spawn when it did, and the match."""
        self.tail = b""
        while not (match := pattern.search(self.tail)):
            chunk = self._read(WAIT_LIMIT)
            if chunk is None:
                raise TimeoutError(f"{pattern.pattern!r} not shown within {WAIT_LIMIT:.0f} s")
            if not chunk:
                raise RuntimeError(f"the program ended before {pattern.pattern!r}: {self.tail!r}")
        return self.last_output - self.start, match

    def settle(self) -> None:
        """Read on until the program is idle (its background work after the first frame done)."""
        deadline = time.perf_counter() + WAIT_LIMIT
        while time.perf_counter() < deadline:
            used = cpu_seconds(self.process.pid)
            until = time.perf_counter() + SETTLE_WINDOW
            while (left := until - time.perf_counter()) > 0:
                if self._read(left) == b"":
                    raise RuntimeError(f"the program ended while settling: {self.tail!r}")
            if cpu_seconds(self.process.pid) - used <= SETTLE_CPU * SETTLE_WINDOW:
                return
        raise TimeoutError(f"still busy {WAIT_LIMIT:.0f} s after its first frame")

    def hold(self, key: bytes, max_keys: int) -> tuple[HeldKey, Updates]:
        """Send key REPEAT_RATE times a second, whether or not the program keeps up, until its
        screen stops changing or max_keys were sent.

        The screen has stopped changing when the last REPEATS updates were the same bytes (a
        program that repaints on a key that moves nothing) or when it stayed still for QUIET
        seconds while keys were sent and DRAIN more after the last. The longest gap between the
        first key and the update where it stopped changing is the longest stall."""
        interval = 1.0 / REPEAT_RATE
        first = next_key = time.perf_counter()
        updates = Updates(first)
        self.last_output = first
        keys = 0
        sending = True
        while updates.repeats() < REPEATS:
            now = time.perf_counter()
            if sending and now >= next_key:
                os.write(self.master, key)
                keys += 1
                next_key += interval
            if sending and (now - self.last_output >= QUIET or keys >= max_keys):
                sending = False
            if not sending and now - self.last_output >= QUIET + DRAIN:
                break
            wait = next_key - now if sending else self.last_output + QUIET + DRAIN - now
            chunk = self._read(wait)
            if chunk == b"":
                raise RuntimeError(f"the program ended while the key was held: {self.tail!r}")
            if chunk:
                updates.add(self.last_output, chunk)
                if not sending and keys < max_keys:
                    # A stall longer than QUIET, not the end: the queued keys are being taken.
                    sending, next_key = True, time.perf_counter()
        times = updates.until_still()
        return HeldKey(keys, times[-1] - first, longest_gap(times)), updates

    def changes_screen(self, key: bytes, last: bytes) -> bool:
        """Whether pressing key, once the program is quiet, makes it write anything but `last`."""
        while self._read(BURST_GAP * 25):
            pass
        os.write(self.master, key)
        written = Updates(time.perf_counter())
        while chunk := self._read(QUIET):
            written.add(self.last_output, chunk)
        return any(frame != last for frame in written.frames())

    def close(self) -> None:
        """`q`, read what it writes while quitting, and kill it if it has not ended by then."""
        try:
            if self.process.poll() is None:
                with contextlib.suppress(OSError):
                    os.write(self.master, b"q")
                deadline = time.perf_counter() + QUIT_LIMIT
                while time.perf_counter() < deadline:
                    if not self._read(deadline - time.perf_counter()):
                        break
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(QUIT_LIMIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            os.close(self.master)


def startup_pty(
    command: Sequence[str], env: Mapping[str, str], pattern: re.Pattern[bytes]
) -> float:
    """Seconds from spawning command on the pseudo-terminal to its first output holding pattern."""
    with PtySession(command, env) as session:
        return session.wait_for(pattern)[0]


def held_page_down(command: Sequence[str], env: Mapping[str, str]) -> tuple[float, HeldKey]:
    """samantha-tui's start-up to a filled list, then PgDn held from the first row to the last.

    The list's own count (in its tab's label) caps the keys; once the screen stops changing, the
    last-row key must change nothing either, or the keys stopped short of the bottom."""
    with PtySession(command, env) as session:
        took, match = session.wait_for(FILLED)
        session.settle()
        session.changes_screen(FIRST_ROW, b"")  # where a fresh start already is, to be sure
        held, updates = session.hold(PAGE_DOWN, max_keys=int(match.group(1)) // PAGE_AT_LEAST + 20)
        if session.changes_screen(LAST_ROW, updates.finished()):
            raise RuntimeError(
                f"PgDn held {held.keys} times stopped changing the screen before the last row"
            )
        return took, held

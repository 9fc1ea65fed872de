"""Start-up of the installed console script under a pseudo-terminal, as a person starts it."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Mapping
from pathlib import Path

from samantha_tui.ui.tabs import TABS

ROWS, COLUMNS = 40, 120
WAIT_LIMIT = 600.0
QUIT_LIMIT = 3.0

# The first tab's label gains its count in the same handler that fills the list, so the first
# frame showing "Short-term <digits>" is the first frame with the list filled.
FILLED = re.compile(re.escape(TABS[0].label).encode() + rb" \d")


def startup_pty(script: Path, root: Path, env: Mapping[str, str]) -> float:
    """Seconds from spawning `script root` on a 120×40 pseudo-terminal to the filled list.

    Then `q` quits the app (killed if it has not ended QUIT_LIMIT seconds later)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(script), str(root)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**env, "TERM": "xterm-256color"},
        start_new_session=True,
    )
    os.close(slave)
    try:
        took = _wait_for(master, FILLED, start)
        os.write(master, b"q")
        _drain(master, time.perf_counter() + QUIT_LIMIT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(QUIT_LIMIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    return took


def _wait_for(master: int, pattern: re.Pattern[bytes], start: float) -> float:
    """Read the terminal until pattern shows; seconds since start when it did."""
    seen = b""
    while not pattern.search(seen):
        ready, _, _ = select.select([master], [], [], WAIT_LIMIT)
        if not ready:
            raise TimeoutError(f"no filled list within {WAIT_LIMIT:.0f} s")
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            raise RuntimeError(f"the app ended before its list was filled: {seen[-500:]!r}")
        seen = seen[-256:] + chunk  # the label may straddle two reads
    return time.perf_counter() - start


def _drain(master: int, deadline: float) -> None:
    """Read whatever the app still writes while it quits, so it never blocks on a full terminal."""
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.perf_counter()))
        if not ready:
            return
        with contextlib.suppress(OSError):
            if os.read(master, 1 << 16):
                continue
        return

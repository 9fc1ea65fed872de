"""Code run in a fresh interpreter: what a process imports is seen only where nothing was
imported before it (the test process has imported everything)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


def run_fresh(code: str) -> str:
    """Run `code` in a new interpreter that finds this checkout's package; its standard output.
    A failure (an assertion in `code`) fails the test with the interpreter's error output."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def imported_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    out = run_fresh(f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n")
    return set(json.loads(out.splitlines()[-1]))


@contextlib.contextmanager
def locked_by_another_process(database: Path) -> Iterator[None]:
    """An SQLite database held by an exclusive lock in another process while inside."""
    # As a context manager the process is waited for and its pipe closed, whatever happens.
    with subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(30)\n",
            str(database),
        ],
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            yield
        finally:
            holder.kill()

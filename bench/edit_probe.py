"""`python -m bench.edit_probe`: a headless edit beside the least a safe one must do.

On samantha-llm-like trees (bench/samantha_llm_like.py, seed 7) of each size in EDIT_SIZES, its
indexes brought in step once: `samantha-tui set FILE importance=...` on a short-term memory,
each run a fresh process, interleaved with bench/safe_edit.py doing the same edit to the same
file (the key's line rewritten, the index.json entry too, each fsynced and renamed). Per size:
`edit_set_s` and `edit_safe_s` (medians of RUNS, wall clock), their ratio `edit_ratio` (target
≤ 3) and each one's peak memory, `edit_set_mb` and `edit_safe_mb` (the largest of the runs;
target for set ≤ 100 MB at 100,000). One JSON line.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from samantha_tui.core.views.merge_copies import MERGE_COPY_NAME

from .samantha_llm_like import SHORT, write_tree

EDIT_SIZES = tuple(
    int(n) for n in os.environ.get("BENCH_EDIT_SIZES", "1000,10000,100000").split(",")
)
RUNS = 7
SAFE = Path(__file__).with_name("safe_edit.py")
VALUES = ("high", "medium")


TIME = "/usr/bin/time"
"""GNU time reports a child's peak memory: measured from this process instead, a forked child's
high-water mark starts at this process's size (the tree it just wrote)."""


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(seconds, peak MB) of one process running `command`; the peak is NaN without GNU time."""
    measured = [TIME, "-f", "%M", *command] if os.path.exists(TIME) else command
    start = time.perf_counter()
    done = subprocess.run(measured, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{command[:4]} failed: {done.stderr}")
    peak = float(done.stderr.split()[-1]) / 1024 if measured is not command else float("nan")
    return seconds, peak


def measure_size(size: int, folder: Path) -> dict[str, float]:
    root = folder / f"tree-{size}"
    write_tree(root, size, seed=7, today=dt.date.today())
    env = {
        **os.environ,
        "SAMANTHA_TUI_CONFIG": str(folder / "settings.toml"),
        "SAMANTHA_TUI_CACHE": str(folder / f"cache-{size}"),
        "SAMANTHA_TUI_STATE": str(folder / "state.json"),
    }
    tui = [sys.executable, "-m", "samantha_tui"]
    _timed([*tui, "index", str(root)], env)  # in step, as a kept tree is
    # The newest memory the worker indexed (not a merge copy): its entry is in `recent`.
    memory = max(p for p in (root / SHORT).glob("2*.md") if not MERGE_COPY_NAME.match(p.name))
    taken: dict[str, list[float]] = {}
    for run in range(RUNS):
        value = VALUES[run % 2]
        for name, command in (
            ("set", [*tui, "set", str(memory), f"importance={value}"]),
            ("safe", [sys.executable, str(SAFE), str(memory), "importance", value]),
        ):
            seconds, peak = _timed(command, env)
            taken.setdefault(f"edit_{name}_s", []).append(seconds)
            taken.setdefault(f"edit_{name}_mb", []).append(peak)
    figures = {
        "edit_set_s": statistics.median(taken["edit_set_s"]),
        "edit_safe_s": statistics.median(taken["edit_safe_s"]),
        "edit_set_mb": max(taken["edit_set_mb"]),
        "edit_safe_mb": max(taken["edit_safe_mb"]),
    }
    figures["edit_ratio"] = figures["edit_set_s"] / figures["edit_safe_s"]
    return {f"{key}_{size}": round(value, 3) for key, value in figures.items()}


def measure() -> dict[str, float]:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for size in EDIT_SIZES:
            figures.update(measure_size(size, Path(scratch)))
    return figures


if __name__ == "__main__":
    print(json.dumps(measure()))

"""`python -m bench.health_probe`: the health report with and without meaning, in one run.

On the samantha-llm-like tree of 10,000 memories (bench/trees.py, seed 7), each in a fresh
process of `samantha-tui health`, its catalog and vectors warm (one untimed run of each first,
so the first reading of the model's vectors is not what is compared): `health_off_s` with the
settings' `meaning.enabled = false`, `health_meaning_s` with it on, medians of RUNS, and their
ratio (target ≤ 1.5). Also the pairs the meaning pass reports there, by verdict. One JSON line.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .trees import samantha_llm_tree

RUNS = 3
SETTINGS = {"off": "[meaning]\nenabled = false\n", "on": "[meaning]\nenabled = true\n"}
_CHECK = re.compile(r"^([a-z ]+) \((\d+)\)$", re.MULTILINE)


def _run(root: Path, folder: Path, mode: str) -> tuple[float, str]:
    config = folder / f"{mode}.toml"
    config.write_text(SETTINGS[mode], encoding="utf-8")
    env = {
        **os.environ,
        "SAMANTHA_TUI_CONFIG": str(config),
        "SAMANTHA_TUI_CACHE": str(folder / "cache"),
        "SAMANTHA_TUI_STATE": str(folder / "state.json"),
    }
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "samantha_tui", "health", str(root)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return time.perf_counter() - start, out.stdout


def measure() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        root = samantha_llm_tree(folder)
        _run(root, folder, "off")
        _, report = _run(root, folder, "on")  # the vectors kept in the catalog: warm from here
        off = [_run(root, folder, "off")[0] for _ in range(RUNS)]
        on = [_run(root, folder, "on")[0] for _ in range(RUNS)]
    figures: dict[str, float] = {
        "health_off_s": statistics.median(off),
        "health_meaning_s": statistics.median(on),
    }
    figures["health_meaning_ratio"] = figures["health_meaning_s"] / figures["health_off_s"]
    for check, count in _CHECK.findall(report):
        figures[f"findings_{check.replace(' ', '_')}"] = float(count)
    return {key: round(value, 3) for key, value in figures.items()}


if __name__ == "__main__":
    print(json.dumps(measure()))

"""Harlequin's start-up on the pseudo-terminal: the reference of another Textual app people use.

`make bench` takes it beside the floor app when `BENCH_HARLEQUIN` names a Harlequin executable
(installed apart, e.g. `python -m venv H && H/bin/pip install harlequin`): spawn to the first
output holding its first frame's "Data Catalog" title, with an in-memory DuckDB (no argument)
and HOME a scratch folder, so no config of the user's is read. `startup_harlequin_ratio` is
samantha-tui's warm start-up over it (target ≤ 0.5).

`python -m bench.harlequin_ref TREE [RUNS]` takes the three start-ups in turns on one tree
(floor app, Harlequin, samantha-tui warm; RUNS times, default 5, after one untimed start of
each) and prints one JSON line of their medians and ratios.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from .pty_probe import FILLED, startup_pty

HARLEQUIN_ENV = "BENCH_HARLEQUIN"
READY = re.compile(rb"Data Catalog")


def command() -> list[str] | None:
    """The Harlequin named by BENCH_HARLEQUIN, or None when none is named."""
    named = os.environ.get(HARLEQUIN_ENV)
    return [named] if named else None


def startup(harlequin: list[str], env: Mapping[str, str], home: Path) -> float:
    """Seconds from spawning Harlequin to its first frame, HOME set to `home`."""
    home.mkdir(parents=True, exist_ok=True)
    return startup_pty(harlequin, {**env, "HOME": str(home)}, READY)


def main(root: str, runs: int) -> dict[str, float]:
    from .__main__ import FLOOR, FLOOR_FILLED, SCRIPT

    harlequin = command()
    if harlequin is None:
        raise SystemExit(f"{HARLEQUIN_ENV} names no Harlequin executable")
    with tempfile.TemporaryDirectory() as scratch:
        settings = Path(scratch) / "settings.toml"
        settings.write_text("[watch]\nenabled = true\n", encoding="utf-8")
        env = {
            **os.environ,
            "SAMANTHA_TUI_CONFIG": str(settings),
            "SAMANTHA_TUI_CACHE": str(Path(scratch) / "cache"),
            "SAMANTHA_TUI_STATE": str(Path(scratch) / "state.json"),
        }
        home = Path(scratch) / "harlequin-home"
        ours = [str(SCRIPT), root]
        startup_pty(FLOOR, env, FLOOR_FILLED)
        startup(harlequin, env, home)
        startup_pty(ours, env, FILLED)  # the catalog written: every timed start is warm
        taken: dict[str, list[float]] = {"floor": [], "harlequin": [], "samantha_tui": []}
        for _ in range(runs):
            taken["floor"].append(startup_pty(FLOOR, env, FLOOR_FILLED))
            taken["harlequin"].append(startup(harlequin, env, home))
            taken["samantha_tui"].append(startup_pty(ours, env, FILLED))
    figures = {f"{name}_s": statistics.median(values) for name, values in taken.items()}
    figures["harlequin_floor_ratio"] = figures["harlequin_s"] / figures["floor_s"]
    figures["startup_harlequin_ratio"] = figures["samantha_tui_s"] / figures["harlequin_s"]
    figures["startup_floor_ratio"] = figures["samantha_tui_s"] / figures["floor_s"]
    return {key: round(value, 3) for key, value in figures.items()}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)))

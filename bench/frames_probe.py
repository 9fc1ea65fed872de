"""Holding PgDn on a pseudo-terminal, several runs, beside the floor app's start-up.

`python -m bench.frames_probe TREE [RUNS]` runs the app from this checkout (`python -m
samantha_tui`, so the code measured is the code beside this file, not whatever the console script
was installed from) on a 120×40 pty, holds PgDn from the first row to the last (see
`bench.pty_probe.held_page_down`), and prints one JSON line: each run's longest stall and hold
time, their medians and worst, and the floor app's start-ups taken right before each run.
`$SAMANTHA_TUI_CACHE` is set to a scratch folder (one warm-up start fills it) and the watcher is
off, as in `make bench`.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

from . import floor_app
from .pty_probe import FILLED, held_page_down, startup_pty

FLOOR = [sys.executable, str(Path(__file__).with_name("floor_app.py"))]
FLOOR_FILLED = re.compile(re.escape(floor_app.MARKER).encode() + rb" \d")
CHECKOUT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    root = Path(argv[0])
    runs = int(argv[1]) if len(argv) > 1 else 3
    scratch = Path(tempfile.mkdtemp(prefix="frames-probe-"))
    settings = scratch / "settings.toml"
    settings.write_text("[watch]\nenabled = false\n", encoding="utf-8")
    env = {
        **os.environ,
        "SAMANTHA_TUI_CONFIG": str(settings),
        "SAMANTHA_TUI_CACHE": str(scratch / "cache"),
        "SAMANTHA_TUI_STATE": str(scratch / "state.json"),
        "PYTHONPATH": str(CHECKOUT),
    }
    command = [sys.executable, "-m", "samantha_tui", str(root)]
    startup_pty(command, env, FILLED)  # fills the cache: every timed run starts warm
    stalls, held_s, floors, startups = [], [], [], []
    for _ in range(runs):
        floors.append(startup_pty(FLOOR, env, FLOOR_FILLED))
        took, held = held_page_down(command, env)
        startups.append(took)
        stalls.append(held.longest_stall_s * 1000)
        held_s.append(held.seconds)
        note = f"  stall {stalls[-1]:.0f} ms, held {held.seconds:.1f} s, {held.keys} keys"
        print(note, flush=True)
    print(
        json.dumps(
            {
                "tree": str(root),
                "pgdn_stall_ms": round(statistics.median(stalls), 1),
                "pgdn_stall_ms_max": round(max(stalls), 1),
                "pgdn_stall_ms_runs": [round(s, 1) for s in stalls],
                "pgdn_held_s": round(statistics.median(held_s), 2),
                "startup_pty_s": round(statistics.median(startups), 3),
                "floor_pty_s": round(statistics.median(floors), 3),
                "floor_pty_s_max": round(max(floors), 3),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

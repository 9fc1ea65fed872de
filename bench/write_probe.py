"""`python -m bench.write_probe ROOT [TOGGLES] [--profile]`: `c` to disk through the core.

The curator loads the tree at ROOT, regenerates every index once (a kept tree has them), then
toggles critical TOGGLES times (default 12) on one short-term memory, each timed until `apply`
returns, by when the memory file and every index entry it feeds are on disk. As a reference for
the machine's load at that moment, one `json.dumps(indent=2)` of the short-term index.json is
timed in the same process, and the time the toggles spent in `os.fsync` (the disk's share, which
a busy machine inflates most). Prints one JSON object; `--profile` prints the toggles' cProfile
instead (cumulative time, top 40).
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

from samantha_tui.core.basics import clock
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

_SYNCED: list[float] = []
"""Seconds spent in os.fsync, by every toggle so far: the disk's share, apart from the code's."""


def _timed_fsync(fsync):
    def timed(fd: int) -> None:
        start = time.perf_counter()
        try:
            fsync(fd)
        finally:
            _SYNCED.append(time.perf_counter() - start)

    return timed


def _toggles(curator: Curator, path: str, count: int) -> list[float]:
    timings = []
    for _ in range(count):
        memory = curator.get(path)
        assert memory is not None, path
        start = time.perf_counter()
        outcome = curator.apply(edits.toggle_critical(memory))
        timings.append((time.perf_counter() - start) * 1000)
        assert outcome.index_error is None and outcome.indexes, outcome
    return timings


def _dump_reference(root: Path) -> float:
    """Milliseconds of one standard-library dump of the short-term index.json, as it is now."""
    data = json.loads((root / Kind.SHORT_TERM.folder / "index.json").read_text("utf-8"))
    start = time.perf_counter()
    json.dumps(data, indent=2)
    return (time.perf_counter() - start) * 1000


def main(root: Path, count: int, profile: bool) -> dict[str, object]:
    """Each toggle's milliseconds, their median, and the dump reference."""
    curator = Curator(Store(root, clock.today), auto_index=True)
    curator.load()
    curator.reindex()
    path = next(m.path for m in curator.tree.memories if m.kind is Kind.SHORT_TERM)
    _toggles(curator, path, 2)  # the first writes after a regeneration warm the kept state
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        _toggles(curator, path, count)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
        return {}
    _SYNCED.clear()
    os.fsync = _timed_fsync(os.fsync)
    writes = _toggles(curator, path, count)
    synced_ms = sum(_SYNCED) * 1000 / count
    return {
        "writes_ms": [round(ms, 2) for ms in writes],
        "write_ms": round(statistics.median(writes), 2),
        "fsync_ms_per_toggle": round(synced_ms, 2),
        "fsyncs_per_toggle": len(_SYNCED) / count,
        "dump_reference_ms": round(_dump_reference(root), 2),
    }


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    found = main(Path(args[0]), int(args[1]) if len(args) > 1 else 12, "--profile" in sys.argv)
    if found:
        print(json.dumps(found))

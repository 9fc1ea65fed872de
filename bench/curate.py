"""`python -m bench.curate`: what curating a big tree feels like in the real app, run headless.

For each size (BENCH_CURATE_SIZES, default 10000) a tree is generated and its indexes regenerated
once, then the app runs with the watcher off. Timed: each keystroke of a search until the list holds
that query's results, `c` and `u` until the list shows the change (file written, indexes rewritten),
the event loop's worst lateness meanwhile, and three curator calls made directly: the drift check,
one kind's reindex, and taking in 500 files another program wrote. Figures merge into
bench/results.json under each size.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import inspect
import os
import statistics
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot

from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.health import HEALTH_AFTER
from samantha_tui.ui.messages import SearchDone

from .generate import generate
from .results import run
from .samantha_llm_like import write_tree

QUERY = "gateway retries"
TYPING_PASSES = 5
TOGGLES = 6
DIRECT_PASSES = 5
ABSORB_PASSES = 3
ABSORB_FILES = 500
TICK = 0.010
"""The lag monitor's sleep: how often it checks that the event loop is free."""
WAIT_LIMIT = 120.0
REALISTIC = os.environ.get("BENCH_CURATE_TREE", "") == "realistic"
"""`BENCH_CURATE_TREE=realistic`: the tree is samantha-llm-like (bench/samantha_llm_like.py:
mostly the worker's session analyses, as a real tree is), its figures named `realistic_…`."""

# Keys the app binds by name; a pressed key also carries the character it types.
CHARACTERS = {"slash": "/", "space": " "}


class TimedApp(SamanthaApp):
    """The real app, telling the benchmark when a search's results or a change are on the list."""

    # Textual reads a relative CSS_PATH beside the subclass's module; point at the app's own.
    CSS_PATH = str(Path(inspect.getfile(SamanthaApp)).with_name("app.tcss"))

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.shown = asyncio.Event()
        self.searches_shown: list[str] = []
        self.changes_shown = 0
        self.trees_shown = 0
        """Lists drawn for a change: a change's list shows once its files are written, before
        its index patch (its whole outcome, `changes_shown`, follows)."""

    def on_search_done(self, message: SearchDone) -> None:
        super().on_search_done(message)
        # The app's handler has run through super(); stop Textual calling it again up the MRO.
        message.prevent_default()
        if self._results is not None and message.query == self.query_text:
            self.searches_shown.append(message.query)
            self.shown.set()

    def show_tree(self, *args: Any, **kwargs: Any) -> None:
        super().show_tree(*args, **kwargs)
        self.trees_shown += 1
        self.shown.set()

    def after_change(self, message: Any) -> None:
        super().after_change(message)
        self.changes_shown += 1
        self.shown.set()


def press(app: SamanthaApp, key: str) -> None:
    """Send one key as a terminal does (`pilot.press` also waits for idle, which would be timed)."""
    character = CHARACTERS.get(key, key if len(key) == 1 else None)
    app.post_message(events.Key(key, character))


async def wait_until(app: TimedApp, done: Callable[[], bool]) -> None:
    """Sleep until a handler the benchmark watches has run and `done` holds."""
    while not done():
        app.shown.clear()
        await asyncio.wait_for(app.shown.wait(), WAIT_LIMIT)


async def settle(app: TimedApp, pilot: Pilot) -> None:
    """Wait for every worker (searches, the drift check after a change) and a quiet moment."""
    while any(not worker.is_finished for worker in app.workers):
        await asyncio.sleep(0.01)
    await pilot.pause()


@contextlib.asynccontextmanager
async def loop_lag() -> AsyncIterator[list[float]]:
    """Wake every TICK on the UI's event loop; yields how late each wake-up was, in ms."""
    late: list[float] = []

    async def watch() -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            late.append((time.perf_counter() - start - TICK) * 1000)

    task = asyncio.create_task(watch())
    try:
        yield late
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def type_query(app: TimedApp, pilot: Pilot) -> list[float]:
    """Open the search, type QUERY key by key, timing each key until its results are listed."""
    press(app, "slash")
    await settle(app, pilot)
    app.searches_shown.clear()
    timings = []
    for typed_count, character in enumerate(QUERY, 1):
        typed = QUERY[:typed_count]
        start = time.perf_counter()
        press(app, "space" if character == " " else character)
        await wait_until(app, listed(app, typed))
        timings.append((time.perf_counter() - start) * 1000)
    press(app, "escape")
    await settle(app, pilot)
    return timings


def listed(app: TimedApp, query: str) -> Callable[[], bool]:
    """Whether the newest search results on the list are the ones for query."""
    return lambda: app.searches_shown[-1:] == [query]


async def change_timings(
    app: TimedApp, pilot: Pilot, key: str, count: int, cpu: list[float], ui_cpu: list[float]
) -> list[float]:
    """Press key count times, timing each press until the list shows the memory's flag flipped;
    `cpu` gets each press's CPU time in the whole process and `ui_cpu` on the UI's thread (this
    coroutine runs on it), in ms. Before each press the work the last one started (the drift
    check, the health report after its short wait) has ended, so the CPU is the press's own."""
    timings = []
    for _ in range(count):
        memory = app.selected_memory()
        assert memory is not None, "no memory is selected"
        start, cpu_start, ui_start = time.perf_counter(), time.process_time(), time.thread_time()
        press(app, key)
        await wait_until(app, flipped(app, memory, app.trees_shown))
        timings.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
        ui_cpu.append((time.thread_time() - ui_start) * 1000)
        await settle(app, pilot)
        await asyncio.sleep(HEALTH_AFTER * 2)  # the report waits for quiet, then starts
        await settle(app, pilot)
    return timings


def flipped(app: TimedApp, memory: Memory, seen: int) -> Callable[[], bool]:
    """Whether the list was drawn after the first `seen` times, the memory's critical flipped."""

    def done() -> bool:
        now = app.curator.get(memory.path)
        return app.trees_shown > seen and now is not None and now.critical != memory.critical

    return done


def timed(call: Callable[[], object], passes: int) -> list[float]:
    """Seconds each of `passes` calls took."""
    timings = []
    for _ in range(passes):
        start = time.perf_counter()
        call()
        timings.append(time.perf_counter() - start)
    return timings


def write_outside(root: Path, batch: int, today: dt.date) -> list[str]:
    """Write ABSORB_FILES new short-term memories as another program would; their relative paths."""
    folder = root / Kind.SHORT_TERM.folder
    paragraph = "The gateway retries upstream calls with a budget instead of a fixed count. " * 6
    paths = []
    for n in range(ABSORB_FILES):
        rel = f"{Kind.SHORT_TERM.folder}/{today}_outside_{batch}_{n}.md"
        text = (
            f"---\ndate: {today}\ntopics: [retries, api-gateway]\nimportance: medium\n"
            f"type: learning\n---\n\n# Outside {batch}.{n}\n\n{paragraph}\n\n{paragraph}\n"
        )
        (folder / Path(rel).name).write_text(text, encoding="utf-8")
        paths.append(rel)
    return paths


async def drive(root: Path, today: dt.date) -> dict[str, list[float]]:
    """Run the app over root and take every timing; lists of raw figures by name."""
    app = TimedApp(root)
    taken: dict[str, list[float]] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        while app.memory_tree is None or not app.table.rows:
            await pilot.pause(0.005)
        while app.curator.search_index is None:
            await pilot.pause(0.005)
        await settle(app, pilot)
        async with loop_lag() as typing_lag:
            taken["keystroke"] = []
            for _ in range(TYPING_PASSES):
                taken["keystroke"] += await type_query(app, pilot)
        async with loop_lag() as change_lag:
            taken["toggle_cpu"], taken["toggle_ui_cpu"] = [], []
            taken["toggle"] = await change_timings(
                app, pilot, "c", TOGGLES, taken["toggle_cpu"], taken["toggle_ui_cpu"]
            )
            taken["undo"] = await change_timings(app, pilot, "u", TOGGLES, [], [])
        taken["typing_lag"], taken["change_lag"] = typing_lag, change_lag
        curator = app.curator
        short_term = next(m.path for m in curator.tree.memories if m.kind is Kind.SHORT_TERM)
        taken["drift"] = timed(curator.drift, DIRECT_PASSES)
        taken["reindex"] = timed(lambda: curator.reindex([short_term]), DIRECT_PASSES)
        taken["absorb"] = []
        for batch in range(ABSORB_PASSES):
            paths = write_outside(root, batch, today)
            start = time.perf_counter()
            curator.absorb(paths)
            taken["absorb"].append((time.perf_counter() - start) * 1000)
    per_key = [statistics.median(taken["keystroke"][i :: len(QUERY)]) for i in range(len(QUERY))]
    slowest = per_key.index(max(per_key))
    print(f"  slowest keystroke: after {QUERY[: slowest + 1]!r}")
    return taken


def measure(size: int, workdir: Path) -> dict[str, float]:
    today = dt.date.today()
    root = workdir / f"tree-{size}"
    if REALISTIC:
        write_tree(root, size, today=today)
    else:
        generate(root, size, today)
    store = Store(root, lambda: today)
    store.scan()
    Curator(store).reindex()  # start from clean indexes, as a tree the real tool keeps would
    config = workdir / "curate.toml"
    config.write_text("[watch]\nenabled = false\n", encoding="utf-8")
    os.environ["SAMANTHA_TUI_CONFIG"] = str(config)
    taken = asyncio.run(drive(root, today))
    figures = {
        "keystroke_ms": statistics.median(taken["keystroke"]),
        "keystroke_ms_max": max(taken["keystroke"]),
        "loop_lag_max_ms": max(taken["typing_lag"] + taken["change_lag"]),
        "loop_lag_typing_max_ms": max(taken["typing_lag"]),
        "loop_lag_change_max_ms": max(taken["change_lag"]),
        "toggle_ms": statistics.median(taken["toggle"]),
        "toggle_ms_max": max(taken["toggle"]),
        "toggle_cpu_ms": statistics.median(taken["toggle_cpu"]),
        "toggle_cpu_ms_max": max(taken["toggle_cpu"]),
        "toggle_ui_cpu_ms": statistics.median(taken["toggle_ui_cpu"]),
        "undo_ms": statistics.median(taken["undo"]),
        "undo_ms_max": max(taken["undo"]),
        "drift_s": statistics.median(taken["drift"]),
        "drift_s_max": max(taken["drift"]),
        "reindex_kind_s": statistics.median(taken["reindex"]),
        "reindex_kind_s_max": max(taken["reindex"]),
        "absorb_500_ms": statistics.median(taken["absorb"]),
        "absorb_500_ms_max": max(taken["absorb"]),
    }
    prefix = "realistic_" if REALISTIC else ""
    return {f"{prefix}{key}": round(value, 3) for key, value in figures.items()}


def main() -> int:
    columns = [
        ("key ms", "keystroke_ms"),
        ("(max)", "keystroke_ms_max"),
        ("lag ms", "loop_lag_max_ms"),
        ("c ms", "toggle_ms"),
        ("(max)", "toggle_ms_max"),
        ("c cpu ms", "toggle_cpu_ms"),
        ("c ui cpu", "toggle_ui_cpu_ms"),
        ("u ms", "undo_ms"),
        ("drift s", "drift_s"),
        ("reidx s", "reindex_kind_s"),
        ("abs500 ms", "absorb_500_ms"),
    ]
    if REALISTIC:
        columns = [(name, f"realistic_{key}") for name, key in columns]
    return run("BENCH_CURATE_SIZES", "10000", measure, columns)


if __name__ == "__main__":
    raise SystemExit(main())

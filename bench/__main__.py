"""`make bench`: scan, start-up, search, write, memory and scrolling on trees of several sizes.

First the import cost of the CLI and the app (bench/cold_start.py), memories compared by meaning
at 10,000 (bench/meaning.py), the CPU of an app boot and of one `j` on the demo
(bench/cpu_probe.py), the health report (bench/health_probe.py) and a headless edit
(bench/edit_probe.py). Then each size (BENCH_SIZES, default 1000,10000,100000) gets a tree from
bench/trees.py (bench/generate.py's, unless BENCH_TREE=samantha-llm asks for one made the way
samantha-llm makes it), and fresh processes measure it RUNS[size] times: a cold scan and a warm
one right after (sharing a new, empty cache folder), the headless app (start-up, scrolling, peak
RSS; again with meaning off, for what meaning costs), the floor app and the console script on a
pseudo-terminal (with no cache yet, up to COLD_PTY_MAX memories, then warm, holding PgDn to the
last row, with meaning on and off), and Harlequin when BENCH_HARLEQUIN names it
(bench/harlequin_ref.py). All run with the settings users have: the watcher on. Then
headless search as whole processes against grep | fzf and samantha-llm; then one core process
(warm cache) times search and writes, last because it writes into the tree. Medians are
recorded with the worst beside them as `..._max`, and the ratios of bench/targets.py from the
medians; the tables are printed and results.json updated.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import statistics
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from . import cli_search, cold_start, edit_probe, floor_app, harlequin_ref, targets, trees
from .pty_probe import FILLED, held_page_down, startup_pty
from .results import record_extra, run

RUNS = {1000: 3, 10000: 3, 100000: 1}
"""Runs per size: what fits `make bench` in 10 minutes on 2 cores; other sizes get 3."""
SEARCH_RUNS = {1000: 5, 10000: 5, 100000: 3}
"""Timed runs of each headless search command per size (after one untimed); other sizes get 5."""
FLOOR_RUNS = 2
"""Floor app start-ups in each run, right before samantha-tui's, so both meet the same load."""
COLD_PTY_MAX = 10000
"""Start-up with no cache is taken up to this size (its target is at 10,000; at 100,000 one such
start costs a full cold scan)."""
FLOOR = [sys.executable, str(Path(__file__).with_name("floor_app.py"))]
FLOOR_FILLED = re.compile(re.escape(floor_app.MARKER).encode() + rb" \d")
CACHE_ENV = "SAMANTHA_TUI_CACHE"
CONFIG_ENV = "SAMANTHA_TUI_CONFIG"
SCRIPT = Path(sys.executable).with_name("samantha-tui")

COLUMNS = [
    ("scan cold", "scan_cold_s"),
    ("(max)", "scan_cold_s_max"),
    ("scan warm", "scan_warm_s"),
    ("start s", "startup_s"),
    ("(max)", "startup_s_max"),
    ("pty s", "startup_pty_s"),
    ("(max)", "startup_pty_s_max"),
    ("pty cold", "startup_pty_cold_s"),
    ("floor s", "floor_pty_s"),
    ("harlequin", "harlequin_pty_s"),
    ("stall ms", "pgdn_stall_ms"),
    ("search s", "search_cli_s"),
    ("grep|fzf", "grep_fzf_s"),
    ("sllm s", "samantha_llm_search_s"),
    ("p50 ms", "search_p50_ms"),
    ("p95 ms", "search_p95_ms"),
    ("write ms", "write_ms"),
    ("(max)", "write_ms_max"),
    ("RSS MB", "rss_mb"),
    ("no mean.", "rss_meaning_off_mb"),
    ("scroll s", "scroll_s"),
    ("no mean.", "scroll_meaning_off_s"),
    ("stall off", "pgdn_stall_meaning_off_ms"),
]


def probe(module: str, root: Path, env: Mapping[str, str]) -> dict:
    """Run `python -m bench.<module> root` in a fresh process; the JSON it prints."""
    out = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", str(root)],
        capture_output=True,
        text=True,
        env=dict(env),
        check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(f"bench.{module} failed on {root}:\n{out.stderr}")
    return json.loads(out.stdout.splitlines()[-1])


def spread(name: str, values: list[float]) -> dict[str, float]:
    """The median under `name` and the worst under `name_max`."""
    return {name: statistics.median(values), f"{name}_max": max(values)}


def measure(size: int, workdir: Path) -> dict[str, float]:
    root = trees.build(workdir / f"tree-{size}", size, dt.date.today())
    # As users have it: the watcher on. And the same with comparing by meaning off, beside it.
    settings, meaning_off = workdir / "settings.toml", workdir / "meaning-off.toml"
    settings.write_text("[watch]\nenabled = true\n", encoding="utf-8")
    meaning_off.write_text("[watch]\nenabled = true\n[meaning]\nenabled = false\n", "utf-8")
    env = {**os.environ, CONFIG_ENV: str(settings)}
    taken: dict[str, list[float]] = {}
    for n in range(RUNS.get(size, 3)):
        # A new, empty cache per run: the first scan is cold, the second finds what it left.
        run_env = {**env, CACHE_ENV: str(workdir / f"cache-{size}-{n}")}
        taken.setdefault("scan_cold_s", []).append(probe("scan_probe", root, run_env)["scan_s"])
        taken.setdefault("scan_warm_s", []).append(probe("scan_probe", root, run_env)["scan_s"])
        app = probe("app_probe", root, run_env)
        for key in ("startup_s", "scroll_s", "rss_mb"):
            taken.setdefault(key, []).append(app[key])
        off_env = {**run_env, CONFIG_ENV: str(meaning_off)}
        plain = probe("app_probe", root, off_env)
        taken.setdefault("scroll_meaning_off_s", []).append(plain["scroll_s"])
        taken.setdefault("rss_meaning_off_mb", []).append(plain["rss_mb"])
        for _ in range(FLOOR_RUNS):
            taken.setdefault("floor_pty_s", []).append(startup_pty(FLOOR, env, FLOOR_FILLED))
        if harlequin := harlequin_ref.command():
            started = harlequin_ref.startup(harlequin, env, workdir / "harlequin-home")
            taken.setdefault("harlequin_pty_s", []).append(started)
        if size <= COLD_PTY_MAX:
            cold_env = {**env, CACHE_ENV: str(workdir / f"cache-{size}-{n}-pty")}
            cold = startup_pty([SCRIPT, root], cold_env, FILLED)
            taken.setdefault("startup_pty_cold_s", []).append(cold)
        startup, held = held_page_down([SCRIPT, root], run_env)
        taken.setdefault("startup_pty_s", []).append(startup)
        taken.setdefault("pgdn_stall_ms", []).append(held.longest_stall_s * 1000)
        taken.setdefault("pgdn_held_s", []).append(held.seconds)
        _, held_off = held_page_down([SCRIPT, root], off_env)
        taken.setdefault("pgdn_stall_meaning_off_ms", []).append(held_off.longest_stall_s * 1000)
    searched = cli_search.measure(
        SCRIPT, root, run_env, workdir / f"samantha-llm-{size}", SEARCH_RUNS.get(size, 5)
    )
    taken.update(searched)
    # Search and write figures do not depend on how the tree was read: a warm load saves time.
    core = probe("core_probe", root, run_env)
    print(
        f"  {size}: slowest query {core['slowest_query']!r}, {app['page_downs']} page-downs"
        f" headless, PgDn held {held.keys} times on the pty"
    )
    figures: dict[str, float] = {}
    for key, values in taken.items():
        figures.update(spread(key, values))
    figures.update({k: v for k, v in core.items() if k.startswith("search_")})
    figures.update(spread("write_ms", core["writes_ms"]))
    figures.update(targets.ratios(figures))
    return {key: round(value, 3) for key, value in figures.items()}


def probe_pass(module: str) -> dict[str, float]:
    """`python -m bench.MODULE` in a fresh process; the JSON line it prints last."""
    out = subprocess.run(
        [sys.executable, "-m", f"bench.{module}"], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise RuntimeError(f"bench.{module} failed:\n{out.stderr}")
    print(out.stderr.strip())
    return json.loads(out.stdout.splitlines()[-1])


def meaning_pass() -> dict[str, float]:
    """bench/meaning.py: the model, its vectors and the duplicate and conflict pass at 10,000."""
    return probe_pass("meaning")


def cpu_pass() -> dict[str, float]:
    """bench/cpu_probe.py: the CPU of an app boot and of one `j` on the demo, beside the floor's."""
    figures = probe_pass("cpu_probe")
    boot, floor = figures["boot_cpu_s"], figures["floor_boot_cpu_s"]
    print(
        f"app boot {boot:.3f} s of CPU (floor app {floor:.3f} s, x{boot / floor:.1f}); "
        f"one j {figures['j_cpu_ms']:.1f} ms of CPU"
    )
    return figures


def health_pass() -> dict[str, float]:
    """bench/health_probe.py: the health report with meaning and without, on the samantha-llm-like
    tree of 10,000."""
    figures = probe_pass("health_probe")
    print(
        f"health at 10,000 (samantha-llm-like): {figures['health_off_s']:.2f} s without meaning, "
        f"{figures['health_meaning_s']:.2f} s with (x{figures['health_meaning_ratio']:.2f})"
    )
    return figures


def edit_pass() -> dict[str, float]:
    """bench/edit_probe.py: `samantha-tui set` beside a minimal safe edit (targets: at most 3×
    its time at any size, at most 100 MB at 100,000)."""
    figures = probe_pass("edit_probe")
    for size in edit_probe.EDIT_SIZES:
        if f"edit_ratio_{size}" in figures:
            ratio, peak = figures[f"edit_ratio_{size}"], figures[f"edit_set_mb_{size}"]
            print(
                f"set at {size:,}: {figures[f'edit_set_s_{size}']:.3f} s, x{ratio:.1f} a minimal "
                f"safe edit (≤3 {'met' if ratio <= 3 else 'NOT met'}), {peak:.0f} MB"
                + (f" (≤100 {'met' if peak <= 100 else 'NOT met'})" if size >= 100000 else "")
            )
    return figures


def main() -> int:
    imports = cold_start.measure()
    print(cold_start.describe(imports))
    record_extra("cold_start", imports)
    record_extra("meaning", meaning_pass())
    record_extra("cpu", cpu_pass())
    record_extra("health", health_pass())
    record_extra("edit", edit_pass())
    return run("BENCH_SIZES", "1000,10000,100000", measure, COLUMNS, targets.report)


if __name__ == "__main__":
    raise SystemExit(main())

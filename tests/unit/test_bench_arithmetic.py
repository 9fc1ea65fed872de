"""The benchmark's own arithmetic and parsing: import reports, frame gaps, ratios and targets.

Nothing here times anything: the figures themselves belong to `make bench`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from bench import cli_search, cold_start, targets
from bench.pty_probe import FILLED, Updates, cpu_seconds, longest_gap
from bench.results import cell

REPORT = """\
import time: self [us] | cumulative | imported package
import time:       184 |        184 |   _io
import time:       431 |       1062 | _frozen_importlib_external
import time:        50 |         50 |     _codecs
import time:      2000 |       2050 | textual.app
a line that is not part of the report
"""


def test_importtime_lines_are_read_with_their_depth() -> None:
    lines = cold_start.parse_importtime(REPORT)
    assert [(line.module, line.self_us, line.cumulative_us, line.depth) for line in lines] == [
        ("_io", 184, 184, 1),
        ("_frozen_importlib_external", 431, 1062, 0),
        ("_codecs", 50, 50, 2),
        ("textual.app", 2000, 2050, 0),
    ]


def test_import_cost_is_every_self_time_summed_and_the_dearest_come_first() -> None:
    summary = cold_start.summarise(cold_start.parse_importtime(REPORT), top=2)
    assert summary["import_ms"] == pytest.approx((184 + 431 + 50 + 2000) / 1000)
    assert summary["top"] == [
        {"module": "textual.app", "self_ms": 2.0, "cumulative_ms": 2.05},
        {"module": "_frozen_importlib_external", "self_ms": 0.431, "cumulative_ms": 1.062},
    ]


def test_a_real_importtime_report_parses_to_the_modules_it_names() -> None:
    import subprocess

    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import json"],
        capture_output=True,
        text=True,
        check=True,
    )
    modules = {line.module for line in cold_start.parse_importtime(out.stderr)}
    assert {"json", "json.decoder"} <= modules


def test_longest_gap_is_between_neighbours_only() -> None:
    assert longest_gap([0.0, 0.1, 0.15, 0.45, 0.5]) == pytest.approx(0.3)
    assert longest_gap([1.0]) == 0.0
    assert longest_gap([]) == 0.0


def test_writes_close_together_are_one_update() -> None:
    updates = Updates(0.0)
    updates.add(0.010, b"ab")
    updates.add(0.011, b"cd")  # the same frame, read in two parts
    updates.add(0.050, b"ef")
    assert updates.times == [0.0, 0.010, 0.050]
    assert updates.frames() == [b"abcd", b"ef"]
    assert updates.finished() == b"abcd"  # "ef" may still be arriving


def test_identical_updates_at_the_end_mark_where_the_screen_stopped_changing() -> None:
    updates = Updates(0.0)
    for at, frame in [(0.1, b"a"), (0.2, b"b"), (0.3, b"z"), (0.4, b"z"), (0.5, b"z")]:
        updates.add(at, frame)
    assert updates.repeats() == 2  # the third "z" may still be arriving: only whole ones count
    updates.add(0.6, b"y")
    updates.add(0.7, b"x")
    assert updates.repeats() == 1
    assert updates.until_still() == updates.times
    still = Updates(0.0)
    for n, frame in enumerate([b"a", b"b", b"z", b"z", b"z", b"z"], start=1):
        still.add(n / 10, frame)
    assert still.repeats() == 3
    # Up to the first "z": the later ones are the same screen drawn again.
    assert still.until_still() == pytest.approx([0.0, 0.1, 0.2, 0.3])


def test_the_filled_pattern_reads_the_whole_count() -> None:
    assert FILLED.search(b"Short-term 70000 ").group(1) == b"70000"
    assert FILLED.search(b"Short-term 700") is None  # more digits may be in the next read


def test_cpu_seconds_of_this_process_grow_with_work() -> None:
    before = cpu_seconds(os.getpid())
    total = 0
    while cpu_seconds(os.getpid()) <= before:
        total += sum(range(10_000))
    assert total > 0


def test_ratios_are_taken_only_when_both_figures_were() -> None:
    figures = {"startup_pty_s": 1.5, "floor_pty_s": 0.5, "search_cli_s": 0.2, "grep_fzf_s": 0.0}
    assert targets.ratios(figures) == {"startup_floor_ratio": 3.0}
    figures.update(startup_pty_cold_s=2.0, grep_fzf_s=0.1, samantha_llm_search_s=2.0)
    assert targets.ratios(figures) == {
        "startup_floor_ratio": 3.0,
        "startup_cold_floor_ratio": 4.0,
        "search_grep_fzf_ratio": 2.0,
        "search_samantha_llm_speedup": 10.0,
    }


def test_targets_are_met_at_or_below_and_at_or_above() -> None:
    at_most = targets.Target("t", "k", 1000, 1.5)
    at_least = targets.Target("t", "k", 1000, 5.0, at_least=True)
    assert at_most.met(1.5) and not at_most.met(1.51)
    assert at_least.met(5.0) and not at_least.met(4.9)


def test_every_ratio_target_names_a_ratio_that_is_computed() -> None:
    ratio_keys = {t.key for t in targets.TARGETS if t.key.endswith(("_ratio", "_speedup"))}
    assert ratio_keys == set(targets.RATIOS)


def test_the_report_puts_each_figure_beside_its_target_at_its_size() -> None:
    measured = {
        "1000": {"startup_floor_ratio": 1.2, "rss_mb": 70.0},
        "10000": {"startup_floor_ratio": 1.6, "rss_mb": 150.0},
    }
    lines = targets.report(measured).splitlines()
    assert "1,000" in lines[0] and "10,000" in lines[0]
    startup = next(line for line in lines if line.startswith("start-up / floor, warm"))
    assert "1.2 (≤1.5 met)" in startup and "1.6 (≤1.5 NOT met)" in startup
    rss = next(line for line in lines if line.startswith("peak RSS"))
    # No target at 1,000: the figure alone; at 10,000 beside its target.
    assert rss.split()[3:] == ["70", "150", "(≤120", "NOT", "met)"]
    cold = next(line for line in lines if line.startswith("start-up / floor, no catalog"))
    assert cold.split()[-2:] == ["—", "—"]


def test_a_figure_not_taken_shows_as_a_dash() -> None:
    assert cell(None) == "—"
    assert cell(1.23456) == "1.235"


def test_a_pipeline_feeds_each_command_into_the_next(tmp_path: Path) -> None:
    out = tmp_path / "out"
    cli_search.timed(
        [
            [sys.executable, "-c", "print('auth token'); print('nothing')"],
            [sys.executable, "-c", f"import sys; open({str(out)!r}, 'w').write(sys.stdin.read())"],
        ],
        os.environ,
    )
    assert out.read_text() == "auth token\nnothing\n"


def test_a_failing_command_is_not_timed_as_an_answer() -> None:
    with pytest.raises(RuntimeError, match="failed"):
        cli_search.timed([[sys.executable, "-c", "raise SystemExit(2)"]], os.environ)


def test_samantha_llm_is_set_to_search_the_tree_and_nothing_of_the_person(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "samantha-llm").write_text("#!/usr/bin/env python3\n", encoding="utf-8")
    tree = tmp_path / "tree"
    (tree / ".ai").mkdir(parents=True)
    script = cli_search.samantha_llm_script(str(checkout))
    assert cli_search.samantha_llm_script(str(script)) == script
    commands, env = cli_search.samantha_llm_setup(script, tree, tmp_path / "scratch")
    repo = tmp_path / "scratch" / "repo"
    assert commands == [
        [sys.executable, str(repo / "samantha-llm"), "memories", "search", cli_search.QUERY]
    ]
    assert (repo / ".ai").resolve() == (tree / ".ai").resolve()
    config = Path(env["HOME"]) / ".config" / "samantha-llm" / "config.json"
    assert json.loads(config.read_text()) == {"repo_path": str(repo)}
    # Set up twice (a second size, a rerun): the link is kept, not an error.
    cli_search.samantha_llm_setup(script, tree, tmp_path / "scratch")


def test_a_checkout_without_the_script_is_named_in_the_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="BENCH_SAMANTHA_LLM"):
        cli_search.samantha_llm_script(str(tmp_path))

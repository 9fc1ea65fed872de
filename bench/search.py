"""`python -m bench.search`: time search queries on generated trees; print p50/p95, save results.

For each size (BENCH_SEARCH_SIZES, default 10000,100000) a tree is generated and scanned, the index
built once, then a fixed set of 20 queries runs PASSES times with limit 50 (what a result list
shows). Figures merge into bench/results.json under each size, keeping the keys already there.
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
import time
from pathlib import Path

from samantha_tui.core.reading.scan import scan
from samantha_tui.core.views.search import SearchIndex

from .generate import generate
from .results import run

PASSES = 5
LIMIT = 50

# 1-3 words, with and without filters, over the generator's vocabulary: common words that match a
# large share of the tree, typos, prefixes as typed, phrases, negation and filter-only queries.
QUERIES = (
    "gateway",
    "s",
    "mea",
    "gatway",
    "retries budget",
    "incidents staging load",
    "kafka",
    "billing export",
    "terraform docker performance",
    '"fixed count"',
    "upstream -gateway",
    "note 1234",
    "importance:high gateway",
    "topic:ci retries",
    "kind:long postgres",
    "project:mobile-sync sync",
    "date:2026-01 staging",
    "critical",
    "refs:>=5 -type:decision",
    "age:<30d importance:high",
)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value at least `share` of the values do not exceed."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * share) - 1)]


def time_queries(index: SearchIndex) -> list[list[float]]:
    """Run QUERIES once to warm up, then PASSES times; ms per query, one list per pass."""
    for query in QUERIES:  # warm up: first-use costs are not what typing feels
        index.search(query, LIMIT)
    passes = []
    for _ in range(PASSES):
        timings = []
        for query in QUERIES:
            start = time.perf_counter()
            result = index.search(query, LIMIT)
            timings.append((time.perf_counter() - start) * 1000)
            assert result.error is None, result.error
        passes.append(timings)
    return passes


def query_figures(passes: list[list[float]]) -> dict[str, float]:
    """p50 and p95 over every timing, the worst pass's p95 and the single slowest query."""
    pooled = [t for timings in passes for t in timings]
    return {
        "search_p50_ms": statistics.median(pooled),
        "search_p95_ms": percentile(pooled, 0.95),
        "search_p95_ms_max": max(percentile(timings, 0.95) for timings in passes),
        "search_max_ms": max(pooled),
    }


def slowest_query(passes: list[list[float]]) -> str:
    """The query with the highest median time over the passes."""
    medians = [statistics.median(p[i] for p in passes) for i in range(len(QUERIES))]
    return QUERIES[medians.index(max(medians))]


def measure(size: int, workdir: Path) -> dict[str, float]:
    today = dt.date.today()
    root = generate(workdir / f"tree-{size}", size, today)
    memories = scan(root, today).memories
    start = time.perf_counter()
    index = SearchIndex.build(memories, today)
    build_s = time.perf_counter() - start
    passes = time_queries(index)
    figures = {"search_build_s": build_s, **query_figures(passes)}
    print(f"  {size}: slowest query {slowest_query(passes)!r}")
    return {key: round(value, 3) for key, value in figures.items()}


def main() -> int:
    columns = [
        ("build s", "search_build_s"),
        ("p50 ms", "search_p50_ms"),
        ("p95 ms", "search_p95_ms"),
        ("(max)", "search_p95_ms_max"),
        ("worst ms", "search_max_ms"),
    ]
    return run("BENCH_SEARCH_SIZES", "10000,100000", measure, columns)


if __name__ == "__main__":
    raise SystemExit(main())

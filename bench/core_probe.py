"""`python -m bench.core_probe ROOT`: search and write timings through the core, no UI.

The curator loads the tree and builds its search index as the app does; the 20 queries of
bench/search.py are timed; then every index is regenerated once (a kept tree has them) and critical
is toggled TOGGLES times on one short-term memory, each timed until `apply` returns, by when the
file and every index it feeds are written. Prints one JSON object.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from samantha_tui.core.basics import clock
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from .search import query_figures, slowest_query, time_queries

TOGGLES = 6


def main(root: str) -> dict[str, object]:
    """Search figures, the index build, and each toggle's milliseconds for the tree at root."""
    curator = Curator(Store(Path(root), clock.today), auto_index=True)
    curator.load()
    start = time.perf_counter()
    index = curator.build_search()
    build_s = time.perf_counter() - start
    passes = time_queries(index)
    curator.reindex()
    path = next(m.path for m in curator.tree.memories if m.kind is Kind.SHORT_TERM)
    writes = []
    for _ in range(TOGGLES):
        memory = curator.get(path)
        assert memory is not None, path
        start = time.perf_counter()
        outcome = curator.apply(edits.toggle_critical(memory))
        writes.append((time.perf_counter() - start) * 1000)
        assert outcome.index_error is None and outcome.indexes, outcome
    return {
        "search_build_s": build_s,
        **query_figures(passes),
        "slowest_query": slowest_query(passes),
        "writes_ms": writes,
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))

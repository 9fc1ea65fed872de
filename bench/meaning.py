"""`python -m bench.meaning [N]`: memories compared by meaning on a generated tree of N (10,000).

In one process: the tree is generated (bench/generate.py) and scanned with a scratch cache; the
model is loaded; every comparable memory is embedded with an empty vector cache (`embed_s`, goal
≤ 1 s at 10,000), then again from the catalog (`embed_warm_s`); the duplicate and conflict pass
over them (`pairs_s`, goal ≤ 2 s). The reference, in the same process: numpy's own blocked
product of the same matrix with itself (`reference_product_s`, the same 512-row blocks the pass
takes, with nothing judged), and the ratios of both figures to it. Then the labelled set's
precision and recall (tests/unit/meaning_labelled.py), and the long set's (`long_*`,
tests/unit/meaning_labelled_long.py). Each timing is the median of RUNS.
Prints one JSON line; `make bench` records it under `meaning` in results.json.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

RUNS = 3
SIZE = 10000


def measure(size: int = SIZE) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SAMANTHA_TUI_CACHE"] = str(Path(tmp) / "cache")
        return _measure(size, Path(tmp))


def _measure(size: int, workdir: Path) -> dict[str, float]:
    from .generate import generate
    from .realistic import generate_realistic

    figures = _corpus(generate(workdir / "tree", size, dt.date.today()), with_labelled=True)
    realistic = workdir / "realistic"
    generate_realistic(realistic, size, dt.date.today())
    figures.update(
        {f"realistic_{k}": v for k, v in _corpus(realistic, with_labelled=False).items()}
    )
    return figures


def _cosines(matrix: object) -> tuple[float, float, float]:
    """Median, 95th and 99th percentile of the pairwise cosines (of the first 2,000 rows)."""
    import numpy as np

    rows = np.asarray(matrix)[:2000]
    cosines = (rows @ rows.T)[np.triu_indices(len(rows), 1)]
    median, high, top = np.percentile(cosines, [50, 95, 99])
    return float(median), float(high), float(top)


def _corpus(root: Path, with_labelled: bool) -> dict[str, float]:
    import numpy as np

    from samantha_tui.core.views.meaning import CONFLICT, DUPLICATE, pairs
    from samantha_tui.core.views.meaning.model import Engine, load_engine
    from samantha_tui.core.views.meaning.pairs import comparable, similar_pairs
    from samantha_tui.core.views.meaning.vectors import MemoryVectors, vectors_for
    from samantha_tui.core.writing.store import Store
    from tests.unit import meaning_labelled_long
    from tests.unit.meaning_labelled import scores, verdicts

    from .realistic import planted

    store = Store(root, dt.date.today)
    store.scan()
    start = time.perf_counter()
    engine = load_engine()
    load_s = time.perf_counter() - start
    assert isinstance(engine, Engine), engine
    chosen = comparable(store.tree.memories)
    embed, warm, judged, product = [], [], [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        vectors = vectors_for(chosen, engine, MemoryVectors())
        embed.append(time.perf_counter() - start)
    vectors_for(chosen, engine, store.catalog())
    for _ in range(RUNS):
        start = time.perf_counter()
        kept = vectors_for(chosen, engine, store.catalog())
        warm.append(time.perf_counter() - start)
        assert kept.embedded == 0
    matrix = vectors.matrix
    for _ in range(RUNS):
        start = time.perf_counter()
        for at in range(0, len(matrix), pairs.BLOCK):
            np.asarray(matrix[at : at + pairs.BLOCK] @ matrix.T).max()
        product.append(time.perf_counter() - start)
        start = time.perf_counter()
        found = similar_pairs(chosen, vectors)
        judged.append(time.perf_counter() - start)
    reference = statistics.median(product)
    figures = {
        "memories": float(len(chosen)),
        "load_s": load_s,
        "embed_s": statistics.median(embed),
        "embed_warm_s": statistics.median(warm),
        "pairs_s": statistics.median(judged),
        "reference_product_s": reference,
        "duplicates": float(sum(p.verdict == DUPLICATE for p in found)),
        "conflicts": float(sum(p.verdict == CONFLICT for p in found)),
    }
    median, high, top = _cosines(vectors.matrix)
    figures.update({"cosine_median": median, "cosine_p95": high, "cosine_p99": top})
    names = {frozenset(Path(p).name for p in (q.first, q.second)): q.verdict for q in found}
    for kind, verdict in (("paraphrase", DUPLICATE), ("contradiction", CONFLICT)):
        plants = planted(root)[kind]
        figures[f"planted_{kind}s"] = float(len(plants))
        figures[f"planted_{kind}s_found"] = float(sum(names.get(p) == verdict for p in plants))
    figures["embed_reference_ratio"] = figures["embed_s"] / reference
    figures["pairs_reference_ratio"] = figures["pairs_s"] / reference
    store.close()
    if with_labelled:
        figures.update(scores(verdicts(engine)))
        long_set = scores(verdicts(engine, meaning_labelled_long.GROUPS))
        figures.update({f"long_{name}": value for name, value in long_set.items()})
    return {key: round(value, 4) for key, value in figures.items()}


def describe(figures: dict[str, float]) -> str:
    return (
        f"meaning at {figures['memories']:.0f}: embed {figures['embed_s']:.3f} s (goal ≤ 1), "
        f"from the catalog {figures['embed_warm_s']:.3f} s, pairs {figures['pairs_s']:.3f} s "
        f"(goal ≤ 2; {figures['duplicates']:.0f} duplicates, {figures['conflicts']:.0f} "
        f"conflicts); numpy's blocked product {figures['reference_product_s']:.3f} s "
        f"(embed ×{figures['embed_reference_ratio']:.1f}, pairs "
        f"×{figures['pairs_reference_ratio']:.1f}); labelled set: duplicates "
        f"{figures['duplicate_precision']:.2f} precision / {figures['duplicate_recall']:.2f} "
        f"recall, conflicts {figures['conflict_precision']:.2f} / "
        f"{figures['conflict_recall']:.2f}; long set: duplicates "
        f"{figures['long_duplicate_precision']:.2f} / {figures['long_duplicate_recall']:.2f}, "
        f"conflicts {figures['long_conflict_precision']:.2f} / "
        f"{figures['long_conflict_recall']:.2f}; realistic tree: embed "
        f"{figures['realistic_embed_s']:.3f} s, pairs {figures['realistic_pairs_s']:.3f} s "
        f"(reference {figures['realistic_reference_product_s']:.3f} s; "
        f"{figures['realistic_duplicates']:.0f} duplicates, "
        f"{figures['realistic_conflicts']:.0f} conflicts; planted found: "
        f"{figures['realistic_planted_paraphrases_found']:.0f}/"
        f"{figures['realistic_planted_paraphrases']:.0f} paraphrases, "
        f"{figures['realistic_planted_contradictions_found']:.0f}/"
        f"{figures['realistic_planted_contradictions']:.0f} contradictions; cosines median "
        f"{figures['realistic_cosine_median']:.2f}, p95 {figures['realistic_cosine_p95']:.2f}, "
        f"p99 {figures['realistic_cosine_p99']:.2f})"
    )


def main() -> int:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else SIZE
    figures = measure(size)
    print(describe(figures), file=sys.stderr)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""bench/results.json: every benchmark merges its figures in, keeping the other benchmarks' keys."""

from __future__ import annotations

import json
import os
import platform
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

PATH = Path(__file__).parent / "results.json"


def run(
    sizes_variable: str,
    default_sizes: str,
    measure: Callable[[int, Path], dict[str, float]],
    columns: Sequence[tuple[str, str]],
    report: Callable[[dict[str, dict[str, float]]], str] | None = None,
) -> int:
    """Measure each size (from the environment variable, or the defaults) in a scratch folder,
    print a table of the (title, figure key) columns (then what report makes of the figures, if
    given), and record the figures."""
    sizes = [int(s) for s in os.environ.get(sizes_variable, default_sizes).split(",")]
    measured: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            measured[str(size)] = measure(size, Path(tmp))
    print(f"{'memories':>10}" + "".join(f" {title:>9}" for title, _ in columns))
    for size, figures in measured.items():
        print(f"{size:>10}" + "".join(f" {cell(figures.get(key)):>9}" for _, key in columns))
    if report is not None:
        print(report(measured))
    record(measured)
    return 0


def cell(value: float | None) -> str:
    """A figure in a table column: three decimals, or a dash for one not taken at that size."""
    return "—" if value is None else f"{value:.3f}"


def record(measured: dict[str, dict[str, float]]) -> None:
    """Merge {size: {figure: value}} into results.json, with this machine's description."""
    results = json.loads(PATH.read_text()) if PATH.exists() else {}
    results["machine"] = {"cores": os.cpu_count(), "python": platform.python_version()}
    sizes = results.setdefault("sizes", {})
    for size, figures in measured.items():
        sizes.setdefault(size, {}).update(figures)
    PATH.write_text(json.dumps(results, indent=2) + "\n")


def record_extra(key: str, figures: object) -> None:
    """Set one top-level entry of results.json (figures not taken per size), keeping the rest."""
    results = json.loads(PATH.read_text()) if PATH.exists() else {}
    results[key] = figures
    PATH.write_text(json.dumps(results, indent=2) + "\n")

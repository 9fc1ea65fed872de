"""bench/results.json: every benchmark merges its figures in, keeping the other benchmarks' keys."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path

PATH = Path(__file__).parent / "results.json"


def record(measured: dict[str, dict[str, float]]) -> None:
    """Merge {size: {figure: value}} into results.json, with this machine's description."""
    results = json.loads(PATH.read_text()) if PATH.exists() else {}
    results["machine"] = {"cores": os.cpu_count(), "python": platform.python_version()}
    sizes = results.setdefault("sizes", {})
    for size, figures in measured.items():
        sizes.setdefault(size, {}).update(figures)
    PATH.write_text(json.dumps(results, indent=2) + "\n")

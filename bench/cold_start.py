"""`python -m bench.cold_start`: what importing the app and the CLI costs in a fresh interpreter.

Each step runs `python -X importtime -c STATEMENT` in a new process RUNS times (after one run that
leaves the bytecode caches written): the interpreter's own report gives every module's self and
cumulative microseconds. Kept per step: the summed self time of every module (the whole import
cost), the process's wall time, how many modules were imported and whether Textual was, each as
the median with the worst beside it, and the TOP modules by self time in the median run.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

RUNS = 5
TOP = 10
STEPS = (
    ("interpreter", "pass"),
    ("cli", "import samantha_tui.cli"),
    ("app", "import samantha_tui.ui.app"),
)
"""(name, statement): the bare interpreter first, as the floor the others stand on."""

PROBE = '{statement}\nimport sys\nprint(len(sys.modules), "textual" in sys.modules)'
LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)\s*$")


@dataclass(frozen=True)
class ImportLine:
    """One module in an importtime report: its own microseconds, with what it imported, depth."""

    module: str
    self_us: int
    cumulative_us: int
    depth: int


def parse_importtime(report: str) -> list[ImportLine]:
    """The module lines of `-X importtime` output (its header and any other lines skipped)."""
    lines = []
    for text in report.splitlines():
        match = LINE.match(text)
        if match:
            own, total, indent, module = match.groups()
            lines.append(ImportLine(module, int(own), int(total), len(indent) // 2))
    return lines


def summarise(lines: list[ImportLine], top: int = TOP) -> dict[str, object]:
    """Total import milliseconds (every module's self time summed) and the `top` dearest modules."""
    dearest = sorted(lines, key=lambda line: line.self_us, reverse=True)[:top]
    return {
        "import_ms": sum(line.self_us for line in lines) / 1000,
        "top": [
            {
                "module": line.module,
                "self_ms": line.self_us / 1000,
                "cumulative_ms": line.cumulative_us / 1000,
            }
            for line in dearest
        ],
    }


def _once(statement: str) -> dict[str, object]:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", PROBE.format(statement=statement)],
        capture_output=True,
        text=True,
        check=True,
    )
    wall_ms = (time.perf_counter() - start) * 1000
    modules, textual = out.stdout.split()
    return {
        **summarise(parse_importtime(out.stderr)),
        "wall_ms": wall_ms,
        "modules": int(modules),
        "textual": textual == "True",
    }


def measure(runs: int = RUNS) -> dict[str, dict[str, object]]:
    """Each step's figures: medians of `runs` fresh processes, worsts as `..._max`."""
    figures: dict[str, dict[str, object]] = {}
    for name, statement in STEPS:
        _once(statement)  # writes any missing bytecode, which a person's second start never pays
        taken = sorted((_once(statement) for _ in range(runs)), key=lambda r: r["import_ms"])
        middle = taken[len(taken) // 2]
        figures[name] = {
            "import_ms": round(statistics.median(r["import_ms"] for r in taken), 1),
            "import_ms_max": round(max(r["import_ms"] for r in taken), 1),
            "wall_ms": round(statistics.median(r["wall_ms"] for r in taken), 1),
            "wall_ms_max": round(max(r["wall_ms"] for r in taken), 1),
            "modules": middle["modules"],
            "textual": middle["textual"],
            "top": [
                {
                    key: round(value, 1) if isinstance(value, float) else value
                    for key, value in entry.items()
                }
                for entry in middle["top"]
            ],
        }
    return figures


def describe(figures: dict[str, dict[str, object]]) -> str:
    """A few lines for the terminal: each step's totals and its three dearest modules."""
    out = []
    for name, step in figures.items():
        dearest = ", ".join(f"{e['module']} {e['self_ms']}" for e in step["top"][:3])
        out.append(
            f"  import {name}: {step['import_ms']} ms of imports (worst {step['import_ms_max']}),"
            f" {step['wall_ms']} ms wall, {step['modules']} modules,"
            f" textual {'yes' if step['textual'] else 'no'}; dearest (ms): {dearest}"
        )
    return "\n".join(out)


def main() -> int:
    from .results import record_extra

    figures = measure()
    print(describe(figures))
    record_extra("cold_start", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The catalog work's targets: ratios to a reference measured in the same run, and a few figures.

`ratios` derives the ratio figures from a size's measured ones; `report` prints every target's
figure beside it, size by size.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass

RATIOS: dict[str, tuple[str, str]] = {
    "startup_floor_ratio": ("startup_pty_s", "floor_pty_s"),
    "startup_cold_floor_ratio": ("startup_pty_cold_s", "floor_pty_s"),
    "startup_harlequin_ratio": ("startup_pty_s", "harlequin_pty_s"),
    "search_grep_fzf_ratio": ("search_cli_s", "grep_fzf_s"),
    "search_samantha_llm_speedup": ("samantha_llm_search_s", "search_cli_s"),
    "meaning_rss_ratio": ("rss_mb", "rss_meaning_off_mb"),
    "meaning_scroll_ratio": ("scroll_s", "scroll_meaning_off_s"),
    "meaning_stall_ratio": ("pgdn_stall_ms", "pgdn_stall_meaning_off_ms"),
}
"""ratio key: (numerator, denominator), both medians of the same run."""


@dataclass(frozen=True)
class Target:
    """A figure's aim at one size: at most (or at least) `value`."""

    title: str
    key: str
    size: int
    value: float
    at_least: bool = False

    @property
    def sign(self) -> str:
        return "≥" if self.at_least else "≤"

    def met(self, figure: float) -> bool:
        compare: Callable[[float, float], bool] = operator.ge if self.at_least else operator.le
        return compare(figure, self.value)


STARTUP = "start-up / floor, warm"
TARGETS = (
    Target(STARTUP, "startup_floor_ratio", 1000, 1.5),
    Target(STARTUP, "startup_floor_ratio", 10000, 1.5),
    Target(STARTUP, "startup_floor_ratio", 100000, 2.0),
    Target("start-up / floor, no catalog", "startup_cold_floor_ratio", 10000, 3.0),
    *(
        Target("start-up / Harlequin's", "startup_harlequin_ratio", size, 0.5)
        for size in (1000, 10000, 100000)
    ),
    *(
        Target("search / grep|fzf", "search_grep_fzf_ratio", size, 1.5)
        for size in (1000, 10000, 100000)
    ),
    *(
        Target("samantha-llm / search", "search_samantha_llm_speedup", size, 5.0, at_least=True)
        for size in (1000, 10000, 100000)
    ),
    Target("search process (s)", "search_cli_s", 100000, 0.4),
    Target("in-app search p95 (ms)", "search_p95_ms", 10000, 5.0),
    Target("in-app search p95 (ms)", "search_p95_ms", 100000, 30.0),
    Target("`c` to disk (ms)", "write_ms", 10000, 20.0),
    Target("`c` to disk (ms)", "write_ms", 100000, 60.0),
    Target("peak RSS (MB)", "rss_mb", 10000, 120.0),
    Target("peak RSS (MB)", "rss_mb", 100000, 500.0),
    *(
        Target("held PgDn, longest stall (ms)", "pgdn_stall_ms", size, 50.0)
        for size in (10000, 100000)
    ),
    *(
        Target("peak RSS, meaning on / off", "meaning_rss_ratio", size, 1.2)
        for size in (1000, 10000, 100000)
    ),
    *(
        Target("scrolling, meaning on / off", "meaning_scroll_ratio", size, 1.1)
        for size in (1000, 10000, 100000)
    ),
    *(
        Target("held PgDn stall, meaning on / off", "meaning_stall_ratio", size, 1.1)
        for size in (1000, 10000, 100000)
    ),
)


def ratios(figures: Mapping[str, float]) -> dict[str, float]:
    """Every ratio of RATIOS whose two figures were taken (and the denominator is not 0)."""
    out = {}
    for key, (numerator, denominator) in RATIOS.items():
        if figures.get(numerator) is not None and figures.get(denominator):
            out[key] = round(figures[numerator] / figures[denominator], 3)
    return out


def _cell(figure: float | None, target: Target | None) -> str:
    if figure is None:
        return "—"
    shown = f"{figure:.3g}" if figure < 100 else f"{figure:.0f}"
    if target is None:
        return shown
    return f"{shown} ({target.sign}{target.value:g} {'met' if target.met(figure) else 'NOT met'})"


def report(measured: Mapping[str, Mapping[str, float]]) -> str:
    """A table: one row per targeted figure, one column per measured size, each figure with its
    target at that size and whether it is met (a dash where the figure was not taken)."""
    sizes = list(measured)
    rows: dict[tuple[str, str], dict[int, Target]] = {}
    for target in TARGETS:
        rows.setdefault((target.title, target.key), {})[target.size] = target
    width = max(len(title) for title, _ in rows) + 2
    lines = [f"{'target':<{width}}" + "".join(f"{int(size):>26,}" for size in sizes)]
    for (title, key), by_size in rows.items():
        cells = [_cell(measured[size].get(key), by_size.get(int(size))) for size in sizes]
        lines.append(f"{title:<{width}}" + "".join(f"{cell:>26}" for cell in cells))
    return "\n".join(lines)

"""The stats screen in the real app: the demo's numbers, live after a change, an undo and
regenerating; "checking…" until the drift is known; fitting 120x34 and scrolling at 80x24."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from rich.style import Style
from rich.text import Text

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.stats import DriftSummary, MonthCount
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.stats import BarRow, Bars, StatsScreen, bar_lines, hbar, month_chart

from ..conftest import ST, TODAY, make_tree, memory_text
from ..pilot import settle, until
from ..waiting import drawn

NOT_CRITICAL = f"{ST}/2026-05-18_jwt_clock_skew_leeway.md"
"""A demo memory that is not critical yet."""


async def open_stats(pilot) -> StatsScreen:
    await settle(pilot)
    screen = StatsScreen()
    pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


def shown(screen: StatsScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


def test_bars_are_scaled_in_eighths_and_line_up() -> None:
    assert hbar(8, 8, 10) == "█" * 10
    assert hbar(3, 8, 10) == "███▊"  # 3.75 cells
    assert hbar(1, 1000, 10) == "▏", "a count is never drawn as nothing"
    assert hbar(0, 8, 10) == ""
    rows = [BarRow(Text("[bold]x[/]"), 4), BarRow(Text("long-label"), 2), BarRow(Text("z"), 0)]
    lines = bar_lines(rows, 30, Style()).plain.split("\n")
    assert lines == [
        "[bold]x[/] █████████████████ 4",
        "long-label ████████▌         2",
        "z                            0",
    ]


def test_month_chart_puts_counts_on_bars_and_names_under_them() -> None:
    months = [MonthCount(TODAY.replace(month=m, day=1), c) for m, c in ((4, 0), (5, 2), (6, 4))]
    lines = [line.rstrip() for line in month_chart(months, 15, 6, Style()).plain.split("\n")]
    assert lines == [
        "            4",
        "       2   ███",
        "      ▄▄▄  ███",
        "  0   ███  ███",
        " Apr  May  Jun",
        " 2026",
    ]


async def test_the_demo_numbers_and_following_changes(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_stats(pilot)
        numbers = screen.numbers
        assert numbers is not None
        assert (numbers.critical, numbers.critical_verdict) == (4, "too few")
        critical = shown(screen, "#stats-critical")
        assert "4 critical" in critical and "too few" in critical and "advised 5-10" in critical
        assert "Mark 1 more rule as critical." in critical
        kinds = screen.query_one("#stats-kinds", Bars)
        assert [(row.label.plain, row.count) for row in kinds.rows] == [
            ("Short-term", 53),
            ("Long-term", 10),
            ("Tasks", 2),
            ("Work experience", 1),
            ("Procedural", 3),
        ]
        assert "69 in the last 12 months" in shown(screen, "#stats-month-note")
        assert "13 prune candidates" in shown(screen, "#stats-curation")
        assert "14 promotion candidates" in shown(screen, "#stats-curation")
        drift = shown(screen, "#stats-drift")
        assert "5 indexes to update" in drift
        assert "13 not listed yet · 13 listed with no file · 61 said differently" in drift
        assert "drifted" not in drift and "disagreeing" not in drift
        assert screen.query_one("#stats-topics").border_title == "Top topics"
        assert screen.query_one("#stats-body").max_scroll_y == 0, "fits 120x34 unscrolled"

        # Live: a change, its undo, and regenerating the indexes from this screen.
        app.toggle_critical_of(NOT_CRITICAL)
        await settle(pilot)
        assert screen.numbers.critical == 5
        assert "ok" in shown(screen, "#stats-critical")
        await pilot.press("u")
        await settle(pilot)
        assert screen.numbers.critical == 4
        await pilot.press("r")  # the plan first, then the writes
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert screen.numbers.drift == DriftSummary((), 0, 0, 0, 0)
        assert "every index matches" in shown(screen, "#stats-drift")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


async def test_checking_until_the_drift_is_known(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    release = threading.Event()
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        drift = app.curator.drift

        def slow_drift(paths=None):
            release.wait(60)  # the test releases it; generous for a loaded machine
            return drift(paths)

        app.curator.drift = slow_drift
        screen = StatsScreen()
        app.push_screen(screen)
        assert await until(pilot, lambda: screen.numbers is not None)
        await drawn(pilot)  # not settled: the drift check is held until released below
        assert shown(screen, "#stats-drift") == "checking…"
        assert "4 critical" in shown(screen, "#stats-critical")
        release.set()
        await settle(pilot)
        assert screen.numbers.drift is not None
        assert "to update" in shown(screen, "#stats-drift")


async def test_scrolls_at_80x24_and_shows_user_text_literally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_tree(
        tmp_path / "cerebrum",
        {
            f"{ST}/a.md": memory_text(
                date="2026-06-01", topics="['[bold]x[/]', ci]", project="'[/]'"
            )
        },
    )
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(pilot)
        assert screen.has_class("-narrow")
        assert screen.query_one("#stats-body").max_scroll_y > 0
        topics = screen.query_one("#stats-topics", Bars)
        assert [row.label.plain for row in topics.rows] == ["[bold]x[/]", "ci"]
        assert "[bold]x[/]" in str(topics.render())
        assert "[/]" in str(screen.query_one("#stats-projects", Bars).render())
        assert dict(screen.numbers.per_kind)[Kind.SHORT_TERM] == 1

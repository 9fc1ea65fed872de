"""`i` opens the drift report as a panel that stays until closed; `r` there plans the rewrite."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from textual.containers import VerticalScroll
from textual.widgets import Static

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.drift import DriftScreen

from ..conftest import TODAY
from ..pilot import reindexed, settle


def report_shown(app: SamanthaApp) -> str:
    console = Console(width=300, record=True, file=io.StringIO())
    console.print(app.screen.query_one("#drift-report", Static).content)
    return console.export_text()


async def test_i_opens_a_panel_that_stays_until_escape(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, DriftScreen)
        shown = report_shown(app)
        assert app.index_report is not None
        # Every line of the report, not the first dozen: the panel scrolls instead.
        for line in app.index_report.lines():
            assert line.strip() in shown
        assert len(app.index_report.lines()) > 12
        box = app.screen.query_one("#drift-box", VerticalScroll)
        assert box.max_scroll_y > 0
        await pilot.pause(1.0)
        assert isinstance(app.screen, DriftScreen)  # no timeout takes it away
        await pilot.press("i")  # again where it is: still one panel
        await pilot.pause()
        assert sum(isinstance(s, DriftScreen) for s in app.screen_stack) == 1
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DriftScreen)
        assert len(app.screen_stack) == 1


async def test_r_in_the_panel_shows_the_plan_and_writes_only_when_agreed(demo_root: Path) -> None:
    index = demo_root / ".ai/short-term-memory/.ai/index.json"
    before = index.read_bytes()
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert not any(isinstance(s, DriftScreen) for s in app.screen_stack)
        assert index.read_bytes() == before
        await pilot.press("y")
        await settle(pilot)
        assert index.read_bytes() != before
        assert app.index_report is not None and not app.index_report.drifted


async def test_the_panel_follows_a_new_check(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert "needs updating" in report_shown(app)
        reindexed(demo_root)
        app.check_indexes()
        await settle(pilot)
        assert isinstance(app.screen, DriftScreen)
        assert "needs updating" not in report_shown(app)
        assert "up to date" in report_shown(app)


async def test_no_drift_is_a_short_notice_not_a_panel(demo_root: Path) -> None:
    reindexed(demo_root)
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert not isinstance(app.screen, DriftScreen)
        assert any("Every index file matches" in n.message for n in app._notifications)


INTERNAL = (
    "by its file",
    "no list now",
    "stats.",
    "recent.",
    "_importance",
    "(counts)",
    "disagrees",
)
"""Our own words for the index's insides, which a person reading the panel never needs."""


async def test_the_panel_speaks_plainly_and_exactly(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        shown = " ".join(report_shown(app).split())
        summary = app.screen.query_one("#drift-summary", Static).content
        assert str(summary) == "5 indexes need updating to match the memory files."
        assert not [words for words in INTERNAL if words in shown]
        short_term = "Short-term index (.ai/short-term-memory/.ai/index.json): needs updating"
        for line in (
            short_term,
            "the index counts 45 memories; the tree now holds 53",
            "the index counts 14 low-importance memories; the tree now holds 13",
            # Every type that differs, not the first three.
            "the index counts 26 memories of type session-analysis; the tree now holds 28",
            "2026-06-14_sliding_window_lua.md: not in the index yet; it belongs under recent"
            " high-importance",
            "2026-02-24_terraform_state_lock_stuck.md: listed under older in the index, where it"
            " no longer belongs",
            "2026-03-29_use_jwt_leeway.md: the index gives no importance; the file gives high",
            "2026-03-29_use_jwt_leeway.md: listed under recent high-importance in the index; it"
            " now belongs under older",
            "infra-notes: listed under active with no file of its own; kept",
        ):
            assert line in shown, line

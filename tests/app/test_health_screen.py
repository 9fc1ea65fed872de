"""The health report in the app: its score in the status line, `H` opening the review on its
Health section, and `f` taking a finding to its fix."""

from __future__ import annotations

from pathlib import Path

from samantha_tui.core.views import health_findings as h
from samantha_tui.core.views import lifecycle
from samantha_tui.core.views.meaning.analysis import TURNED_OFF
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.review import HEALTH, ReviewScreen

from ..conftest import TODAY
from ..pilot import settle, until


async def test_the_score_shows_and_h_then_f_goes_from_a_finding_to_its_fix(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    # Wide enough for the whole line: on a narrower one the score gives way before the root,
    # and the tree's root is a long temporary path here.
    async with app.run_test(size=(260, 36)) as pilot:
        await settle(pilot)
        report = app.health_report
        assert report is not None and report.findings, "the demo has something to fix"
        assert f"health {report.score} (H)" in str(app.status_line.render())
        assert report.semantic.line() == f"semantic checks: off ({TURNED_OFF})"
        await pilot.press("H")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.section.rule == HEALTH
        table = screen.table()
        assert len(table.rows) == len(report.findings)
        assert f"{report.score}/100" in str(screen.query_one("#review-about").render())
        # A stale memory: `f` goes to the prune section, on its row.
        stale = next(i for i, f in enumerate(report.findings) if f.check == h.STALE)
        assert table.select_key(f"finding:{stale}")
        await pilot.press("f")
        await settle(pilot)
        assert screen.section.rule == lifecycle.PRUNE
        assert screen.table().selected_key == report.findings[stale].paths[0]
        assert screen.table().marked_keys == [], "going there marks nothing"


async def test_f_on_a_memory_without_topics_opens_its_form_on_topics(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(140, 36)) as pilot:
        await settle(pilot)
        report = app.health_report
        assert report is not None
        missing = next(i for i, f in enumerate(report.findings) if f.check == h.NO_TOPICS)
        await pilot.press("H")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert screen.table().select_key(f"finding:{missing}")
        await pilot.press("f")
        assert await until(pilot, lambda: isinstance(app.screen, MemoryForm))
        form = app.screen
        assert isinstance(form, MemoryForm)
        assert form.memory is not None and form.memory.path == report.findings[missing].paths[0]
        assert app.focused is not None and "topics" in (app.focused.id or "")

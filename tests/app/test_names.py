"""Memories under the worker's `Session Analysis - DATE` heading (or any heading the tree shares)
are named by their own line wherever the app names them: the list, the jump palette, the
Related line, the `/` search. The files keep their headings."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from samantha_tui.core.views.meaning import Related
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.related_line import related_line
from samantha_tui.ui.rows import MATCH_STYLE

from ..conftest import LT, ST, TODAY, make_tree
from ..pilot import settle, until

DAY = "2026-11-30"


def session(overview: str | None, decisions: tuple[str, ...] = (), sid: str = "101500") -> str:
    """A memory in the layout samantha-llm's worker writes, all of one day and importance."""
    lines = [
        "---",
        f"date: {DAY}",
        "topics: [billing, cron]",
        "importance: medium",
        "type: session-analysis",
        "project: billing",
        "reference_count: 0",
        f"session_id: 20261130_{sid}",
        "duration_minutes: 42",
        "---",
        "",
        f"# Session Analysis - {DAY}",
        "",
    ]
    if overview is not None:
        lines += ["## Overview", "", overview, ""]
    if decisions:
        lines += ["## Key Decisions", "", *(f"- {d}" for d in decisions), ""]
    lines += ["## Key Learnings", "", "- The scheduler reads local time", ""]
    lines += [
        "## Session Metadata",
        "",
        "- **Workspace**: /home/pat/billing",
        "- **Duration**: 42 minutes",
        f"- **Session ID**: 20261130_{sid}",
        "",
    ]
    return "\n".join(lines)


SESSIONS = {
    f"{ST}/{DAY}_billing_cron.md": session("Moved the billing cron to UTC. Tests pass.", (), "1"),
    f"{ST}/{DAY}_invoice_fonts.md": session("Fixed the invoice PDF fonts on Alpine.", (), "2"),
    f"{ST}/{DAY}_retry_budget.md": session("Gave the gateway retries a budget of three.", (), "3"),
    f"{ST}/{DAY}_pin_weasyprint.md": session(None, ("Pin weasyprint below 61",), "4"),
    f"{ST}/{DAY}_ledger_export.md": session(None, (), "5"),
    f"{ST}/{DAY}_queue_names.md": session("Renamed the queues after their owners.", (), "6"),
}
WANTED = {
    f"{ST}/{DAY}_billing_cron.md": "Moved the billing cron to UTC",
    f"{ST}/{DAY}_invoice_fonts.md": "Fixed the invoice PDF fonts on Alpine",
    f"{ST}/{DAY}_retry_budget.md": "Gave the gateway retries a budget of three",
    f"{ST}/{DAY}_pin_weasyprint.md": "Pin weasyprint below 61",
    f"{ST}/{DAY}_ledger_export.md": "ledger export",
    f"{ST}/{DAY}_queue_names.md": "Renamed the queues after their owners",
}
SHARED_A = f"{LT}/billing/notes.md"
SHARED_B = f"{LT}/gateway/notes.md"


def shared(body: str) -> str:
    return f"---\ndate: 2026-01-01\ntopics: [notes]\n---\n\n# Notes\n\n{body}\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path / "tree",
        {
            **SESSIONS,
            SHARED_A: shared("Invoices are numbered per year."),
            SHARED_B: shared("Retries back off exponentially."),
        },
    )


def drawn_rows(app: SamanthaApp) -> list[str]:
    """Each row of the list as painted (header left out)."""
    table = app.table
    return [table.render_line(y).text.rstrip() for y in range(1, len(table.rows) + 1)]


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_every_short_term_row_reads_apart(root: Path, size: tuple[int, int]) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        keys = [row.key for row in app.table.rows]
        assert sorted(keys) == sorted(SESSIONS)
        titles = {row.key: row.cells[1].plain for row in app.table.rows}
        for path, line in WANTED.items():
            assert titles[path] == f"Session: {line}"
        # Date, importance and refs are the same in every row: only the title cell tells
        # them apart, as painted at this size.
        painted = drawn_rows(app)
        assert len(set(painted)) == len(painted), painted
        assert all("Session: " in row for row in painted)
        assert all("Session Analysis" not in row for row in painted)
        # The files keep their headings.
        assert all(
            f"# Session Analysis - {DAY}" in (root / p).read_text(encoding="utf-8")
            for p in SESSIONS
        )


async def test_a_shared_heading_is_named_with_its_line(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("2")  # Long-term
        await settle(pilot)
        titles = sorted(row.cells[1].plain for row in app.table.rows)
        assert titles == [
            "Notes: Invoices are numbered per year",
            "Notes: Retries back off exponentially",
        ]


def palette_lines(app: SamanthaApp) -> list[str]:
    commands = app.screen.query_one(CommandList)
    return [str(commands.get_option_at_index(i).hit.text) for i in range(commands.option_count)]


async def test_the_jump_palette_names_sessions_by_line_and_date(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+k")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        listed = palette_lines(app)
        for line in WANTED.values():
            assert f"Session {DAY}: {line}" in listed
        app.screen.query_one(Input).value = "weasyprint"
        await settle(pilot)
        assert await until(
            pilot, lambda: palette_lines(app)[:1] == [f"Session {DAY}: Pin weasyprint below 61"]
        )


async def test_the_related_line_names_sessions_by_line_and_date(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        found = (
            Related(f"{ST}/{DAY}_billing_cron.md", 0.9),
            Related(f"{ST}/{DAY}_invoice_fonts.md", 0.8),
            Related(SHARED_A, 0.7),
        )
        line = related_line(app, found)
        assert line is not None
        assert line.plain == (
            f"Related (m): Session {DAY}: Moved the billing cron to UTC · "
            f"Session {DAY}: Fixed the invoice PDF fonts on Alpine · "
            "Notes: Invoices are numbered per year"
        )


async def test_the_list_search_finds_and_marks_the_line(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"fonts")
        await settle(pilot)
        keys = [row.key for row in app.table.rows]
        assert keys == [f"{ST}/{DAY}_invoice_fonts.md"]
        title = app.table.rows[0].cells[1]
        assert title.plain == "Session: Fixed the invoice PDF fonts on Alpine"
        marked = [title.plain[s.start : s.end] for s in title.spans if s.style == MATCH_STYLE]
        assert marked == ["fonts"]

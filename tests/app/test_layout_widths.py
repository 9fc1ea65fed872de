"""The main screen from 80x24 to 240x70, and after live resizes: the title gets the room, all
seven tabs show, the status line and the footer fit, and their most important parts stay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.text import Text

from samantha_tui.ui import layout
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.rows import CRITICAL_COLUMNS, MEMORY_COLUMNS, PROBLEM_COLUMNS
from samantha_tui.ui.tabs import TAB_PADDING, TABS, fit_labels
from samantha_tui.ui.widgets.fitted_footer import FooterItem, fit_items
from samantha_tui.ui.widgets.memory_table import TITLE_ROOM, Column, lay_out
from samantha_tui.ui.widgets.status_line import fit

from ..conftest import TODAY
from ..pilot import settle
from .test_small_terminals import paint

SIZES = [(80, 24), (120, 36), (200, 60), (240, 70)]


def title_width(app: SamanthaApp) -> int:
    placed = app.table.laid_out()
    return next(p.width for p in placed if p.column.width is None)


def tab_labels(app: SamanthaApp) -> list[str]:
    return [str(tab.label) for tab in app.query("CountedTab")]


def assert_fits(app: SamanthaApp) -> None:
    """Every tab on screen, the status line whole, and help and quit in the footer."""
    width = app.size.width
    lines = paint(app)
    assert all(len(line) == width for line in lines)
    tabs = app.query_one("#tabs")
    for tab in app.query("CountedTab"):
        assert tab.region.right <= width, f"{tab.label} is cut at {width} columns"
        assert tab.region.width > 0
    assert lines[0].split() and len(tab_labels(app)) == 7 and tabs.region.width == width
    status = app.status_line
    shown = status.render().plain
    assert cell_len(shown) <= status.content_size.width, "the status line is cut"
    assert "indexes" in shown and "problem" in shown and not shown.endswith("…")
    footer = lines[-1]
    assert "? Keys" in footer and "q Quit" in footer, footer


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_each_size_lays_out_the_title_tabs_status_and_footer(
    demo_root: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    # A long home-relative root, as real trees have, so the status line must give way.
    monkeypatch.setenv("HOME", str(demo_root.parent.parent))
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for tab in "167":  # dated notes, critical (every kind), problems
            await pilot.press(tab)
            await settle(pilot)
            assert title_width(app) >= TITLE_ROOM, f"tab {tab} at {size}"
            assert_fits(app)
        assert app.screen.has_class("-stacked") is layout.stacked(size[0])


async def test_a_live_resize_relayouts_every_part(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        wide = tab_labels(app)
        assert wide[3].startswith("Work experience")
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        narrow = tab_labels(app)
        assert narrow[3].startswith("Done") and narrow[6].startswith("Problems")
        assert app.screen.has_class("-stacked")
        assert title_width(app) >= TITLE_ROOM
        assert_fits(app)
        await pilot.resize_terminal(240, 70)
        await settle(pilot)
        assert tab_labels(app) == wide
        assert not app.screen.has_class("-stacked")
        assert_fits(app)
        # Back down with a screen open: the main screen is laid out for the size it comes back to.
        await pilot.press("p")
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert "? Keys" in paint(app)[-1] and "q Quit" in paint(app)[-1]
        await pilot.press("escape")
        await settle(pilot)
        assert tab_labels(app) == narrow
        assert_fits(app)


def test_tab_labels_shorten_only_as_far_as_they_must() -> None:
    counts = {spec.id: "12" for spec in TABS}

    def width(labels: dict[str, str]) -> int:
        return sum(len(label) + TAB_PADDING for label in labels.values())

    full = fit_labels(200, counts)
    assert full["work-experience"] == "Work experience 12"
    short = fit_labels(width(full) - 1, counts)
    assert short["work-experience"] == "Done 12" and short["tasks"] == "Tasks 12"
    tiny = fit_labels(width(short) - 1, counts)
    assert tiny["short-term"] == "ST 12" and width(tiny) < width(short)
    assert fit_labels(10, counts) == tiny, "nothing fits: the tiny ones"


def test_columns_give_way_to_the_title_in_order() -> None:
    def shown(columns: tuple[Column, ...], width: int) -> list[str]:
        return [f"{p.column.title}:{p.width}" for p in lay_out(columns, width)]

    assert shown(MEMORY_COLUMNS, 120) == [":2", "Title:90", "Date:10", "Importance:10", "Refs:4"]
    # Importance first becomes its letter, then the counts go, then the letter, then the date.
    assert shown(MEMORY_COLUMNS, 70) == [":2", "Title:40", "Date:10", "Importance:10", "Refs:4"]
    assert shown(MEMORY_COLUMNS, 60) == [":2", "Title:37", "Date:10", "Imp:3", "Refs:4"]
    assert shown(MEMORY_COLUMNS, 55) == [":2", "Title:37", "Date:10", "Imp:3"]
    assert [p.column.title for p in lay_out(MEMORY_COLUMNS, 45)] == ["", "Title"]
    # Each placed column shows its own cell: the letter is the row's sixth cell.
    assert [p.cell for p in lay_out(MEMORY_COLUMNS, 60)] == [0, 1, 2, 5, 4]
    assert [p.column.title for p in lay_out(CRITICAL_COLUMNS, 64)] == [
        "",
        "Title",
        "Kind",
        "Date",
        "Refs",
    ]
    assert lay_out(CRITICAL_COLUMNS, 64)[2].width == 8
    assert lay_out(PROBLEM_COLUMNS, 70)[1].width == 22


def test_the_status_line_gives_way_by_importance() -> None:
    forms = {
        "root": [
            Text("~/src/work/samantha-llm"),
            Text("…/work/samantha-llm"),
            Text("…/samantha-llm"),
        ],
        "index": [Text("5 indexes to update (r)"), Text("update indexes (r)")],
        "memories": [Text("420 memories"), Text()],
        "problems": [Text("3 problems to fix"), Text("3 problems"), Text()],
        "pending": [Text("0 pending updates"), Text("0 pending"), Text()],
        "merge": [Text("1 session awaiting merge"), Text("1 to merge"), Text()],
    }
    whole = fit(forms, None).plain
    assert whole.startswith("~/src/work/samantha-llm  ·  5 indexes to update (r)")
    at_122 = fit(forms, 122).plain
    assert len(at_122) <= 122 and "0 pending" not in at_122, "nothing pending: it goes first"
    assert "1 session awaiting merge" in at_122, "nothing shortened that need not be"
    at_110 = fit(forms, 110).plain
    assert "1 to merge" in at_110 and "420 memories" in at_110 and "  ·  " in at_110
    at_78 = fit(forms, 78).plain
    assert len(at_78) <= 78
    assert "5 indexes to update (r)" in at_78 and "3 problems to fix" in at_78
    assert "memories" not in at_78
    assert len(fit(forms, 20).plain) <= 20


def test_the_footer_keeps_help_and_quit_however_narrow() -> None:
    items = [
        FooterItem("/", "Search"),
        FooterItem("e", "Edit fields"),
        FooterItem("b", "Bootstrap preview"),
        FooterItem("?", "Keys", kept=True),
        FooterItem("q", "Quit", kept=True),
    ]
    assert fit_items(items, 200) == ([0, 1, 2, 3, 4], False)
    shown, compact = fit_items(items, 40)
    assert compact and shown == [0, 1, 3, 4]
    assert fit_items(items, 5) == ([3, 4], True)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_demo_opens_on_work_to_do_not_alarms(
    demo_root: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """The status line says what there is to do and its key, calmly: no drift, no score out of
    100 in red, no problems in bold red."""
    monkeypatch.setenv("HOME", str(demo_root.parent))  # `~/demo`, as `samantha-tui demo` makes
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.pause()
        shown = app.status_line.render()
        assert "5 indexes to update (r)" in shown.plain
        assert "3 problems to fix" in shown.plain
        assert "drift" not in shown.plain and "/100" not in shown.plain
        if size[0] >= 120:
            assert re.search(r"health \d+ \(H\)", shown.plain), shown.plain
        styles = {str(span.style) for span in shown.spans}
        assert not [style for style in styles if "red" in style], styles

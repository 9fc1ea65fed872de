"""The confirmation of a reviewed batch says what it does to the bootstrap: side by side on a wide
terminal, stacked at 80x24, worked out without holding a key."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.containers import VerticalScroll
from textual.widgets import Button, Static

from samantha_tui.core.views import lifecycle
from samantha_tui.core.views.bootstrap import Tier
from samantha_tui.core.views.bootstrap_change import bootstrap_change
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.batch_confirm import BatchConfirmScreen, render_change, summary
from samantha_tui.ui.screens.review import ReviewScreen

from ..conftest import ST, TODAY
from ..pilot import reindexed, settle, until


@pytest.fixture
def root(demo_root: Path) -> Path:
    return reindexed(demo_root)


def plain(widget: Static, width: int) -> str:
    console = Console(width=width, file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


def expected(root: Path):
    """What the core says the demo's whole promotion does to the bootstrap."""
    store = Store(root, lambda: TODAY)
    store.scan()
    plan = lifecycle.promote(store.tree, TODAY).plan()
    return bootstrap_change(store.tree, plan, TODAY, budget=8000)


@pytest.mark.parametrize("size", [(140, 40), (80, 24)])
async def test_the_batch_confirmation_shows_the_bootstrap_change(
    root: Path, size: tuple[int, int]
) -> None:
    change = expected(root)
    assert change.stops and change.critical
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.push_screen(ReviewScreen())
        await settle(pilot)
        await pilot.press("right", "a", "enter")  # every promotion
        assert await until(pilot, lambda: isinstance(app.screen, BatchConfirmScreen))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, BatchConfirmScreen)
        panel = dialog.query_one("#batch-bootstrap", Static)
        text = plain(panel, size[0])
        assert summary(change) in text
        first = change.stops[0]
        critical = change.critical[0]
        flowing = " ".join(text.split())  # lines wrapped at the dialog's width, joined
        # The demo's critical rules are promoted and load as critical from their new paths:
        # nothing changes for them at start-up, so no row says "critical → critical".
        assert (critical.before, critical.after) == (Tier.CRITICAL, Tier.CRITICAL)
        assert critical.title[:20] not in flowing
        assert "critical → critical" not in flowing and "Critical memories" not in flowing
        if size[0] >= 110:
            assert "Loads now" in text and "After the batch" in text
            line = next(row for row in text.splitlines() if first.title[:30] in row)
            assert line.count(first.title[:30]) == 2, "before and after side by side"
            assert "frequent" in text and "demand" in text
        else:
            assert "Stop loading" in text and "Loads now" not in text
            line = next(row for row in text.splitlines() if first.title[:30] in row)
            assert line.count(first.title[:30]) == 1, "stacked, one side at a time"
            assert "frequent → project (new path)" in flowing, "a move to another tier stays"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)


def test_a_batch_that_changes_nothing_says_so_on_a_line_of_its_own(root: Path) -> None:
    store = Store(root, lambda: TODAY)
    store.scan()
    proposal = lifecycle.prune(store.tree)
    # The current project's low-importance worker sessions load with it: pruning them changes
    # the start-up. The other candidates belong to no project or another one and never load.
    everything = bootstrap_change(store.tree, proposal.plan(), TODAY, budget=8000)
    assert {stop.path for stop in everything.stops} == {
        f"{ST}/2026-04-27_extract_config_renderer.md",
        f"{ST}/2026-04-30_work_stalled_about.md",
        f"{ST}/2026-05-14_agreed_to_keep.md",
    }
    project = {m.path: m.project for m in store.tree.memories}
    quiet = [c.path for c in proposal.candidates if project[c.path] != "api-gateway-refactor"]
    unchanged = bootstrap_change(store.tree, proposal.plan(quiet), TODAY, budget=8000)
    assert not unchanged, "the demo's pruned memories of other projects never load"
    console = Console(width=100, file=io.StringIO(), record=True)
    console.print(render_change(unchanged, wide=True))
    lines = console.export_text().splitlines()
    assert lines[1] == "The same files load at start-up."
    assert "\\n" not in lines[0]


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (200, 60)])
async def test_a_long_batch_scrolls_between_its_title_and_its_buttons(
    root: Path, size: tuple[int, int]
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.push_screen(ReviewScreen())
        await settle(pilot)
        await pilot.press("a", "right", "a", "right", "a", "enter")  # prune, promote, escalate
        assert await until(pilot, lambda: isinstance(app.screen, BatchConfirmScreen))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, BatchConfirmScreen)
        box = dialog.query_one(".dialog-box").region
        screen = dialog.region
        assert screen.contains_region(box), "the dialog fits on the screen"
        inside = box.shrink(dialog.query_one(".dialog-box").styles.gutter)
        for button in dialog.query(Button).results(Button):
            assert inside.contains_region(button.region), f"{button.id} is in view"
        body = dialog.query_one(".dialog-lines", VerticalScroll)
        assert inside.contains_region(body.region)
        if body.max_scroll_y:
            await pilot.press("pagedown")
            assert body.scroll_y > 0, "PgDn scrolls the plan, the buttons stay"
            assert dialog.focused is dialog.query_one("#cancel", Button)
        await pilot.press("tab")
        await pilot.press("tab")
        for button in dialog.query(Button).results(Button):
            assert inside.contains_region(button.region)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)

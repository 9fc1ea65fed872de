"""Pilot tests of one search across every tab: counts on the labels, the query kept, Esc."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Tab

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.search import SearchIndex
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.main import NO_MATCH_CLASS
from samantha_tui.ui.tabs import TABS

from ..conftest import TODAY
from ..pilot import settle
from .test_key_mashing import mash


def label(app: SamanthaApp, tab_id: str) -> str:
    return app.query_one(f"#{tab_id}", Tab).label_text


def count_on(app: SamanthaApp, tab_id: str) -> int:
    return int(label(app, tab_id).rsplit(" ", 1)[1])


def dimmed(app: SamanthaApp) -> set[str]:
    return {spec.id for spec in TABS if app.query_one(f"#{spec.id}", Tab).has_class(NO_MATCH_CLASS)}


def expected_counts(app: SamanthaApp, query: str) -> dict[str, int]:
    """The counts as the core gives them, split by kind, independently of the app."""
    tree = app.memory_tree
    index = SearchIndex.build(tree.memories, TODAY)
    matched = {hit.path for hit in index.search(query).hits}
    counts = {
        spec.id: sum(m.kind is spec.kind for m in tree.memories if m.path in matched)
        for spec in TABS
        if spec.kind is not None
    }
    counts["critical"] = sum(m.critical for m in tree.memories if m.path in matched)
    counts["problems"] = sum(p.path in matched for p in tree.all_problems)
    return counts


async def test_every_tab_label_shows_its_count_and_tabs_without_a_match_are_dimmed(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        totals = {spec.id: count_on(app, spec.id) for spec in TABS}
        await pilot.press("slash", *"gateway")
        await settle(pilot)
        counts = {spec.id: count_on(app, spec.id) for spec in TABS}
        expected = expected_counts(app, "gateway")
        assert counts == expected
        # The demo has gateway memories in several kinds, one critical, and problems among them.
        assert counts["long-term"] > 0 and counts["critical"] == 1 and counts["problems"] > 0
        assert counts != totals
        assert dimmed(app) == {tab for tab, n in counts.items() if n == 0} != set()
        # The current tab's box says the same count, of that tab's total.
        assert str(app.query_one("#search-count").render()).startswith(
            f"{counts['short-term']} of {totals['short-term']}"
        )


async def test_the_query_stays_across_tabs_and_their_results_show_at_once(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"gateway", "enter")
        await settle(pilot)
        runs = app._search_run
        long_count = count_on(app, "long-term")
        await pilot.press("2")
        await pilot.pause()
        # Ranked while typing paused: listed without another search.
        assert app._search_run == runs
        assert app.search_bar.display and app.search_bar.input.value == "gateway"
        shown = [app.curator.get(row.key) for row in app.table.rows]
        assert len(shown) == long_count > 0
        assert all(m.kind is Kind.LONG_TERM for m in shown)
        assert app.table.selected_key == shown[0].path  # on the best match of this tab

        await pilot.press("6")  # Critical: only the critical memories that match
        await pilot.pause()
        shown = [app.curator.get(row.key) for row in app.table.rows]
        assert len(shown) == 1 and shown[0].critical

        await pilot.press("7")  # Problems: the problems of the memories that match
        await pilot.pause()
        tree = app.memory_tree
        assert 0 < len(app.table.rows) < len(tree.all_problems)
        matched = {
            hit.path for hit in SearchIndex.build(tree.memories, TODAY).search("gateway").hits
        }
        assert all(row.key.split("#", 1)[0] in matched for row in app.table.rows)


async def test_a_tab_with_no_match_says_where_the_matches_are_and_stays(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("2", "slash", *"runbook")
        await settle(pilot)
        assert app.query_one("#tabs").active == "long-term"  # never switched on its own
        assert len(app.table.rows) == 0
        counts = expected_counts(app, "runbook")
        assert counts["long-term"] == 0 and counts["procedural"] > 0
        assert app.table.empty_message == (
            f"No match here; {counts['short-term']} in Short-term (1),"
            f" {counts['procedural']} in Procedural (5)."
        )


async def test_esc_clears_the_search_on_every_tab(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        totals = {spec.id: count_on(app, spec.id) for spec in TABS}
        await pilot.press("slash", *"gateway", "enter", "2", "slash", "escape")
        await settle(pilot)
        assert not app.search_bar.display
        assert {spec.id: count_on(app, spec.id) for spec in TABS} == totals
        assert dimmed(app) == set()
        assert len(app.table.rows) == totals["long-term"]
        await pilot.press("1")
        await pilot.pause()
        assert len(app.table.rows) == totals["short-term"]


async def test_a_typo_typed_as_one_burst_finds_the_memory(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"rety", "enter")
        await settle(pilot)
        found = [app.curator.get(row.key) for row in app.table.rows]
        # The two retry-budget memories, and the worker's session whose topic is
        # inline_retry_budget (a session analysis's title names only its date).
        assert sum("Retry" in memory.title for memory in found) == 2
        assert all("retry" in f"{m.title} {' '.join(m.topics)}".lower() for m in found)
        assert count_on(app, "short-term") == len(found)


async def test_enter_on_a_query_that_cannot_be_read_keeps_the_keys_after_it_moving(
    demo_root: Path,
) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await mash(pilot, [*"/age:abc"])
        await settle(pilot)
        assert "age takes a number of days" in str(app.query_one("#search-error").render())
        await mash(pilot, ["enter", "3"])  # as a terminal sends them: nothing awaited between
        await pilot.pause()
        assert not app.holding_keys, "keys wait for results that never come"
        assert app.query_one("#tabs").active == "tasks"

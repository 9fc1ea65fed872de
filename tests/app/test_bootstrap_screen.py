"""The bootstrap preview screen on the demo tree, and the plan's Markdown export.

Pilot tests drive the real app with the screen pushed on top, then look at what it shows, at the
files on disk and at the indexes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static
from textual.widgets._select import SelectCurrent

from samantha_tui.core.views.bootstrap import BootstrapPlan, Signals, Tier, plan
from samantha_tui.core.views.bootstrap_markdown import code, escape, render
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.bootstrap_rows import BudgetLine, Heading
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.export import ExportScreen

from ..conftest import LT, ST, TASKS, TEST_SETTINGS, TODAY
from ..pilot import index_check, reindexed, settle

SIZE = (120, 34)
LOADER = f"{ST}/2026-04-22_gateway_config_loader.md"
PYTHON_TESTING = ".ai/procedural-memory/.ai/python-testing.md"
BILLING = f"{TASKS}/billing-export/status.md"
SECTIONS = [
    "Critical",
    "Frequently referenced",
    "Current project",
    "Recent high importance",
    "Runbooks",
    "Long-term, on demand",
    "Near misses",
    "Notes",
]


@pytest.fixture
def root(demo_root: Path) -> Path:
    """The demo with its indexes regenerated, so any drift afterwards is the screen's doing."""
    return reindexed(demo_root)


async def open_screen(pilot) -> BootstrapScreen:
    await settle(pilot)
    screen = BootstrapScreen()
    await pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


def row_texts(screen: BootstrapScreen, key: str) -> list[str]:
    table = screen.table
    index = [row.key for row in table.rows].index(key)
    return [cell.plain for cell in table.rows[index].cells]


def headings(screen: BootstrapScreen) -> list[str]:
    return [entry.title for entry in screen._entries if isinstance(entry, Heading)]


# --- the screen ----------------------------------------------------------------------------------


async def test_sections_in_load_order_with_reasons_and_sizes(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert headings(screen) == SECTIONS
        expected = plan(app.curator.tree, Signals(), TODAY, 8000)
        assert screen.result == expected
        keys = [row.key for row in screen.table.rows]
        # Items follow their headings in load order, each with its reason, size and running total.
        assert [k for k in keys if not k.startswith("#")][: len(expected.items)] == [
            item.path for item in expected.items
        ]
        assert row_texts(screen, LOADER)[2:] == ["referenced 6 times", "301", "1,377"]
        status = f"{TASKS}/api-gateway-refactor/status.md"
        # Under the project's heading (the budget line names it), its status file's reason
        # says the rest; the side panel says it whole.
        assert row_texts(screen, status)[2:] == [
            "the only active project with a folder",
            "369",
            "2,010",
        ]
        assert row_texts(screen, "#heading:Critical")[1:4] == [
            "CRITICAL",
            "4 files",
            "1,076",
        ]
        near = row_texts(screen, BILLING)
        assert near[2] == "project billing-export is blocked, not active"
        # Two active projects; infra-notes lives in the index only, so the one with a folder is
        # current: its memories load too (15 of them session analyses), and more
        # than the budget holds.
        assert "8,916 / 8,000 tokens · 27 files · 916 over, runs out at item 24" in str(
            screen.query_one("#bootstrap-budget", Static).render()
        )
        # The first memory is selected and previewed with why it loads.
        assert screen.table.selected_key == expected.items[0].path
        why = str(screen.query_one("#bootstrap-why", Static).render())
        assert why.startswith("Loads 1st of 27 · Critical (every session)\ncritical\n")
        # Keys that act on a memory do nothing on a heading.
        screen.table.select_key("#heading:Critical")
        await pilot.press("c", "plus")
        await settle(pilot)
        assert not app.curator.can_undo
        assert [n.message for n in app._notifications][-1] == "Select a memory first"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, BootstrapScreen)


async def test_choosing_a_project_changes_the_plan(root: Path) -> None:
    billing = root / BILLING
    billing.write_bytes(billing.read_bytes().replace(b"status: blocked", b"status: active"))
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        # The assistant reads the active projects from index.json, which names two; infra-notes
        # lives in the index only, so the one with a folder is current until one is chosen.
        # billing-export's status.md says active, and that is marked, not loaded.
        assert screen.result.project == "api-gateway-refactor"
        assert BILLING not in [i.path for i in screen.result.items]
        (miss,) = [m for m in screen.result.near_misses if m.path == BILLING]
        assert miss.disagreements[0].startswith(
            "its status.md says active, but index.json's active list does not name it"
        )
        assert row_texts(screen, BILLING)[0] == "≠"
        select = screen.query_one("#bootstrap-project", Select)
        assert [value for _, value in select._options][1:] == [
            "api-gateway-refactor",
            "billing-export",
            "infra-notes",
        ]
        select.value = "billing-export"
        await settle(pilot)
        assert screen.result.project == "billing-export"
        project = [i for i in screen.result.items if i.tier is Tier.PROJECT]
        assert project[0].path == BILLING
        assert project[0].reason == "project billing-export is current (chosen)"
        assert project[0].disagreements == miss.disagreements
        # The memories the index lists under its name, by importance, then newest first (the
        # one whose frontmatter cannot be read last, as the index lists it all the same).
        assert [i.path for i in project] == [
            BILLING,
            f"{ST}/2026-05-10_reject_finance_report.md",
            f"{ST}/2026-05-06_parallelize_ledger_rows.md",
            f"{ST}/2026-04-29_billing_export_csv_encoding.md",
            f"{ST}/2026-05-05_log_export_schedule.md",
            f"{ST}/2026-03-29_document_csv_writer.md",
            f"{ST}/2026-06-04_billing_export_finance_escalation.md",
            f"{TASKS}/api-gateway-refactor/status.md",
            f"{TASKS}/infra-notes/status.md",
        ]
        # Its older memories `recent` dropped are near misses, each marked with why.
        for name in ("01-18_replace_currency_rounding", "02-09_decided_to_version"):
            (old,) = [m for m in screen.result.near_misses if m.path == f"{ST}/2026-{name}.md"]
            assert old.disagreements[0].startswith("in no index list (")
            assert old.disagreements[0].endswith("the assistant does not load it")
            assert row_texts(screen, old.path)[0] == "≠"
        bar = str(screen.query_one("#bootstrap-budget", Static).render())
        assert bar.endswith(" · project billing-export")


def picker_text(screen: BootstrapScreen) -> str:
    """What the project picker shows, as drawn."""
    select = screen.query_one("#bootstrap-project", Select)
    return str(select.query_one(SelectCurrent).query_one("#label", Static).render())


async def test_the_picker_shows_the_project_the_plan_uses(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        # Nothing chosen: the plan takes the one project with a folder, and the picker says so.
        assert screen.result.project == "api-gateway-refactor"
        assert picker_text(screen) == "api-gateway-refactor (auto)"
        select = screen.query_one("#bootstrap-project", Select)
        assert select.value is Select.NULL, "the automatic choice is not a choice made"
        # Choosing another changes the plan and the picker.
        select.value = "infra-notes"
        await settle(pilot)
        assert screen.result.project == "infra-notes"
        assert picker_text(screen) == "infra-notes"
        # Back to no choice: the automatic one again.
        select.clear()
        await settle(pilot)
        assert screen.result.project == "api-gateway-refactor"
        assert picker_text(screen) == "api-gateway-refactor (auto)"


async def test_the_picker_with_several_projects_and_none_chosen(root: Path) -> None:
    billing = root / BILLING
    billing.write_bytes(billing.read_bytes().replace(b"status: blocked", b"status: active"))
    (root / ".ai/current-tasks/.ai/index.json").unlink()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert screen.result.project is None
        assert picker_text(screen) == "none chosen"


async def test_the_repo_field_offers_no_demo_data(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert screen.query_one("#bootstrap-repo", Input).placeholder == "owner/name"


def drawn(app: SamanthaApp) -> list[str]:
    """The screen's lines of text as the terminal shows them."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def why_width(screen: BootstrapScreen) -> int:
    return next(p.width for p in screen.table.laid_out() if p.column.title == "Why")


async def test_why_shows_at_80x24_and_grows_with_the_terminal(root: Path) -> None:
    status = f"{TASKS}/api-gateway-refactor/status.md"
    note = "the only active project with a folder"
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot)
        # Narrow: the side panel goes under the list, and the list keeps its Why column.
        assert screen.has_class("-stacked")
        header = next(line for line in drawn(app) if line.strip().startswith("Title"))
        assert header.split()[:2] == ["Title", "Why"]
        assert any("referenced 6 times" in line for line in drawn(app))
        # The title keeps its share: a note longer than Why's room is cut there, and said whole
        # in the side panel when its row is selected.
        narrow = why_width(screen)
        assert 10 <= narrow < len(note)
        assert screen.table.select_key(status)
        await settle(pilot)
        (row,) = [line for line in drawn(app) if "Project: API Gateway" in line and "2,010" in line]
        assert note not in row and note[: narrow - 1] + "…" in row
        why = str(screen.query_one("#bootstrap-why", Static).render())
        assert f"project api-gateway-refactor is {note}" in why

        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        # Wide: Why is as wide as its longest note, so no note is cut.
        assert not screen.has_class("-stacked")
        notes = [row.cells[2].plain for row in screen.table.rows if row.span is None]
        assert why_width(screen) == max(len(n) for n in notes) > 22
        assert any(f" {note} " in line for line in drawn(app))
        # A line under a row (where index and file disagree) runs on across the empty columns.
        assert any(
            "≠ in index.json's active list with no folder in current tasks: the assistant knows"
            in line
            for line in drawn(app)
        )
        # Back to 80 columns: Why gives the width back.
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert why_width(screen) == narrow


async def test_a_keyword_makes_a_runbook_load(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert PYTHON_TESTING not in [i.path for i in screen.result.items]
        screen.query_one("#bootstrap-keywords", Input).focus()
        await pilot.press(*"pytest python")
        await settle(pilot)
        runbooks = [i for i in screen.result.items if i.tier is Tier.RUNBOOK]
        assert [(i.path, i.reason) for i in runbooks] == [
            (PYTHON_TESTING, "runbook: keyword + domain signals matched")
        ]
        assert row_texts(screen, "#heading:Runbooks")[2] == "1 file"
        # A negative signal in the paths vetoes it again, and it shows among the near misses.
        paths = screen.query_one("#bootstrap-paths", Input)
        paths.focus()
        paths.value = "src/app.py, tests/e2e/login.spec.ts"
        await pilot.press("enter")
        await settle(pilot)
        assert PYTHON_TESTING not in [i.path for i in screen.result.items]
        assert "negative signal 'tests/e2e/'" in row_texts(screen, PYTHON_TESTING)[2]
        assert screen.focused is screen.table, "enter leaves the field for the list"


async def test_c_marks_critical_on_disk_and_the_item_moves(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (root / LOADER).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert screen.table.select_key(LOADER)
        await pilot.press("c")
        await settle(pilot)
        after = (root / LOADER).read_bytes()
        assert after != before and b"\ncritical: true\n" in after.split(b"\n---", 1)[0] + b"\n"
        tiers = {i.path: i.tier for i in screen.result.items}
        assert tiers[LOADER] is Tier.CRITICAL
        keys = [row.key for row in screen.table.rows]
        assert (
            keys.index("#heading:Critical")
            < keys.index(LOADER)
            < keys.index("#heading:Frequently referenced")
        )
        assert screen.table.selected_key == LOADER, "the selection follows the memory"
        assert index_check(root, capsys) == 0
        await pilot.press("u")
        await settle(pilot)
        assert (root / LOADER).read_bytes() == before
        assert {i.path: i.tier for i in screen.result.items}[LOADER] is Tier.FREQUENT


async def test_export_saves_markdown_and_asks_before_replacing(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    target = out / "bootstrap-plan.md"
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        markdown = render(screen.result, 8000, screen._named())
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        assert app.screen.query_one("#export-name", Input).value == "bootstrap-plan.md"
        await pilot.press("enter")
        await settle(pilot)
        assert target.read_text(encoding="utf-8") == markdown
        assert [p.name for p in out.iterdir()] == ["bootstrap-plan.md"], "no temporary file left"

        target.write_text("mine\n", encoding="utf-8")
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert target.read_text(encoding="utf-8") == "mine\n", "refused without a yes"

        await pilot.press("x")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert target.read_text(encoding="utf-8") == markdown

        await pilot.press("x")
        await pilot.pause()
        await pilot.click("#copy")
        await settle(pilot)
        assert app.clipboard == markdown
        assert isinstance(app.screen, BootstrapScreen)

        await pilot.press("x")
        await pilot.pause()
        app.screen.query_one("#export-name", Input).value = "nowhere/plan.md"
        await pilot.press("enter")
        await settle(pilot)
        assert not (out / "nowhere").exists()
        assert "cannot write" in list(app._notifications)[-1].message


async def test_the_budget_comes_from_the_settings_file(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(TEST_SETTINGS + "[bootstrap]\nbudget = 500\n", encoding="utf-8")
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_screen(pilot)
        assert screen.result.budget == 500
        bar = str(screen.query_one("#bootstrap-budget", Static).render())
        assert "8,916 / 500 tokens · 27 files · 8,416 over, runs out at item 2" in bar
        assert bar.startswith("Budget " + "█" * 16)
        keys = [row.key for row in screen.table.rows]
        first, second = screen.result.items[0].path, screen.result.items[1].path
        # The budget line sits between the last item that fits and the first that does not.
        assert keys.index(first) + 1 == keys.index("#budgetline:2") == keys.index(second) - 1
        assert isinstance(screen._entries[keys.index("#budgetline:2")], BudgetLine)
        assert row_texts(screen, first)[0] == ""
        assert row_texts(screen, second)[0] == "✗"


# --- render --------------------------------------------------------------------------------------


def small_plan(tree, budget: int | None) -> BootstrapPlan:
    store = tree(
        {
            f"{ST}/2026-06-01_rule.md": (
                "---\ndate: 2026-06-01\ntopics: [git]\ncritical: true\n---\n\n# Rule [bold]|*x*\n"
            ),
            f"{ST}/2026-06-10_hot.md": (
                "---\ndate: 2026-06-10\ntopics: [ci]\nimportance: high\n---\n\n# Hot\n"
            ),
            f"{LT}/deep.md": "---\ndate: 2026-01-01\ntopics: [arch]\n---\n\n# Deep\n",
        }
    )
    return plan(store.tree, Signals(), TODAY, budget)


def test_render_a_plan_within_its_budget(tree) -> None:
    result = small_plan(tree, 1000)
    rule, hot = result.items
    assert render(result, 1000) == (
        "# Bootstrap plan\n"
        "\n"
        "**Current project:** none  \n"
        f"**Loads at start:** 2 files, {result.total_tokens} tokens of a 1,000-token budget "
        f"({1000 - result.total_tokens} to spare).  \n"
        "Runbooks load when signals of at least 2 categories match; a matching negative signal "
        "vetoes.\n"
        "\n"
        "## 1. Critical (every session)\n"
        "\n"
        "| # | File | Title | Why it loads | Tokens | Total |\n"
        "|--:|------|-------|--------------|-------:|------:|\n"
        f"| 1 | `short-term/2026-06-01_rule.md` | Rule \\[bold\\]\\|\\*x\\* | critical "
        f"| {rule.tokens} | {rule.tokens} |\n"
        "\n"
        "## 2. Frequently referenced\n\nNone.\n\n"
        "## 3. Current project\n\nNone.\n\n"
        "## 4. Recent high importance\n"
        "\n"
        "| # | File | Title | Why it loads | Tokens | Total |\n"
        "|--:|------|-------|--------------|-------:|------:|\n"
        f"| 2 | `short-term/2026-06-10_hot.md` | Hot | high importance, 5 days old "
        f"| {hot.tokens} | {hot.running_tokens} |\n"
        "\n"
        "## 5. Runbooks\n\nNone.\n\n"
        "## 6. Long-term, on demand (not loaded at start)\n"
        "\n"
        f"1 memories, {result.on_demand[0].tokens} tokens in all, read when a session needs them.\n"
        "\n"
        "| File | Title | Tokens |\n"
        "|------|-------|-------:|\n"
        f"| `long-term/deep.md` | Deep | {result.on_demand[0].tokens} |\n"
        "\n"
        "## Near misses (not loaded)\n\nNone.\n\n"
        "## Where the plan comes from\n"
        "\n"
        "- no index.json for short-term: the assistant falls back to index.md / the files; shown "
        "from the files\n"
        "- no index.json for long-term: the assistant falls back to index.md / the files; shown "
        "from the files\n"
        "- no index.json for current-tasks: the assistant falls back to index.md / the files; "
        "shown from the files\n"
        "- no index.json for procedural: the assistant's bootstrap skips runbooks without it; "
        "shown from the runbook files\n"
        "\n"
        "## Notes\n\n- no active project in current tasks\n"
    )


def test_render_marks_items_past_the_budget(tree) -> None:
    result = small_plan(tree, None)
    rule = result.items[0]
    text = render(result, rule.tokens)
    assert f"against a {rule.tokens}-token budget: " in text
    assert "the budget runs out at item 2." in text
    assert f"| {rule.tokens} | {rule.tokens} |\n" in text, "the item at the budget fits"
    assert f"| {result.items[1].running_tokens} (over budget) |" in text


def test_render_without_a_budget(tree) -> None:
    result = small_plan(tree, None)
    text = render(result, None)
    assert f"**Loads at start:** 2 files, {result.total_tokens} tokens.  \n" in text
    assert "budget" not in text


def test_escape_and_code_keep_user_text_literal() -> None:
    assert escape("a [link](x) *b* _c_ <d> `e` | f\nnext") == (
        "a \\[link\\](x) \\*b\\* \\_c\\_ \\<d\\> \\`e\\` \\| f next"
    )
    assert code("plain.md") == "`plain.md`"
    assert code("a`b.md") == "``a`b.md``"
    assert code("`x") == "`` `x ``"
    assert code("a|b.md") == "`a\\|b.md`"


# --- snapshot ------------------------------------------------------------------------------------

"""Pilot tests of the browser: tabs, selection, the preview, empty states and literal markup."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual.widgets import Static, Tabs

from samantha_tui.core.basics.model import Kind
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.widgets.markdown_body import MarkdownBody

from ..conftest import TODAY, make_tree
from ..pilot import settle


def plain(renderable: object, width: int = 200) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def static_text(app: SamanthaApp, selector: str) -> str:
    return plain(app.query_one(selector, Static).content)


async def test_number_keys_switch_tabs_and_keep_each_tabs_selection(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        tabs = app.query_one(Tabs)
        assert tabs.active == "short-term"
        first = app.table.selected_key
        await pilot.press("j", "j")
        second_pick = app.table.selected_key
        assert second_pick != first and app.table.cursor == 2
        await pilot.press("2")
        assert tabs.active == "long-term"
        assert all(app.store.get(r.key).kind is Kind.LONG_TERM for r in app.table.rows)
        await pilot.press("1")
        assert app.table.selected_key == second_pick
        for key, tab in zip(
            "34567", ["tasks", "work-experience", "procedural", "critical", "problems"], strict=True
        ):
            await pilot.press(key)
            assert tabs.active == tab
            assert app.table.rows, f"tab {tab} is empty on the demo"


async def test_tab_labels_carry_counts(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        labels = [str(tab.label) for tab in app.query_one(Tabs).query("Tab")]
        critical = len(app.memory_tree.critical)
        assert f"Critical {critical}" in labels
        assert "Problems 4" in labels  # 3 errors and the warning on a line YAML refuses


async def test_preview_follows_the_cursor(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("down")
        memory = app.store.get(app.table.selected_key)
        head = static_text(app, "#preview-head")
        assert memory.title in head and memory.path in head
        fields = static_text(app, "#preview-fields")
        assert "importance" in fields or "topics" in fields
        assert app.query_one("#preview-body", MarkdownBody).display


async def test_editing_a_memorys_fields_keeps_its_body_laid_out(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        body = app.query_one("#preview-body", MarkdownBody)
        before, drawn = app.preview.shown, body.content
        assert before is not None and before.body.strip() and body.source
        await pilot.press("c")
        await settle(pilot)
        after = app.preview.shown
        assert after is not None and after is not before and after.path == before.path
        assert after.critical is not before.critical and after.body == before.body
        assert body.content is drawn, "the same body was drawn again"
        assert body.display
        await pilot.press("down")
        await settle(pilot)
        assert app.preview.shown is not after
        assert body.content is not drawn, "another memory's body is drawn anew"


async def test_problems_tab_lists_each_problem_with_its_file(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("7")
        assert len(app.table.rows) == 4
        memory = app.store.get(app.table.selected_key.split("#")[0])
        assert memory.problems
        assert memory.problems[0].message.split(";")[0] in static_text(app, "#preview-fields")


async def test_markup_in_titles_shows_literally(tmp_path: Path) -> None:
    body = (
        "---\ndate: 2026-06-01\ntopics: ['[red]x[/]']\n---\n"
        "# [bold]oops[/] and [/]\n\n[@click=app.quit]y[/]\n"
    )
    root = make_tree(tmp_path / "t", {".ai/short-term-memory/.ai/2026-06-01_m.md": body})
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        row = app.table.rows[0]
        assert row.cells[1].plain == "[bold]oops[/] and [/]"
        assert "[bold]oops[/] and [/]" in static_text(app, "#preview-head")
        assert "[red]x[/]" in static_text(app, "#preview-fields")
        await pilot.click("#preview-body")
        assert app.is_running


async def test_empty_tree_explains_itself(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "empty", {})
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert len(app.table.rows) == 0
        assert "no memories yet" in app.table.empty_message
        assert "samantha-tui demo" in static_text(app, "#preview-fields")
        await pilot.press("7")
        assert app.table.empty_message.startswith("No problems")


async def test_question_mark_lists_every_binding_and_escape_closes(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(plain(s.content) for s in app.screen.query(Static))
        for description in ("Short-term", "Problems", "Reload", "Quit"):
            assert description in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("q")
    assert app.return_code == 0


def test_rows_are_text_objects() -> None:
    from samantha_tui.core.basics.model import Memory
    from samantha_tui.ui.rows import memory_row

    row = memory_row(Memory(kind=Kind.SHORT_TERM, path="p.md", title="[b]x"))
    assert all(isinstance(cell, Text) for cell in row.cells)

"""In the real app: the title edited in the form, `f` on a problem (the plan first), redo, and
the trash emptied and restored as a copy. Each checks the files on disk afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from samantha_tui.core.writing import edits, trash
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.trash import TrashScreen

from ..conftest import ST, TODAY, make_tree
from ..pilot import ALPHA, BETA, index_check, memory, reindexed, settle

QUOTED = f"{ST}/2026-06-08_quoted.md"
QUOTED_TEXT = '---\ndate: "2026-06-08"\ntopics: [ci]\n---\n\n# Quoted date\n'
NO_TOPICS = f"{ST}/2026-06-07_no_topics.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    files = {
        ALPHA: memory("Alpha rule", "importance: medium\n"),
        BETA: memory("Beta note"),
        QUOTED: QUOTED_TEXT,
        NO_TOPICS: "---\ndate: 2026-06-07\n---\n\n# No topics\n",
    }
    return reindexed(make_tree(tmp_path / "cerebrum", files))


def notices(app: SamanthaApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


async def select_problem(pilot, words: str) -> None:
    app = pilot.app
    await pilot.press("7")
    await settle(pilot)
    target = next(row.key for row in app.table.rows if words in row.cells[3].plain)
    assert app.table.select_key(target)
    await settle(pilot)


async def open_form_on(pilot, path: str) -> MemoryForm:
    app = pilot.app
    await pilot.press("1")
    await settle(pilot)
    assert app.table.select_key(path)
    await settle(pilot)
    await pilot.press("e")
    await settle(pilot)
    assert isinstance(app.screen, MemoryForm)
    return app.screen


async def test_the_title_field_changes_only_the_heading_line(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (root / BETA).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        form = await open_form_on(pilot, BETA)
        title = form.query_one("#field-heading", Input)
        assert title.value == "Beta note" and app.focused is title
        title.value = 'Beta: "quoted" # and C#'
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, MemoryForm)
        after = (root / BETA).read_bytes()
        assert after == before.replace(b"# Beta note\n", b'# Beta: "quoted" # and C#\n')
        assert app.curator.get(BETA).title.startswith('Beta: "quoted"')
        assert index_check(root, capsys) == 0
        await pilot.press("u")
        await settle(pilot)
        assert (root / BETA).read_bytes() == before
        await pilot.press("U")
        await settle(pilot)
        assert (root / BETA).read_bytes() == after


async def test_a_blank_title_is_refused_beside_the_field(root: Path) -> None:
    before = (root / BETA).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        form = await open_form_on(pilot, BETA)
        form.query_one("#field-heading", Input).value = "  "
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form
        assert "type a title" in str(form.query_one("#error-heading").render())
        assert (root / BETA).read_bytes() == before


async def test_f_shows_the_plan_then_writes_the_fix_and_u_ctrl_y_undo_and_redo(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await select_problem(pilot, "is quoted")
        await pilot.press("f")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        shown = "\n".join(dialog._lines)
        assert QUOTED in shown and 'date: "2026-06-08"' in shown and "  date: 2026-06-08" in shown
        assert (root / QUOTED).read_text() == QUOTED_TEXT, "nothing is written before yes"
        await pilot.press("y")
        await settle(pilot)
        fixed = QUOTED_TEXT.replace('"2026-06-08"', "2026-06-08")
        assert (root / QUOTED).read_text() == fixed
        assert not app.curator.get(QUOTED).problems
        assert index_check(root, capsys) == 0
        await pilot.press("u")
        await settle(pilot)
        assert (root / QUOTED).read_text() == QUOTED_TEXT
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert (root / QUOTED).read_text() == fixed
        assert any("redone:" in n for n in notices(app))
        await pilot.press("U")
        await settle(pilot)
        assert any("Nothing to redo" in n for n in notices(app))


async def test_f_cancelled_writes_nothing(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await select_problem(pilot, "is quoted")
        await pilot.press("f")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert (root / QUOTED).read_text() == QUOTED_TEXT
        assert not app.curator.can_undo


async def test_f_on_a_missing_topics_opens_the_form_on_topics(root: Path) -> None:
    before = (root / NO_TOPICS).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await select_problem(pilot, "missing `topics`")
        await pilot.press("f")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemoryForm)
        assert app.focused is form.query_one("#field-topics", Input)
        assert any("topics are yours to choose" in n for n in notices(app))
        assert (root / NO_TOPICS).read_bytes() == before


async def test_f_outside_problems_says_where_it_works(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        assert any("Problems tab" in n for n in notices(app))
        assert not isinstance(app.screen, ConfirmScreen)


async def test_empty_asks_naming_count_and_size_then_deletes_for_good(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        app.change(lambda: edits.delete([app.curator.get(ALPHA), app.curator.get(BETA)]))
        await settle(pilot)
        screen = TrashScreen()
        app.push_screen(screen)
        await settle(pilot)
        size = sum(trash.size_of(root, entry) for entry in trash.entries(root))
        await pilot.press("E")
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmScreen)
        assert "delete 2 items for good" in question._title
        assert f"2 items, {size} bytes, deleted for good" in question._lines[0]
        assert "u no longer brings back" in question._lines[1]
        await pilot.press("escape")
        await settle(pilot)
        assert len(trash.entries(root)) == 2, "cancel deletes nothing"
        await pilot.press("E")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert trash.entries(root) == []
        assert not any((root / ".ai/.trash").iterdir())
        assert screen.entries == []
        assert not (root / ALPHA).exists() and not (root / BETA).exists()


async def test_restore_as_a_copy_beside_a_taken_place(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = (root / ALPHA).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        app.change(lambda: edits.delete([app.curator.get(ALPHA)]))
        await settle(pilot)
        newer = b"---\ndate: 2026-06-10\ntopics: [new]\n---\n\n# New alpha\n"
        (root / ALPHA).write_bytes(newer)
        screen = TrashScreen()
        app.push_screen(screen)
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        copy = ALPHA.replace(".md", "_restored.md")
        assert (root / copy).read_bytes() == original
        assert (root / ALPHA).read_bytes() == newer
        assert len(trash.entries(root)) == 1, "the trash keeps its own copy"
        assert app.curator.get(copy) is not None
        await pilot.press("u")
        await settle(pilot)
        assert not (root / copy).exists()

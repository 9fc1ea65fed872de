"""The trash screen in the real app: what is there, newest first, restored byte for byte, and a
refusal (nothing moved) when the original place is taken again."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from samantha_tui.core.writing import edits, trash
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.trash import TrashScreen
from samantha_tui.ui.widgets.preview import Preview

from ..conftest import TASKS, TODAY, make_tree
from ..pilot import ALPHA, BETA, index_check, memory, reindexed, settle

A, B = ALPHA, BETA
PROJECT = f"{TASKS}/payments"
PENDING = f"{TASKS}/pending-updates/20260614_101500_payments.json"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """Two memories and a project, indexes regenerated, so any drift afterwards is the app's."""
    tree_root = make_tree(
        tmp_path / "cerebrum",
        {
            A: memory("Alpha [bold]rule[/]", "importance: medium\r\n"),
            B: memory("Beta note"),
            f"{PROJECT}/status.md": memory("Payments", "status: active\n"),
            f"{PROJECT}/notes.md": "# Notes\n\nKeep these.\n",
            PENDING: '{"project_name": "payments", "proposed_changes": {"status": "done"}}\n',
        },
    )
    return reindexed(tree_root)


async def delete_in_app(pilot, *paths: str) -> None:
    app = pilot.app
    app.change(lambda: edits.delete([app.curator.get(path) for path in paths]))
    await settle(pilot)


async def open_trash(pilot) -> TrashScreen:
    screen = TrashScreen()
    pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


def notices(app: SamanthaApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


async def test_restore_puts_the_file_back_byte_for_byte_then_undo_trashes_it_again(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (root / A).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await delete_in_app(pilot, A)
        assert not (root / A).exists()
        screen = await open_trash(pilot)
        assert [entry.path for entry in screen.entries] == [A]
        assert [row.cells[0].plain for row in screen.table.rows] == [Path(A).name]
        assert screen.table.rows[0].cells[1].plain == "Short-term"
        preview = screen.query_one(Preview)
        assert preview.shown is not None and preview.shown.title == "Alpha [bold]rule[/]"
        assert preview.shown.path == A

        await pilot.press("enter")
        await settle(pilot)
        assert (root / A).read_bytes() == before
        assert index_check(root, capsys) == 0
        assert screen.entries == [] and len(screen.table.rows) == 0
        assert app.curator.get(A) is not None
        assert trash.entries(root) == []
        assert any("restore 2026-06-10_alpha_rule.md" in n for n in notices(app))
        # Empty now: the list and the preview say so, and r has nothing to act on.
        assert screen.table.empty_message == "The trash is empty."
        assert "The trash is empty" in str(preview.query_one("#preview-head").render())
        assert "nothing is deleted outright" in str(preview.query_one("#preview-fields").render())
        await pilot.press("r")
        await settle(pilot)
        assert any("nothing to restore" in n for n in notices(app))
        # Undoing the restore puts it back in the trash, and the list shows it again.
        await pilot.press("u")
        await settle(pilot)
        assert not (root / A).exists()
        assert [entry.path for entry in screen.entries] == [A]
        assert screen.table.selected_key == screen.entries[0].id


async def test_a_taken_place_is_refused_and_nothing_moves(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await delete_in_app(pilot, A)
        # Another program writes a new file where the trashed one lived.
        (root / A).write_bytes(b"---\ndate: 2026-06-14\ntopics: [new]\n---\n\n# New\n")
        screen = await open_trash(pilot)
        trashed = screen.entries[0]
        held = trashed.item(root).read_bytes()
        await pilot.press("r")
        await settle(pilot)
        assert (root / A).read_bytes().endswith(b"# New\n")
        assert trashed.item(root).read_bytes() == held
        assert trash.entries(root) == [trashed] and screen.entries == [trashed]
        refusal = [n for n in notices(app) if n.startswith("Nothing was written")]
        assert refusal and "exists again" in refusal[0]


async def test_a_project_comes_back_with_its_whole_folder(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = (root / PROJECT / "notes.md").read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await delete_in_app(pilot, f"{PROJECT}/status.md")
        assert not (root / PROJECT).exists()
        screen = await open_trash(pilot)
        assert [row.cells[0].plain for row in screen.table.rows] == ["payments/"]
        assert screen.table.rows[0].cells[1].plain == "Tasks"
        shown = screen.query_one(Preview).shown
        assert shown is not None and shown.title == "Payments"
        assert shown.companions == (f"{PROJECT}/notes.md",)
        await pilot.press("r")
        await settle(pilot)
        assert (root / PROJECT / "notes.md").read_bytes() == notes
        assert app.curator.get(f"{PROJECT}/status.md") is not None
        assert index_check(root, capsys) == 0


async def test_newest_first_with_where_each_came_from(root: Path) -> None:
    trash.put(root, A, dt.datetime(2026, 6, 12, 9, 0))
    trash.put(root, PENDING, dt.datetime(2026, 6, 14, 18, 30))
    trash.put(root, B, dt.datetime(2026, 6, 13, 7, 45))
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        screen = await open_trash(pilot)
        cells = [tuple(cell.plain for cell in row.cells) for row in screen.table.rows]
        assert cells == [
            (Path(PENDING).name, "Pending update", "2026-06-14 18:30"),
            (Path(B).name, "Short-term", "2026-06-13 07:45"),
            (Path(A).name, "Short-term", "2026-06-12 09:00"),
        ]
        # Not a memory: its text, read-only, under where it lived.
        head = str(screen.query_one("#preview-head").render())
        assert PENDING in head
        assert "proposed_changes" in str(screen.query_one("#preview-fields").render())
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TrashScreen)

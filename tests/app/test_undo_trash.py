"""Undoing a promotion or an index write leaves in the trash only what that change itself made
(the copies, the index files it created), set aside and folded away: the trash screen counts
none of it as an item, `a` lists it, redo takes it back, and every byte stays recoverable. A copy
someone changed since is their work: it is an ordinary item."""

from __future__ import annotations

from pathlib import Path

from samantha_tui.core.basics.model import TRASH_DIR
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import trash
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.trash import TrashScreen

from ..conftest import TODAY
from ..pilot import settle


def files(root: Path) -> dict[str, bytes]:
    """Every file of the tree but the trash's (and the tree lock's empty file), by path: what a
    person would find."""
    found = {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and TRASH_DIR not in path.relative_to(root).as_posix()
    }
    found.pop(".ai/.lock", None)
    return found


def held(root: Path) -> dict[str, bytes]:
    """What the trash holds, by the path each item came from."""
    return {entry.path: entry.item(root).read_bytes() for entry in trash.entries(root)}


async def open_trash(pilot) -> TrashScreen:
    screen = TrashScreen()
    pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


def head(screen: TrashScreen) -> str:
    return str(screen.query_one("#trash-head").render())


async def test_undoing_a_promotion_sets_its_copies_aside(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = files(demo_root)
        plan = lifecycle.promote(app.curator.tree, TODAY).plan()
        copies = {op.target for op in plan.operations if op.action == "copy"}
        assert len(copies) > 1
        app.change(lambda: plan)
        await settle(pilot)
        made = {path: data for path, data in files(demo_root).items() if path in copies}
        assert made.keys() == copies
        app.action_undo()
        await settle(pilot)
        # The tree is as it was, byte for byte; the trash holds the copies as they were made.
        assert files(demo_root) == before
        assert held(demo_root) == made
        screen = await open_trash(pilot)
        assert "0 items in" in head(screen)
        assert f"{len(copies)} set aside by undo ([a] lists)" in head(screen)
        assert screen.table.rows == []
        await pilot.press("a")
        await settle(pilot)
        assert len(screen.table.rows) == len(copies)
        assert all(row.cells[1].plain == "set aside" for row in screen.table.rows)
        await pilot.press("escape")
        await settle(pilot)
        # Redo takes the copies back from the trash: the promotion again, byte for byte.
        app.action_redo()
        await settle(pilot)
        assert {path: data for path, data in files(demo_root).items() if path in copies} == made
        assert not any(entry.set_aside for entry in trash.entries(demo_root))
        # Undone again: set aside again, nothing more.
        app.action_undo()
        await settle(pilot)
        assert files(demo_root) == before
        assert held(demo_root) == made
        assert all(entry.set_aside for entry in trash.entries(demo_root))


async def test_undoing_an_index_write_sets_the_files_it_created_aside(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        before = files(demo_root)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        written = files(demo_root)
        created = {path: data for path, data in written.items() if path not in before}
        assert created, "the demo lacks some index files: the write creates them"
        app.action_undo()
        await settle(pilot)
        assert files(demo_root) == before
        assert held(demo_root) == created
        screen = await open_trash(pilot)
        assert "0 items in" in head(screen)
        assert f"{len(created)} set aside by undo" in head(screen)
        assert screen.table.rows == []


async def test_a_copy_changed_before_the_undo_is_an_ordinary_item(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        plan = lifecycle.promote(app.curator.tree, TODAY).plan()
        copies = sorted(op.target or "" for op in plan.operations if op.action == "copy")
        app.change(lambda: plan)
        await settle(pilot)
        changed = demo_root / copies[0]
        mine = changed.read_bytes() + b"\nA line someone added to the copy.\n"
        changed.write_bytes(mine)
        app.action_undo()
        await settle(pilot)
        assert held(demo_root)[copies[0]] == mine  # their bytes, whole, in the trash
        entries = {entry.path: entry for entry in trash.entries(demo_root)}
        assert not entries[copies[0]].set_aside
        assert all(entries[path].set_aside for path in copies[1:])
        screen = await open_trash(pilot)
        assert "1 item in" in head(screen)
        assert [row.key for row in screen.table.rows] == [entries[copies[0]].id]

"""Other writers while the app is open: a file changed or deleted between read and write, or while
a form is open; the tree's folder renamed or removed; a trash that is missing or damaged.

Already covered elsewhere, and not repeated here: a file changed since it was read or during the
write (test_store.py), the conflict dialog and its three choices for `c` (test_app_editing.py and
test_conflict.py), an open form told that its file changed, with the watcher on
(test_app_live.py), a restore whose place is taken again (test_store.py, test_trash_screen.py).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from samantha_tui.core.writing import edits, trash
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.trash import TrashScreen
from samantha_tui.ui.widgets.preview import Preview

from ..conftest import TODAY
from ..damaged_trash import DAMAGED, GOOD, A, B, damaged_trash, root
from ..faults import record_notices, snapshot
from ..pilot import index_check, settle, until
from ..watching import watches_made

__all__ = ["damaged_trash", "root"]  # the fixtures, from damaged_trash.py


def says_gone(message: str) -> bool:
    """The refusal names the memory and says it is gone (in the store's words or the plan's)."""
    return "2026-06-10_alpha_rule.md" in message and bool(
        re.search(r"no longer (exists|there)", message)
    )


def refusals(app: SamanthaApp) -> list[str]:
    return [message for title, message in app.seen_notices if title == "Nothing was written"]


def new_app(root: Path) -> SamanthaApp:
    app = SamanthaApp(root, lambda: TODAY)
    app.seen_notices = record_notices(app)
    return app


# --- the same in the app, and during an open form (watcher off: found when writing) ----------


async def test_c_on_a_memory_another_program_deleted_says_so_and_drops_it(root: Path) -> None:
    app = new_app(root)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.table.selected_key == A
        (root / A).unlink()
        await pilot.press("c")
        await settle(pilot)
        assert any(says_gone(m) for m in refusals(app)), app.seen_notices
        assert not (root / A).exists()
        assert A not in [row.key for row in app.table.rows], "the list takes the deletion in"
        assert app.is_running


async def test_a_form_whose_file_is_deleted_meanwhile_writes_nothing(root: Path) -> None:
    app = new_app(root)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#field-importance", Select).value = "high"
        await pilot.pause()
        (root / A).unlink()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert any(says_gone(m) for m in refusals(app)), app.seen_notices
        assert not (root / A).exists()
        assert not isinstance(app.screen, MemoryForm), "no form for a memory that has gone"
        assert A not in [row.key for row in app.table.rows]


async def test_a_form_whose_file_changed_meanwhile_offers_the_conflict_and_keeps_the_input(
    root: Path,
) -> None:
    app = new_app(root)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#field-importance", Select).value = "high"
        await pilot.pause()
        theirs = (root / A).read_bytes().replace(b"Body of", b"Edited elsewhere:")
        (root / A).write_bytes(theirs)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        await pilot.press("escape")  # cancel: theirs stays, my input comes back
        await settle(pilot)
        assert (root / A).read_bytes() == theirs
        form = app.screen
        assert isinstance(form, MemoryForm)
        assert form.query_one("#field-importance", Select).value == "high"


# --- the tree's folder renamed or removed while the app is open ------------------------------


async def press_every_write(pilot, notices: int) -> None:
    """c, a form save, d and a new memory are refused, saying why; regenerating the indexes
    (r) writes nothing either."""
    app = pilot.app
    await pilot.press("c")
    await settle(pilot)
    await pilot.press("e")
    await pilot.pause()
    app.screen.query_one("#field-importance", Select).value = "high"
    await pilot.pause()
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert isinstance(app.screen, MemoryForm), "the refused form comes back with its input"
    await pilot.press("escape", "y")
    await settle(pilot)
    await pilot.press("d")
    await pilot.pause()
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("y")
    await settle(pilot)
    await pilot.press("n")
    await pilot.pause()
    app.screen.query_one("#field-title", Input).value = "New note"
    app.screen.query_one("#field-topics", Input).value = "ci"
    await pilot.pause()
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert isinstance(app.screen, MemoryForm)
    await pilot.press("escape", "y")
    await settle(pilot)
    await pilot.press("r")
    await settle(pilot)
    said = refusals(app)
    assert len(said) == notices, said
    assert all("is no longer there (renamed or removed?)" in m for m in said), said
    assert all("put it back, or start samantha-tui again" in m for m in said), said
    assert len(app.screen_stack) == 1 and app.is_running


async def test_a_renamed_tree_folder_refuses_every_write_and_works_when_it_is_back(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moved = root.with_name("renamed")
    app = new_app(root)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        before = snapshot(root)
        root.rename(moved)
        await press_every_write(pilot, notices=4)
        assert not root.exists(), "nothing was written where the tree was"
        assert snapshot(moved) == before, "nor in the folder where it went"

        moved.rename(root)
        await pilot.press("c")
        await settle(pilot)
        assert b"critical: true" in (root / A).read_bytes()
        assert index_check(root, capsys) == 0


async def test_a_removed_tree_folder_is_said_on_reload_and_comes_back_with_it(
    root: Path, tmp_path: Path
) -> None:
    copy = shutil.copytree(root, tmp_path / "backup")
    app = new_app(root)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        shutil.rmtree(root)
        await pilot.press("c")
        await settle(pilot)
        assert any("is no longer there (renamed or removed?)" in m for m in refusals(app))
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert not root.exists()
        assert app.memory_tree is not None and app.memory_tree.memories == ()
        assert "is no longer there" in app.memory_tree.problems[0].message
        assert "1 problem" in str(app.status_line.render())

        shutil.copytree(copy, root)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert [row.key for row in app.table.rows] == [A, B]
        await pilot.press("c")
        await settle(pilot)
        assert b"critical: true" in (root / A).read_bytes()


async def test_a_watched_tree_folder_removed_leaves_the_app_running_and_writing_nothing(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "watch.toml"
    config.write_text("[watch]\nenabled = true\n")
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    made = watches_made(monkeypatch)
    app = new_app(root)
    async with app.run_test(size=(120, 34)) as pilot:
        # until, not settle: the watcher is a worker that never completes
        assert await until(pilot, lambda: [row.key for row in app.table.rows] == [A, B])
        assert await until(pilot, lambda: made)  # the watcher is running
        shutil.rmtree(root)
        assert await until(
            pilot, lambda: any("Stopped watching" in message for _, message in app.seen_notices)
        )
        said = app.seen_notices
        assert any("no longer exists" in message for _, message in said), said
        await pilot.press("c", "d", "y", "r")
        await settle(pilot)  # what each key does, done
        assert app.is_running and not root.exists()


# --- a missing or damaged trash --------------------------------------------------------------


async def open_trash(pilot) -> TrashScreen:
    screen = TrashScreen()
    pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


async def test_the_trash_screen_lists_damaged_entries_and_never_restores_them(
    damaged_trash: Path,
) -> None:
    before = snapshot(damaged_trash)
    app = new_app(damaged_trash)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        screen = await open_trash(pilot)
        keys = [row.key for row in screen.table.rows]
        assert keys == [GOOD, *sorted([*DAMAGED, "stray.txt"])]
        assert f"{len(DAMAGED) + 1} damaged" in str(screen.query_one("#trash-head").render())
        await pilot.press("down", "down", "down")  # the entry pointing at ../../outside.md
        await settle(pilot)
        assert screen.table.selected_key == "20260601-000003"
        fields = str(screen.query_one(Preview).query_one("#preview-fields").render())
        assert "outside the memory folders" in fields
        await pilot.press("r")
        await settle(pilot)
        assert any("cannot be restored" in message for _, message in app.seen_notices)
        assert snapshot(damaged_trash) == before
        assert app.is_running


async def test_the_trash_screen_says_when_the_trash_is_a_file_or_goes_away(root: Path) -> None:
    app = new_app(root)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        app.change(lambda: edits.delete([app.curator.get(A)]))
        await settle(pilot)
        screen = await open_trash(pilot)
        assert [entry.path for entry in screen.entries] == [A]
        shutil.rmtree(root / trash.TRASH_DIR)  # another program empties it
        await pilot.press("r")
        await settle(pilot)
        assert any("nothing in the trash has the id" in m for m in refusals(app))
        assert not (root / A).exists() and not (root / trash.TRASH_DIR).exists()

        (root / trash.TRASH_DIR).write_text("not a folder\n")
        screen.read_trash()
        await settle(pilot)
        assert screen.problem is not None and "is a file" in screen.problem
        assert "is a file" in str(screen.query_one(Preview).query_one("#preview-fields").render())
        await pilot.press("r")
        await settle(pilot)
        assert (root / trash.TRASH_DIR).read_text() == "not a folder\n"
        assert app.is_running

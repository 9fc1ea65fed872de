"""Other writers: a file changed or deleted between read and write, or while a form is open; the
tree's folder renamed or removed while the app is open; a trash that is missing or damaged.

Already covered elsewhere, and not repeated here: a file changed since it was read or during the
write (test_store.py), the conflict dialog and its three choices for `c` (test_app_editing.py and
test_conflict.py), an open form told that its file changed, with the watcher on
(test_app_live.py), a restore whose place is taken again (test_store.py, test_trash_screen.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from samantha_tui.cli import main
from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.writing import door, edits, trash
from samantha_tui.core.writing.atomic import ConflictError, StoreError, digest_bytes
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.trash import TrashScreen
from samantha_tui.ui.widgets.preview import Preview

from ..conftest import LT, ST, TODAY
from ..faults import record_notices, snapshot, temporary_files
from ..pilot import ALPHA, BETA, alpha_and_beta, index_check, memory, settle, until
from ..watching import watches_made

A, B = ALPHA, BETA
NEW = f"{ST}/2026-06-15_new_note.md"
INDEX = f"{ST}/index.json"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return alpha_and_beta(tmp_path)


@pytest.fixture
def store(root: Path) -> Store:
    built = Store(root, lambda: TODAY)
    built.scan()
    return built


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


def during_fsync(monkeypatch: pytest.MonkeyPatch, meddle) -> None:
    """Run `meddle` once, while the writer syncs its temporary file: after the first check."""
    real = os.fsync
    done: list[bool] = []

    def fsync(fd: int) -> None:
        real(fd)
        if not done:
            done.append(True)
            meddle()

    monkeypatch.setattr(os, "fsync", fsync)


# --- a file changed or deleted between read and write (core) -------------------------------------


def test_a_file_deleted_before_the_write_is_refused_and_never_written_again(store: Store) -> None:
    (store.root / A).unlink()
    for write in (
        lambda: store.edit(A, {"critical": True}),
        lambda: store.write_bytes(A, b"new", store.get(A).digest),
    ):
        with pytest.raises(StoreError, match=re.escape(f"{A} no longer exists")):
            write()
    index = (store.root / INDEX).read_bytes()
    (store.root / INDEX).unlink()
    with pytest.raises(ConflictError):
        store.write_file(INDEX, b"{}", digest_bytes(index))
    assert not (store.root / A).exists() and not (store.root / INDEX).exists()


def test_a_file_deleted_during_the_write_is_not_written_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    during_fsync(monkeypatch, (store.root / A).unlink)
    with pytest.raises(ConflictError, match="changed on disk"):
        store.edit(A, {"critical": True})
    assert not (store.root / A).exists()
    assert temporary_files(store.root) == []


def test_a_file_another_program_creates_during_a_create_is_kept(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs = memory("Written by the assistant").encode()
    during_fsync(monkeypatch, lambda: (store.root / NEW).write_bytes(theirs))
    with pytest.raises(StoreError, match="already exists; choose another name"):
        store.create(NEW, {"date": TODAY, "topics": ["ci"]}, "# Mine\n")
    assert (store.root / NEW).read_bytes() == theirs
    assert temporary_files(store.root) == []


def test_a_move_whose_target_appears_meanwhile_moves_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = f"{LT}/2026-06-09_beta_note.md"
    theirs = memory("Theirs").encode()
    real_link = os.link

    def link(source, destination, **kwargs) -> None:
        # Another program writes the target after the move looked and before it links.
        Path(destination).write_bytes(theirs)
        real_link(source, destination, **kwargs)

    monkeypatch.setattr(os, "link", link)
    before = (store.root / B).read_bytes()
    with pytest.raises(StoreError) as refused:
        store.move(B, target)
    assert "cannot move" in str(refused.value) and "took its place" in str(refused.value)
    assert (store.root / target).read_bytes() == theirs
    assert (store.root / B).read_bytes() == before


def test_no_write_brings_a_vanished_tree_folder_back(store: Store) -> None:
    moved = store.root.with_name("moved")
    store.root.rename(moved)
    index = digest_bytes((moved / INDEX).read_bytes())
    for write in (
        lambda: store.edit(A, {"critical": True}),
        lambda: store.create(NEW, {"date": TODAY, "topics": ["ci"]}, "# New\n"),
        lambda: store.write_file(INDEX, b"{}", index),
        lambda: store.move(A, f"{LT}/2026-06-10_alpha_rule.md"),
        lambda: store.trash(A),
    ):
        with pytest.raises(StoreError, match=r"is no longer there \(renamed or removed\?\)"):
            write()
    assert not store.root.exists()
    assert store.scan().problems[0].message.startswith(f"the tree folder {store.root} is no")


def test_no_batch_brings_a_vanished_tree_folder_back(store: Store) -> None:
    moved = store.root.with_name("moved")
    store.root.rename(moved)
    batch = Plan("tidy", (Operation("trash", A), Operation("trash", B)))
    with pytest.raises(StoreError, match=r"is no longer there \(renamed or removed\?\)"):
        door.apply(store, batch)
    assert not store.root.exists()


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

GOOD = "20260614-101500"


def trash_entry(root: Path, entry_id: str, origin: object | None, item: str | None) -> Path:
    """Write a trash entry by hand: origin.json (raw text when a str), and a file named item."""
    folder = root / trash.TRASH_DIR / entry_id
    folder.mkdir(parents=True)
    if isinstance(origin, str):
        (folder / trash.ORIGIN_FILE).write_text(origin)
    elif origin is not None:
        (folder / trash.ORIGIN_FILE).write_text(json.dumps(origin))
    if item is not None:
        (folder / item).write_text(memory("Trashed"))
    return folder


def origin_of(path: str) -> dict[str, object]:
    return {"path": path, "trashed_at": "2026-06-14T10:15:00", "folder": False}


DAMAGED = {
    "20260601-000001": (None, "lost.md", "no origin.json, so where lost.md came from is unknown"),
    "20260601-000002": ("{not json", "x.md", "origin.json is damaged"),
    "20260601-000003": (origin_of("../../outside.md"), "outside.md", "outside the memory folders"),
    "20260601-000004": (origin_of("/etc/cron.d/x.md"), "x.md", "outside the memory folders"),
    "20260601-000005": (origin_of(".git/hooks/post-checkout"), "post-checkout", "outside the"),
    "20260601-000006": (origin_of(f"{ST}/named.md"), "other.md", "holds other.md where"),
    "20260601-000007": ([1, 2], "y.md", "origin.json is damaged"),
}


@pytest.fixture
def damaged_trash(root: Path) -> Path:
    """One good entry, every kind of damage, a stray file, and the debris of a failed trashing
    (an origin.json with no item), which holds nothing of the person's and is passed over."""
    trash_entry(root, GOOD, origin_of(f"{ST}/2026-06-01_good.md"), "2026-06-01_good.md")
    for entry_id, (origin, item, _) in DAMAGED.items():
        trash_entry(root, entry_id, origin, item)
    (root / trash.TRASH_DIR / "stray.txt").write_text("not an entry\n")
    trash_entry(root, "20260601-000009", origin_of(f"{ST}/gone.md"), None)
    return root


def test_the_listing_shows_what_it_can_and_says_why_for_the_rest(damaged_trash: Path) -> None:
    found = trash.listing(damaged_trash)
    assert [entry.id for entry in found.entries] == [GOOD]
    reasons = {damaged.id: damaged.reason for damaged in found.damaged}
    assert sorted(reasons) == sorted([*DAMAGED, "stray.txt"])
    for entry_id, (_, _, said) in DAMAGED.items():
        assert said in reasons[entry_id], reasons[entry_id]
    assert "not a trash entry" in reasons["stray.txt"]
    assert found.problem is None


def test_restore_refuses_a_damaged_entry_and_never_writes_outside_the_tree(
    damaged_trash: Path, tmp_path: Path
) -> None:
    store = Store(damaged_trash, lambda: TODAY)
    store.scan()
    before = snapshot(tmp_path)
    for entry_id in DAMAGED:
        with pytest.raises(StoreError, match=f"trash entry {entry_id} cannot be restored: "):
            store.restore(entry_id)
    assert snapshot(tmp_path) == before
    assert not Path("/etc/cron.d/x.md").exists()
    assert store.restore(GOOD) == f"{ST}/2026-06-01_good.md"


def test_restore_refuses_a_path_a_link_takes_out_of_the_tree(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ST / "linked").symlink_to(outside)
    trash_entry(root, GOOD, origin_of(f"{ST}/linked/x.md"), "x.md")
    store = Store(root, lambda: TODAY)
    store.scan()
    with pytest.raises(StoreError, match="leads outside the tree"):
        store.restore(GOOD)
    assert list(outside.iterdir()) == []


def test_trash_list_prints_what_it_can_and_reports_the_rest(
    damaged_trash: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["trash", "list", "--tree", str(damaged_trash)]) == 1
    out, err = capsys.readouterr()
    assert out == f"{GOOD}  2026-06-14 10:15  {ST}/2026-06-01_good.md\n"
    assert len(err.splitlines()) == len(DAMAGED) + 1
    assert "samantha-tui: trash entry 20260601-000003: origin.json names '../../outside.md'" in err
    assert main(["trash", "restore", "20260601-000002", "--tree", str(damaged_trash)]) == 1
    assert "cannot be restored: origin.json is damaged" in capsys.readouterr().err
    assert main(["trash", "empty", "--older-than", "0", "--tree", str(damaged_trash)]) == 0
    capsys.readouterr()
    assert sorted(d.id for d in trash.listing(damaged_trash).damaged) == sorted(
        [*DAMAGED, "stray.txt"]
    ), "emptying never deletes what it cannot place"


def test_a_missing_trash_is_empty_and_a_trash_that_is_a_file_is_reported(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    root = store.root
    assert main(["trash", "list", "--tree", str(root)]) == 0
    assert "the trash is empty" in capsys.readouterr().err
    assert main(["trash", "restore", GOOD, "--tree", str(root)]) == 1
    assert "nothing in the trash has the id" in capsys.readouterr().err

    (root / trash.TRASH_DIR).write_text("someone's notes\n")
    assert main(["trash", "list", "--tree", str(root)]) == 1
    assert ".ai/.trash is a file, not a folder" in capsys.readouterr().err
    with pytest.raises(StoreError, match=r"cannot move .*alpha_rule.md to the trash"):
        store.trash(A)
    assert (root / A).exists() and (root / trash.TRASH_DIR).read_text() == "someone's notes\n"
    with pytest.raises(
        StoreError, match=re.escape("nothing can be restored: .ai/.trash is a file")
    ):
        store.restore(GOOD)


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

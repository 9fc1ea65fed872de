"""Other writers, met by the core and the commands: a file changed, deleted or created between
read and write, the tree's folder gone before a write, and a trash that is missing or damaged."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.writing import door, trash
from samantha_tui.core.writing.atomic import ConflictError, StoreError, digest_bytes
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TODAY
from ..damaged_trash import DAMAGED, GOOD, A, B, damaged_trash, origin_of, root, trash_entry
from ..faults import snapshot, temporary_files
from ..pilot import memory

__all__ = ["damaged_trash", "root"]  # the fixtures, from damaged_trash.py

NEW = f"{ST}/2026-06-15_new_note.md"
INDEX = f"{ST}/index.json"


@pytest.fixture
def store(root: Path) -> Store:
    built = Store(root, lambda: TODAY)
    built.scan()
    return built


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


# --- a missing or damaged trash --------------------------------------------------------------


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

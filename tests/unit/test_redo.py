"""Redo: the last undone change made again, with the conflict checks of any change; the trash
emptied by entry and files restored as copies."""

from __future__ import annotations

import datetime as dt

import pytest

from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.writing import edits, trash
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.curator import Curator
from tests.conftest import ST, TASKS
from tests.curating import ONE, TWO, index_clean, on_disk, ready, text


@pytest.fixture
def curator(tree) -> Curator:
    return ready(tree({ONE: text("importance: medium\n"), TWO: text()}))


def test_redo_makes_the_undone_edit_again_to_the_byte(curator: Curator) -> None:
    original = on_disk(curator, ONE)
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    edited = on_disk(curator, ONE)
    curator.undo()
    assert on_disk(curator, ONE) == original and curator.can_redo
    outcome = curator.redo()
    assert on_disk(curator, ONE) == edited
    assert outcome.message == "redone: 2026-06-01_one.md: marked critical"
    assert curator.get(ONE).critical and not curator.can_redo
    assert index_clean(curator)
    curator.undo()  # a redone change is undone like any other
    assert on_disk(curator, ONE) == original
    assert index_clean(curator)


def test_redo_walks_forward_through_several_undos(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    curator.apply(edits.step_importance(curator.get(ONE), 1))
    final = on_disk(curator, ONE)
    curator.undo()
    curator.undo()
    curator.redo()
    assert curator.get(ONE).critical and curator.get(ONE).importance == "medium"
    curator.redo()
    assert on_disk(curator, ONE) == final
    with pytest.raises(StoreError, match="nothing to redo"):
        curator.redo()


def test_a_new_change_clears_the_redo_history(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    curator.undo()
    curator.apply(edits.step_importance(curator.get(TWO), 1))
    assert not curator.can_redo
    with pytest.raises(StoreError, match="nothing to redo"):
        curator.redo()


def test_redo_refuses_a_file_changed_since_the_undo_and_writes_nothing(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    curator.undo()
    theirs = text("importance: low\n").encode()
    (curator.store.root / ONE).write_bytes(theirs)
    with pytest.raises(StoreError, match="changed since the undo; nothing was redone"):
        curator.redo()
    assert on_disk(curator, ONE) == theirs
    assert curator.can_redo  # still there, for once the file is sorted out


def test_redo_of_a_delete_trashes_again_and_undo_brings_it_back(curator: Curator) -> None:
    original = on_disk(curator, TWO)
    curator.apply(edits.delete([curator.get(TWO)]))
    curator.undo()
    assert curator.get(TWO) is not None
    curator.redo()
    assert curator.get(TWO) is None and len(curator.store.trash_entries()) == 1
    curator.undo()
    assert on_disk(curator, TWO) == original
    assert not curator.store.trash_entries()
    assert index_clean(curator)


def test_redo_of_a_delete_refuses_when_the_file_changed_since(curator: Curator) -> None:
    curator.apply(edits.delete([curator.get(TWO)]))
    curator.undo()
    newer = text("importance: high\n").encode()
    (curator.store.root / TWO).write_bytes(newer)
    with pytest.raises(StoreError, match="changed since the undo"):
        curator.redo()
    assert on_disk(curator, TWO) == newer


def test_redo_after_an_outside_edit_of_the_app_is_cleared(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    curator.undo()
    before = on_disk(curator, TWO)
    (curator.store.root / TWO).write_bytes(before + b"more\n")
    curator.record_outside_edit(TWO, before)
    assert not curator.can_redo


def test_empty_trash_deletes_exactly_the_entries_shown(curator: Curator) -> None:
    curator.apply(edits.delete([curator.get(ONE)]))
    shown = [entry.id for entry in curator.store.trash_entries()]
    curator.apply(edits.delete([curator.get(TWO)]))
    removed = curator.empty_trash(shown).removed
    assert [entry.path for entry in removed] == [ONE]
    assert [entry.path for entry in curator.store.trash_entries()] == [TWO]


def test_the_size_of_an_entry_counts_its_files(tree) -> None:
    status = f"{TASKS}/gateway/status.md"
    cur = Curator(tree({status: text("status: active\n"), f"{TASKS}/gateway/notes.md": "12345"}))
    cur.load()
    cur.apply(edits.delete([cur.get(status)]))
    (entry,) = cur.store.trash_entries()
    assert trash.size_of(cur.store.root, entry) == len(text("status: active\n")) + 5


def test_copy_names_keep_the_date_and_never_take_a_used_name() -> None:
    entry = trash.TrashEntry("x", f"{ST}/2026-06-01_one.md", dt.datetime(2026, 6, 1))
    taken = {f"{ST}/2026-06-01_one_restored.md"}
    assert trash.copy_name(entry, lambda rel: rel in taken) == f"{ST}/2026-06-01_one_restored_2.md"
    assert trash.copy_name(entry, lambda rel: False) == f"{ST}/2026-06-01_one_restored.md"


def test_a_copy_restore_is_an_undoable_new_file_and_the_trash_keeps_its_item(
    curator: Curator,
) -> None:
    original = on_disk(curator, TWO)
    curator.apply(edits.delete([curator.get(TWO)]))
    (curator.store.root / TWO).write_bytes(b"a new file took its place\n")
    (entry,) = curator.store.trash_entries()
    data = trash.item_bytes(curator.store.root, entry)
    rel = trash.copy_name(entry, lambda r: (curator.store.root / r).exists())
    curator.apply(Plan("restore a copy", (Operation("add", rel, "restored as a copy", data=data),)))
    assert on_disk(curator, rel) == original
    assert on_disk(curator, TWO) == b"a new file took its place\n"
    assert len(curator.store.trash_entries()) == 1
    curator.undo()
    assert not (curator.store.root / rel).exists()


def test_the_cli_restores_as_a_copy_and_keeps_the_trash_entry(
    curator: Curator, capsys: pytest.CaptureFixture[str]
) -> None:
    from samantha_tui.cli import main

    original = on_disk(curator, TWO)
    curator.apply(edits.delete([curator.get(TWO)]))
    (entry,) = curator.store.trash_entries()
    root = curator.store.root
    assert main(["trash", "restore", entry.id, "--as-copy", "--tree", str(root)]) == 0
    copy = TWO.replace(".md", "_restored.md")
    assert f"restored {copy} as a copy" in capsys.readouterr().out
    assert (root / copy).read_bytes() == original
    assert [e.id for e in trash.entries(root)] == [entry.id]
    assert main(["trash", "restore", entry.id, "--as-copy", "--tree", str(root)]) == 0
    assert (root / TWO.replace(".md", "_restored_2.md")).read_bytes() == original
    assert main(["index", "--check", "--tree", str(root)]) == 0

"""The store's one door: atomic, conflict-checked edits, the trash, moves, and the tree's edges."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.writing.atomic import ConflictError, StoreError

from ..conftest import LT, ST, TASKS, TODAY

TEXT = "---\ndate: 2026-01-28\ntopics: [a]\nimportance: low\n---\n\n# Note\n\nBody.\n"


def files_in(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_edit_changes_one_line_and_sets_updated(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    memory = store.edit(f"{ST}/n.md", {"importance": "high"})
    on_disk = (store.root / ST / "n.md").read_text()
    assert on_disk == TEXT.replace("importance: low", f"importance: high\nupdated: {TODAY}")
    assert memory.importance == "high" and store.get(f"{ST}/n.md") == memory


def test_edit_that_sets_updated_itself_keeps_that_value(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    store.edit(f"{ST}/n.md", {"updated": dt.date(2026, 1, 30)})
    assert "updated: 2026-01-30\n" in (store.root / ST / "n.md").read_text()


def test_keep_updated_leaves_the_file_otherwise_untouched(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    store.edit(f"{ST}/n.md", {"critical": True}, touch_updated=False)
    store.edit(f"{ST}/n.md", unset=["critical"], touch_updated=False)
    assert (store.root / ST / "n.md").read_text() == TEXT


def test_bom_and_crlf_survive_an_edit(tree) -> None:
    raw = b"\xef\xbb\xbf" + TEXT.replace("\n", "\r\n").encode()
    store = tree({f"{ST}/n.md": raw})
    store.edit(f"{ST}/n.md", {"importance": "high"}, touch_updated=False)
    assert (store.root / ST / "n.md").read_bytes() == raw.replace(
        b"importance: low", b"importance: high"
    )


def test_invalid_value_is_refused_and_the_file_untouched(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    with pytest.raises(StoreError, match="expected low, medium or high"):
        store.edit(f"{ST}/n.md", {"importance": "urgent"})
    assert (store.root / ST / "n.md").read_text() == TEXT


def test_problems_elsewhere_do_not_block_an_edit(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT.replace("topics: [a]\n", "")})
    memory = store.edit(f"{ST}/n.md", {"critical": True})
    assert memory.critical and any("missing `topics`" in p.message for p in memory.problems)


def test_a_file_changed_since_it_was_read_is_not_written(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    path.write_text(TEXT + "another program added this\n")
    with pytest.raises(ConflictError, match="changed on disk"):
        store.edit(f"{ST}/n.md", {"critical": True})
    assert path.read_text() == TEXT + "another program added this\n"


def test_a_file_changed_during_the_write_is_not_overwritten(tree, monkeypatch) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    from samantha_tui.core.writing import atomic

    real_fsync = os.fsync

    def meddle(fd: int) -> None:
        real_fsync(fd)
        if path.read_text() == TEXT:
            path.write_text("rewritten by someone else\n")

    monkeypatch.setattr(atomic.os, "fsync", meddle)
    with pytest.raises(ConflictError):
        store.edit(f"{ST}/n.md", {"critical": True})
    assert path.read_text() == "rewritten by someone else\n"
    assert files_in(store.root / ST) == {"n.md"}  # no temporary file left


def test_a_failing_write_leaves_the_original_and_no_temporary_file(tree, monkeypatch) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    from samantha_tui.core.writing import atomic

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", disk_full)
    monkeypatch.setattr(atomic.name_swap, "exchange", disk_full)
    with pytest.raises(StoreError, match="the disk is full; free some space"):
        store.edit(f"{ST}/n.md", {"critical": True})
    assert (store.root / ST / "n.md").read_text() == TEXT
    assert files_in(store.root / ST) == {"n.md"}


def test_permissions_are_kept(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    path.chmod(0o640)
    store.edit(f"{ST}/n.md", {"critical": True})
    assert path.stat().st_mode & 0o777 == 0o640


def test_trash_round_trip_is_byte_for_byte(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT, f"{ST}/other.md": TEXT})
    entry = store.trash(f"{ST}/n.md")
    assert not (store.root / ST / "n.md").exists()
    assert [m.name for m in store.tree.memories] == ["other.md"]
    assert [e.path for e in store.trash_entries()] == [f"{ST}/n.md"]
    assert store.restore(entry.id) == f"{ST}/n.md"
    assert (store.root / ST / "n.md").read_text() == TEXT
    assert store.trash_entries() == []


def test_restore_never_overwrites(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    entry = store.trash(f"{ST}/n.md")
    (store.root / ST / "n.md").write_text("a new file with the same name\n")
    with pytest.raises(StoreError, match="exists again"):
        store.restore(entry.id)
    assert (store.root / ST / "n.md").read_text() == "a new file with the same name\n"
    assert entry.item(store.root).read_text() == TEXT


def test_trashing_a_task_takes_its_whole_folder(tree) -> None:
    status = TEXT.replace("importance: low", "status: active")
    store = tree({f"{TASKS}/proj/status.md": status, f"{TASKS}/proj/notes.md": "notes\n"})
    assert store.get(f"{TASKS}/proj/status.md").companions == (f"{TASKS}/proj/notes.md",)
    entry = store.trash(f"{TASKS}/proj/status.md")
    assert entry.is_folder and not (store.root / TASKS / "proj").exists()
    store.restore(entry.id)
    assert (store.root / TASKS / "proj" / "notes.md").read_text() == "notes\n"


def test_empty_trash_older_than(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    store.trash(f"{ST}/n.md")
    assert store.empty_trash(1) == []
    assert len(store.empty_trash(0)) == 1
    assert store.trash_entries() == []


def test_move_a_memory_and_refuse_to_overwrite(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT, f"{LT}/taken.md": TEXT})
    store.move(f"{ST}/n.md", f"{LT}/topic/n.md")
    assert (store.root / LT / "topic" / "n.md").read_text() == TEXT
    assert store.get(f"{LT}/topic/n.md").kind is Kind.LONG_TERM
    with pytest.raises(StoreError, match="already exists"):
        store.move(f"{LT}/topic/n.md", f"{LT}/taken.md")
    assert (store.root / LT / "taken.md").read_text() == TEXT


def test_move_a_whole_task_folder_to_work_experience(tree) -> None:
    status = TEXT.replace("importance: low", "status: active")
    store = tree({f"{TASKS}/proj/status.md": status, f"{TASKS}/proj/notes.md": "notes\n"})
    done = ".ai/work-experience/.ai/proj"
    store.move(f"{TASKS}/proj", done)
    assert not (store.root / TASKS / "proj").exists()
    assert (store.root / done / "status.md").read_text() == status
    memory = store.get(f"{done}/status.md")
    assert memory.kind is Kind.WORK_EXPERIENCE and memory.companions == (f"{done}/notes.md",)


def test_nothing_is_written_through_a_link_out_of_the_tree(tree, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(TEXT)
    store = tree({})
    (store.root / ST / "link.md").symlink_to(outside)
    store.scan()
    with pytest.raises(StoreError, match="outside the tree"):
        store.edit(f"{ST}/link.md", {"critical": True})
    with pytest.raises(StoreError, match="outside the tree"):
        store.trash(f"{ST}/link.md")
    assert outside.read_text() == TEXT


def test_create_refuses_to_replace_and_validates(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    fields = {"date": TODAY, "topics": ["x"]}
    with pytest.raises(StoreError, match="already exists"):
        store.create(f"{ST}/n.md", fields, "# New\n")
    with pytest.raises(StoreError, match="expected low"):
        store.create(f"{ST}/new.md", {**fields, "importance": "urgent"}, "# New\n")
    memory = store.create(f"{ST}/new.md", fields, "# New\n")
    assert memory.problems == () and memory.title == "New"


def test_scan_skips_indexes_pending_updates_and_staging(demo_root: Path) -> None:
    from samantha_tui.core.writing.store import Store

    tree = Store(demo_root, lambda: TODAY).scan()
    paths = [m.path for m in tree.memories]
    assert not any(p.endswith(("index.md", "index.json")) for p in paths)
    assert not any("pending-updates" in p or "subconscious" in p for p in paths)
    assert (
        len(tree.pending_updates) == 1 and tree.pending_updates[0].project == "api-gateway-refactor"
    )
    assert len(tree.awaiting_merge) == 1 and len(tree.awaiting_merge[0].memory_files) == 2


def test_a_kind_folder_that_is_a_file_is_reported(tmp_path: Path) -> None:
    from samantha_tui.core.writing.store import Store

    (tmp_path / ".ai").mkdir()
    (tmp_path / ".ai" / "long-term-memory").write_text("oops")
    tree = Store(tmp_path, lambda: TODAY).scan()
    assert [p.message for p in tree.problems] == ["expected a folder of memories, found a file"]


def test_write_file_is_atomic_and_conflict_checked(tree) -> None:
    from samantha_tui.core.writing.atomic import digest_bytes

    store = tree({})
    rel = f"{ST}/index.json"
    store.write_file(rel, b"{}", None)
    with pytest.raises(ConflictError):
        store.write_file(rel, b"[]", None)  # it exists now: None means "must not exist"
    store.write_file(rel, b"[1]", digest_bytes(b"{}"))
    assert (store.root / rel).read_bytes() == b"[1]"
    with pytest.raises(ConflictError):
        store.write_file(rel, b"[2]", digest_bytes(b"{}"))
    assert (store.root / rel).read_bytes() == b"[1]"


def test_records_stay_in_scan_order_through_changes(tree) -> None:
    status = TEXT.replace("importance: low", "status: active")
    store = tree(
        {
            f"{TASKS}/a/status.md": status,
            f"{TASKS}/a-b/status.md": status,
            f"{ST}/n.md": TEXT,
            f"{ST}/n-2.md": TEXT,
            f"{LT}/x/deep.md": TEXT,
        }
    )
    store.trash(f"{TASKS}/a/status.md")
    store.move(f"{ST}/n.md", f"{LT}/x/n.md")
    entry = store.trash_entries()[-1]
    store.restore(entry.id)
    assert [m.path for m in store.tree.memories] == [m.path for m in store.scan().memories]


def test_which_kind_holds_a_path_is_answered_once_for_every_caller() -> None:
    from samantha_tui.core.basics.model import Kind, kind_of_path, short_path

    assert kind_of_path(f"{ST}/n.md") is Kind.SHORT_TERM
    assert kind_of_path(".ai/current-tasks/.ai/api/docs/a.md") is Kind.CURRENT_TASKS
    # The kind folder itself, a look-alike folder and a path outside every kind hold no record.
    assert kind_of_path(ST) is None
    assert kind_of_path(".ai/short-term-memory/.aix/n.md") is None
    assert kind_of_path("README.md") is None
    assert short_path(f"{ST}/n.md") == "short-term/n.md" and short_path("README.md") == "README.md"

"""Undo follows a memory through the trash: deleted, restored from the trash screen, that restore
undone (a new trash entry), then the delete undone: the memory is back with its bytes."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.writing import edits, trash
from samantha_tui.core.writing import store as store_module
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from ..conftest import TODAY
from ..pilot import ALPHA, alpha_and_beta


class _Clock(dt.datetime):
    """Each call a minute later: every trashing gets an entry id of its own."""

    minutes = 0

    @classmethod
    def now(cls, tz=None):  # type: ignore[override]
        cls.minutes += 1
        return dt.datetime(2026, 6, 15, 12, 0) + dt.timedelta(minutes=cls.minutes)


def test_undoing_a_delete_after_its_restore_was_undone_brings_the_memory_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module.dt, "datetime", _Clock)
    root = alpha_and_beta(tmp_path)
    original = (root / ALPHA).read_bytes()
    store = Store(root, lambda: TODAY)
    curator = Curator(store)
    curator.load()
    curator.apply(edits.delete([curator.get(ALPHA)]))
    (entry,) = trash.entries(root)
    restore = Operation("restore", entry.path, "restored by you", target=entry.id)
    curator.apply(Plan(f"restore {entry.path}", (restore,)))
    assert (root / ALPHA).read_bytes() == original

    curator.undo()  # the restore: into the trash again, under a new entry id
    assert not (root / ALPHA).exists()
    assert [e.id for e in trash.entries(root)] != [entry.id]
    curator.undo()  # the delete: its entry id is gone, its bytes are in the newer entry
    assert (root / ALPHA).read_bytes() == original
    assert trash.entries(root) == []
    assert not curator.can_undo


def test_a_restore_whose_bytes_are_nowhere_in_the_trash_still_refuses(tmp_path: Path) -> None:
    root = alpha_and_beta(tmp_path)
    store = Store(root, lambda: TODAY)
    curator = Curator(store)
    curator.load()
    curator.apply(edits.delete([curator.get(ALPHA)]))
    (entry,) = trash.entries(root)
    trash.empty(root, 0, entry.trashed_at.replace(year=2100))
    assert trash.entries(root) == []
    with pytest.raises(StoreError, match="nothing in the trash has the id"):
        curator.undo()
    assert not (root / ALPHA).exists()

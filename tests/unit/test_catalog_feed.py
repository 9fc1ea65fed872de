"""The store feeds its catalog: what the app writes, and what another program changes that the
store takes in, is catalogued at once, so the next start's first frame draws the tree as it is."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from samantha_tui.core.reading import catalog
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY, make_tree, memory_text

A, B = f"{ST}/2026-06-01_a.md", f"{ST}/2026-06-02_b.md"


@pytest.fixture(autouse=True)
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files the test writes are not racy to the catalog (its clock runs a minute ahead)."""
    monkeypatch.setattr(catalog, "_now_ns", lambda: time.time_ns() + 60 * 10**9)


def loaded(root: Path) -> Curator:
    curator = Curator(Store(root, lambda: TODAY), auto_index=False)
    curator.load()
    return curator


def next_start(root: Path) -> dict[str, object]:
    """What a new process's first frame would draw: path -> critical, from the catalog alone."""
    store = Store(root, lambda: TODAY)
    try:
        return {m.path: m.critical for m in store.listed().memories}
    finally:
        store.close()


def test_a_write_through_the_curator_is_catalogued(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "t", {A: memory_text(date="2026-06-01"), B: memory_text()})
    curator = loaded(root)
    assert next_start(root) == {A: False, B: False}
    memory = curator.get(A)
    assert memory is not None
    curator.apply(edits.toggle_critical(memory))
    assert next_start(root) == {A: True, B: False}
    curator.undo()
    assert next_start(root) == {A: False, B: False}


def test_what_another_program_changed_is_catalogued_when_taken_in(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "t", {A: memory_text(date="2026-06-01"), B: memory_text()})
    curator = loaded(root)
    (root / B).unlink()
    (root / A).write_text(memory_text(date="2026-06-01", critical="true"), encoding="utf-8")
    curator.absorb([A, B])
    assert next_start(root) == {A: True}

"""Bulk plans over marked memories: one plan, one undo back to every byte, stale files skipped,
memories a change does not fit left alone and named."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.core.writing import bulk_edits, door
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.bulk_edits import BulkChange
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TASKS, TODAY, make_tree

A = f"{ST}/2026-06-10_alpha.md"
B = f"{ST}/2026-06-09_beta.md"
C = f"{ST}/2026-06-08_gamma.md"
T = f"{TASKS}/gateway/status.md"


def _memory(title: str, extra: str = "") -> str:
    return f"---\ndate: 2026-06-01\ntopics: [ci, Docs]\n{extra}---\n\n# {title}\n\nBody.\n"


@pytest.fixture
def curator(tmp_path: Path) -> Curator:
    root = make_tree(
        tmp_path / "cerebrum",
        {
            A: _memory("Alpha", "importance: medium\n"),
            B: _memory("Beta", "importance: high\ncritical: true\n"),
            C: _memory("Gamma").replace("\n", "\r\n"),
            T: "---\ndate: 2026-06-01\ntopics: [gateway]\nstatus: active\n---\n\n# Gateway\n",
        },
    )
    store = Store(root, lambda: TODAY)
    found = Curator(store)
    found.load()
    found.reindex()
    return found


def _records(curator: Curator, *paths: str):
    return [curator.get(path) for path in paths]


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".journal" not in p.parts and ".lock" not in p.name
    }


def test_critical_marks_the_ones_not_critical_and_one_undo_restores_every_byte(
    curator: Curator,
) -> None:
    root = curator.store.root
    before = _snapshot(root)
    bulk = bulk_edits.toggle_critical(_records(curator, A, B, C))
    # Beta already is critical: only the other two are written, and the name says so.
    assert [op.path for op in bulk.plan.operations] == [A, C]
    assert "marked critical on 2 memories" in bulk.plan.name
    assert "1 memory already critical" in bulk.plan.name
    assert bulk.asks == "Mark 2 memories critical?"
    assert all(op.seen == curator.get(op.path).digest for op in bulk.plan.operations)
    outcome = curator.apply(bulk.plan)
    assert b"critical: true\n" in (root / A).read_bytes()
    assert b"critical: true\r\n" in (root / C).read_bytes(), "CRLF kept"
    assert outcome.indexes, "the indexes are patched"
    assert not list((root / ".ai" / ".journal").glob("*")), "the journal closed"
    curator.undo()
    assert _snapshot(root) == before
    assert not curator.can_undo, "one change, one undo"


def test_critical_when_every_marked_one_is_critical_removes_the_key(curator: Curator) -> None:
    curator.apply(bulk_edits.toggle_critical(_records(curator, A, C)).plan)
    bulk = bulk_edits.toggle_critical(_records(curator, A, B, C))
    assert [op.unset for op in bulk.plan.operations] == [("critical",)] * 3
    assert bulk.plan.name.startswith("critical removed on 3 memories")


def test_importance_steps_each_and_names_the_ones_at_the_end(curator: Curator) -> None:
    bulk = bulk_edits.step_importance(_records(curator, A, B, C), 1)
    assert [(f.path, dict(f.values)) for f in bulk.files] == [
        (A, {"importance": "high"}),
        (C, {"importance": "low"}),
    ]
    assert [(x.path, x.reason) for x in bulk.left_alone] == [(B, "already at high")]
    assert "left alone: 2026-06-09_beta.md (already at high)" in bulk.plan.name
    with pytest.raises(StoreError, match="nothing was written; left alone"):
        bulk_edits.step_importance(_records(curator, B), 1)


def test_a_file_changed_since_the_plan_is_skipped_and_the_rest_lands(curator: Curator) -> None:
    root = curator.store.root
    bulk = bulk_edits.step_importance(_records(curator, A, C), -1)
    theirs = (root / A).read_bytes() + b"\nAdded by another program.\n"
    (root / A).write_bytes(theirs)
    outcome = curator.apply(bulk.plan)
    assert (root / A).read_bytes() == theirs, "another program's version is never written over"
    assert [(s.path, s.reason) for s in outcome.skipped] == [(A, door.CHANGED)]
    assert "skipped 1 changed since the plan was made" in outcome.message
    # Lowering from no importance is refused for Gamma: Alpha was the only one, so nothing ran.
    assert b"importance" not in (root / C).read_bytes()


def test_bulk_edit_writes_only_what_changes_and_keys_the_kind_has(curator: Curator) -> None:
    root = curator.store.root
    before = _snapshot(root)
    change = BulkChange(
        values={"importance": "high", "status": "blocked"},
        topics_add=("release", "CI"),
        topics_remove=("docs",),
    )
    files, unchanged = bulk_edits.preview(_records(curator, A, B, T), change)
    assert unchanged == 0
    assert [f.describe() for f in files] == [
        "2026-06-10_alpha.md: importance high; topics +release -Docs",
        "2026-06-09_beta.md: topics +release -Docs",
        # Tasks have importance too; `CI` is new to the gateway (Alpha has `ci` already).
        "gateway: importance high; status blocked; topics +release +CI",
    ]
    bulk = bulk_edits.edit_many(_records(curator, A, B, T), change, curator.read_bytes)
    assert len(bulk.plan.operations) == 3
    curator.apply(bulk.plan)
    alpha = (root / A).read_text()
    assert "topics: [ci, release]\nimportance: high\n" in alpha
    assert "status" not in alpha, "a short-term memory gets no status"
    assert "status: blocked\n" in (root / T).read_text()
    curator.undo()
    assert _snapshot(root) == before


def test_bulk_edit_leaves_alone_what_it_cannot_write_and_what_would_lose_every_topic(
    curator: Curator,
) -> None:
    root = curator.store.root
    (root / B).write_bytes(b"no frontmatter at all\n")
    curator.absorb([B])
    bulk = bulk_edits.edit_many(
        _records(curator, A, B, C), BulkChange(topics_add=("release",)), curator.read_bytes
    )
    assert [op.path for op in bulk.plan.operations] == [A, C]
    assert [x.path for x in bulk.left_alone] == [B]
    assert bulk.left_alone[0].reason.startswith("no frontmatter")
    assert "left alone: 2026-06-09_beta.md (no frontmatter" in bulk.plan.name
    with pytest.raises(StoreError, match="no topics would be left"):
        bulk_edits.edit_many(_records(curator, A), BulkChange(topics_remove=("ci", "DOCS")))


def test_set_topics_replaces_them_and_critical_off_removes_the_key(curator: Curator) -> None:
    change = BulkChange(unset=("critical",), topics_set=("one", "two"))
    files, unchanged = bulk_edits.preview(_records(curator, A, B), change)
    assert [(f.path, dict(f.values), f.unset) for f in files] == [
        (A, {"topics": ["one", "two"]}, ()),
        (B, {"topics": ["one", "two"]}, ("critical",)),
    ]
    assert unchanged == 0
    # A value the file already holds is not written again.
    files, unchanged = bulk_edits.preview(
        _records(curator, A), BulkChange({"importance": "medium"})
    )
    assert files == [] and unchanged == 1


def test_an_empty_change_is_refused(curator: Curator) -> None:
    with pytest.raises(StoreError, match="no field was set"):
        bulk_edits.edit_many(_records(curator, A), BulkChange())


def test_kinds_in_counts_each_memory_once_in_tab_order(curator: Curator) -> None:
    records = _records(curator, T, A, B, A)
    counts = bulk_edits.kinds_in(records)
    assert [(kind.value, n) for kind, n in counts.items()] == [
        (records[1].kind.value, 2),
        (records[0].kind.value, 1),
    ]

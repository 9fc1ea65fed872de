"""The bundled demo is realistic and shows every problem path, with dates that follow today."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from pathlib import Path

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.writing.store import Store
from samantha_tui.demo import ANCHOR, shift_dates, write_demo

from ..conftest import ST, TODAY


def test_demo_has_what_the_issue_asks_for(demo_root: Path) -> None:
    tree = Store(demo_root, lambda: TODAY).scan()
    per_kind = Counter(m.kind for m in tree.memories)
    assert len(tree.memories) >= 40
    assert all(per_kind[kind] for kind in Kind)
    assert per_kind[Kind.CURRENT_TASKS] >= 2 and per_kind[Kind.PROCEDURAL] >= 2
    assert 3 <= len(tree.critical) <= 5
    assert len({m.importance for m in tree.memories} - {None}) == 3
    assert any(m.reference_count >= 10 for m in tree.memories)
    assert any(m.companions for m in tree.of_kind(Kind.CURRENT_TASKS))
    assert any("[bold]" in m.title for m in tree.memories)
    assert len(tree.pending_updates) == 1 and len(tree.awaiting_merge) == 1
    errors = sorted(
        p.message.split(";")[0] for p in tree.all_problems if p.severity.value == "error"
    )
    assert len(errors) == 3
    # The unclosed topics list: read as samantha-llm reads it (a warning), and not a list (an error)
    assert any("`topics` is '[ci, flaky-tests" in e for e in errors)
    warnings = [p.message for p in tree.all_problems if p.severity.value == "warning"]
    assert len(warnings) == 1 and warnings[0].startswith("strict YAML cannot read this")
    assert any("missing `topics`" in e for e in errors)
    assert any("'urgent'" in e for e in errors)
    names = [m.name for m in tree.of_kind(Kind.SHORT_TERM)]
    merged = [n for n in names if re.search(r"_\d{8}_\d{6}\.md$", n)]
    assert len(merged) == 1 and re.sub(r"_\d{8}_\d{6}", "", merged[0]) in names


def test_most_short_term_memories_are_worker_session_analyses(demo_root: Path) -> None:
    # A user's tree after some months is mostly what the background worker wrote: one
    # session analysis per working session, beside the notes the assistant writes by hand.
    short = Store(demo_root, lambda: TODAY).scan().of_kind(Kind.SHORT_TERM)
    sessions = [m for m in short if m.frontmatter.get("type") == "session-analysis"]
    assert len(short) == len(list((demo_root / ST).glob("*.md"))) - 1  # index.md is no memory
    assert 2 * len(sessions) > len(short)


def test_short_term_index_has_drifted_from_the_files(demo_root: Path) -> None:
    index = json.loads((demo_root / ST / "index.json").read_text())
    listed = {e["file"] for group in index["recent"].values() for e in group}
    on_disk = {p.name for p in (demo_root / ST).glob("*.md") if p.name != "index.md"}
    assert listed - on_disk and on_disk - listed


def test_dates_move_with_today(tmp_path: Path) -> None:
    later = ANCHOR + dt.timedelta(days=100)
    root = write_demo(tmp_path / "later", later)
    same = Store(write_demo(tmp_path / "anchor", ANCHOR), lambda: ANCHOR).scan()
    moved = Store(root, lambda: later).scan()
    ages = sorted(m.age_days for m in same.memories if m.age_days is not None)
    assert ages == sorted(m.age_days for m in moved.memories if m.age_days is not None)
    assert any(
        p.name.startswith((later - dt.timedelta(days=2)).isoformat()) for p in (root / ST).iterdir()
    )


def test_shift_dates_handles_stamps_and_leaves_non_dates() -> None:
    delta = dt.timedelta(days=1)
    assert (
        shift_dates("2026-06-14_x_20260614_171502.md", delta) == "2026-06-15_x_20260615_171502.md"
    )
    assert (
        shift_dates("version 2026-13-45 and 2026-02-28", delta)
        == "version 2026-13-45 and 2026-03-01"
    )


def test_writing_into_a_non_empty_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "keep.txt").write_text("mine")
    try:
        write_demo(tmp_path / "x", TODAY)
    except FileExistsError as error:
        assert "not empty" in str(error)
    else:
        raise AssertionError("the demo overwrote a folder in use")
    assert (tmp_path / "x" / "keep.txt").read_text() == "mine"

"""Dismissed pairs: remembered per tree in the app's state folder, judged again once a file
changes, and a damaged or hostile file is none with one message, never a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from samantha_tui.core.views.dismissals import Dismissed, dismissal
from samantha_tui.core.views.meaning import CONFLICT, DUPLICATE
from samantha_tui.core.writing import dismissed_pairs
from samantha_tui.core.writing.dismissed_pairs import dismiss, dismissed_path, load, load_for

A, B = ".ai/short-term-memory/.ai/a.md", ".ai/short-term-memory/.ai/b.md"
PAIR = dismissal(B, "digest-b", A, "digest-a", CONFLICT, "2026-06-14")


def test_a_dismissal_puts_its_paths_in_order_and_holds_only_for_the_same_contents() -> None:
    assert (PAIR.first, PAIR.first_digest, PAIR.second) == (A, "digest-a", B)
    dismissed = Dismissed([PAIR])
    assert dismissed.holds(A, "digest-a", B, "digest-b", CONFLICT)
    assert dismissed.holds(B, "digest-b", A, "digest-a", CONFLICT)
    assert not dismissed.holds(A, "edited", B, "digest-b", CONFLICT)
    assert not dismissed.holds(A, "digest-a", B, "digest-b", DUPLICATE)


def test_dismissals_last_across_runs_in_the_state_folder_never_in_the_tree(
    tmp_path: Path,
) -> None:
    root = tmp_path / "tree"
    (root / ".ai").mkdir(parents=True)
    changed = dismiss(root, PAIR)
    assert changed.messages == () and changed.dismissals == (PAIR,)
    path = dismissed_path(root)
    state = Path(os.environ["SAMANTHA_TUI_STATE"]).parent
    assert path.parent == state / "dismissed-pairs" and path.is_file()
    assert not any(p.name.endswith(".json") for p in root.rglob("*"))
    assert load_for(root).dismissals == (PAIR,)
    # Another tree has its own.
    other = tmp_path / "other"
    other.mkdir()
    assert dismissed_path(other) != path and load_for(other).dismissals == ()
    # Dismissed twice is kept once; forgotten, the pair is judged again.
    dismiss(root, PAIR)
    assert load_for(root).dismissals == (PAIR,)
    assert dismissed_pairs.undismiss(root, PAIR).dismissals == ()
    assert load_for(root).dismissals == ()


def test_only_the_newest_are_kept_past_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dismissed_pairs, "MAX_PAIRS", 2)
    days = ("2026-06-01", "2026-06-03", "2026-06-02")
    made = [dismissal(A, f"a{n}", B, "b", DUPLICATE, day) for n, day in enumerate(days)]
    for each in made:
        dismiss(tmp_path, each)
    assert {d.day for d in load_for(tmp_path).dismissals} == {"2026-06-02", "2026-06-03"}


def _written(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


GOOD = {"version": 1, "root": "/x", "pairs": [
    {"first": A, "second": B, "verdict": CONFLICT, "first_digest": "a",
     "second_digest": "b", "day": "2026-06-14"},
]}  # fmt: skip


def _with(**changes: object) -> bytes:
    pair = {**GOOD["pairs"][0], **changes}  # type: ignore[index]
    return json.dumps({**GOOD, "pairs": [pair]}).encode()


HOSTILE = {
    "not JSON": (b"{not json", "not valid JSON"),
    "not UTF-8": (b"\xff\xfe{}", "not UTF-8"),
    "a list": (b"[]", "shape"),
    "another version": (json.dumps({**GOOD, "version": 9}).encode(), "shape"),
    "pairs not a list": (json.dumps({**GOOD, "pairs": {"a": 1}}).encode(), "shape"),
    "a number for a path": (_with(first=7), "shape"),
    "an extra key": (_with(extra="x"), "shape"),
    "paths out of order": (_with(first=B, second=A), "shape"),
    "nested too deep": (b"[" * 5000 + b"]" * 5000, "not valid JSON"),
    "huge": (b" " * (dismissed_pairs.LIMIT + 1), "more than this app ever writes"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_damaged_or_hostile_file_is_none_and_one_message(tmp_path: Path, case: str) -> None:
    data, said = HOSTILE[case]
    path = _written(tmp_path / "d.json", data)
    loaded = load(path)
    assert loaded.dismissals == ()
    assert loaded.message is not None and said in loaded.message and str(path) in loaded.message
    assert len(loaded.dismissed) == 0


def test_the_good_shape_reads(tmp_path: Path) -> None:
    loaded = load(_written(tmp_path / "d.json", json.dumps(GOOD).encode()))
    assert loaded.message is None
    assert loaded.dismissed.holds(A, "a", B, "b", CONFLICT)


def test_a_damaged_file_is_replaced_by_the_next_dismissal(tmp_path: Path) -> None:
    path = _written(dismissed_path(tmp_path), b"garbage")
    changed = dismiss(tmp_path, PAIR)
    assert len(changed.messages) == 1 and "not valid JSON" in changed.messages[0]
    assert load(path).dismissals == (PAIR,)


def test_a_link_or_a_pipe_in_its_place_is_neither_read_nor_written_over(tmp_path: Path) -> None:
    path = dismissed_path(tmp_path)
    path.parent.mkdir(parents=True)
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps(GOOD))
    path.symlink_to(target)
    assert "symbolic link" in (load(path).message or "")
    changed = dismiss(tmp_path, PAIR)
    assert any("not saved" in m for m in changed.messages)
    assert json.loads(target.read_text()) == GOOD
    path.unlink()
    os.mkfifo(path)
    assert "named pipe" in (load(path).message or "")

"""Sessions awaiting `samantha-llm subconscious merge`: what the merge writes, and the warning when
a memory about to be trashed is one it writes again, in the curation rules' reasons, their
confirmations and `review` (core/reading/subconscious.py)."""

from __future__ import annotations

import json
from pathlib import Path

from samantha_tui.cli import main
from samantha_tui.core.reading import subconscious
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import edits, impact

from ..awaiting_merge import SESSIONS, SID, STAGED, WANTED, X, finalized, note, store_of
from ..conftest import ST, TODAY


def test_a_trashed_finalized_memory_comes_back_named_by_its_session(tmp_path: Path) -> None:
    tree = finalized(tmp_path).tree
    [back] = subconscious.comes_back(tree, [X, f"{ST}/2026-11-29_y.md"])
    assert (back.path, back.session) == (X, SID)
    assert back.sentence() == WANTED


def test_the_tie_is_the_name_in_the_short_term_folder_itself(tmp_path: Path) -> None:
    tree = finalized(tmp_path, {f"{ST}/sub/2026-11-28_z.md": note("z")}).tree
    assert subconscious.comes_back(tree, [f"{ST}/sub/2026-11-28_z.md"]) == []
    assert subconscious.comes_back(tree, [f"{ST}/2026-11-29_y.md"]) == [], "still processing"


def test_a_merge_copy_of_a_waiting_session_comes_back_too(tmp_path: Path) -> None:
    copy = f"{ST}/2026-11-28_x_{SID}.md"
    tree = finalized(tmp_path, {copy: note("x", importance="low")}).tree
    assert [b.path for b in subconscious.comes_back(tree, [copy])] == [copy]
    # Both trashed: the merge writes x under its own name, not the copy.
    assert [b.path for b in subconscious.comes_back(tree, [copy, X])] == [X]


def test_merge_plan_says_what_the_merge_writes(tmp_path: Path) -> None:
    tree = finalized(tmp_path, {f"{ST}/2026-11-28_x_{SID}.md": note("x")}).tree
    [merge] = subconscious.merge_plan(tree)
    assert merge.id == SID
    assert [(c.name, c.target_name, c.renamed, c.replaces) for c in merge.copies] == [
        ("2026-11-28_x.md", f"2026-11-28_x_{SID}.md", True, True),
        ("2026-11-28_z.md", "2026-11-28_z.md", False, False),
    ]
    assert subconscious.explain(merge) == [
        "2026-11-28_x.md is in short-term memory already (the worker's finalize copied it): "
        f"the merge adds a second copy, 2026-11-28_x_{SID}.md, over the 2026-11-28_x_{SID}.md "
        "there.",
        "2026-11-28_z.md is not in short-term memory (trashed since, or never finalized): "
        "the merge copies it in as 2026-11-28_z.md.",
        f"Then the session moves to .ai/subconscious/.ai/processed/{SID}; its guidance and "
        "procedural observations go into guidance.md and the runbooks.",
    ]


def test_prune_names_the_session_in_its_reason_and_its_confirmation(tmp_path: Path) -> None:
    tree = finalized(tmp_path).tree
    prune = lifecycle.prune(tree)
    reasons = {c.path: c.reason for c in prune.candidates}
    assert reasons[X].endswith(f"; comes back on merge of session {SID}")
    assert "comes back" not in reasons[f"{ST}/2026-11-29_y.md"]
    lines = impact.describe(impact.combine([prune], {"prune": [X]}), tree)
    assert lines[0].startswith("Prune 1 memory to the trash")
    assert lines[1] == WANTED + "."
    assert "subconscious merge` first" in lines[2]


def test_dedupe_names_the_session_when_the_copy_it_drops_comes_back(tmp_path: Path) -> None:
    body = "Same words in both notes, " * 8
    store = finalized(
        tmp_path,
        {
            X: note("x", body=body),
            f"{STAGED}/2026-11-28_x.md": note("x", body=body),
            f"{ST}/2026-11-20_x_kept.md": note("x", refs=4, body=body),
        },
    )
    dedupe = lifecycle.dedupe(store.tree)
    [candidate] = [c for c in dedupe.candidates if c.path == X]
    assert candidate.reason.endswith(f"; comes back on merge of session {SID}")
    lines = impact.describe(impact.combine([dedupe], {"dedupe": [X]}), store.tree)
    assert WANTED + "." in lines


def test_a_promotion_trashes_the_short_term_file_so_the_warning_holds(tmp_path: Path) -> None:
    x = note("x", refs=6)
    tree = finalized(tmp_path, {X: x, f"{STAGED}/2026-11-28_x.md": x}).tree
    promote = lifecycle.promote(tree, TODAY)
    [candidate] = [c for c in promote.candidates if c.path == X]
    assert candidate.reason == f"referenced 6 times; comes back on merge of session {SID}"
    assert WANTED + "." in impact.describe(impact.combine([promote], {"promote": [X]}), tree)


def test_nothing_is_said_without_a_session_awaiting_merge(tmp_path: Path) -> None:
    store = store_of(tmp_path, {X: note("x", importance="low")})
    assert subconscious.comes_back(store.tree, [X]) == []
    plan = edits.delete([store.get(X)])
    assert impact.describe(plan, store.tree) == [
        "Move 1 memory to the trash: 0 critical, referenced 0 times in total."
    ]


def test_review_prints_what_the_merge_will_do(tmp_path: Path, capsys) -> None:
    store = finalized(tmp_path)
    assert main(["review", str(store.root)]) == 0
    out = capsys.readouterr().out
    assert f"  {SESSIONS}/{SID}  (2 memories)" in out
    assert "    2026-11-28_x.md is in short-term memory already" in out
    assert f"the merge adds a second copy, 2026-11-28_x_{SID}.md." in out
    assert main(["review", str(store.root), "--json"]) == 0
    [session] = json.loads(capsys.readouterr().out)["sessions awaiting merge"]
    assert session["merge writes"][0] == {
        "staged": f"{STAGED}/2026-11-28_x.md",
        "target": f"{ST}/2026-11-28_x_{SID}.md",
        "replaces": False,
    }
    assert len(session["explanation"]) == 3

"""Sessions awaiting `samantha-llm subconscious merge`: what the merge writes, and the warning when
a memory about to be trashed is one it writes again (core/reading/subconscious.py and where it
shows)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console
from textual.widgets import Static

from samantha_tui.cli import main
from samantha_tui.core.reading import subconscious
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import edits, impact
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen

from ..conftest import ST, TODAY, make_tree
from ..pilot import settle
from .test_review_screen import open_review, show

SESSIONS = ".ai/subconscious/.ai/sessions"
SID = "20261128_140000"
STAGED = f"{SESSIONS}/{SID}/memories"
X = f"{ST}/2026-11-28_x.md"
WANTED = (
    "2026-11-28_x.md will come back: session 20261128_140000 is complete and not merged yet; "
    "its merge copies it again"
)


def note(title: str, importance: str = "medium", refs: int = 0, body: str = "") -> str:
    return (
        f"---\ndate: 2026-05-01\ntopics: [ci]\nimportance: {importance}\n"
        f"reference_count: {refs}\nsession_id: {SID}\n---\n\n# {title}\n\n"
        f"{body or f'What the session of {title} found.'}\n"
    )


def status(state: str) -> str:
    return json.dumps({"status": state, "session_id": SID})


def store_of(tmp_path: Path, files: dict[str, str]) -> Store:
    store = Store(make_tree(tmp_path / "cerebrum", files), lambda: TODAY)
    store.scan()
    return store


def finalized(tmp_path: Path, extra: dict[str, str] | None = None) -> Store:
    """A session the worker finalized (its x is in short-term memory too) and marked complete,
    staging a second file (z) that is not in short-term memory; and a session still processing."""
    x = note("x", importance="low")
    files = {
        X: x,
        f"{STAGED}/2026-11-28_x.md": x,
        f"{STAGED}/2026-11-28_z.md": note("z"),
        f"{SESSIONS}/{SID}/status.json": status("complete"),
        f"{ST}/2026-11-29_y.md": note("y", importance="low"),
        f"{SESSIONS}/20261129_090000/memories/2026-11-29_y.md": note("y", importance="low"),
        f"{SESSIONS}/20261129_090000/status.json": status("processing"),
    }
    return store_of(tmp_path, files | (extra or {}))


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
    assert lines[0].startswith("Move 1 memory to the trash")
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


async def test_the_delete_confirmation_names_the_session(tmp_path: Path) -> None:
    store = finalized(tmp_path)
    app = SamanthaApp(store.root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.table.select_key(X)
        await settle(pilot)
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert WANTED + "." in dialog._lines


async def test_the_sessions_tab_explains_the_merge(tmp_path: Path) -> None:
    store = finalized(tmp_path)
    app = SamanthaApp(store.root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        await show(pilot, screen, "sessions")
        console = Console(width=300, record=True, file=io.StringIO())
        console.print(screen.query_one("#review-note", Static).content)
        text = console.export_text()
        assert "What samantha-llm subconscious merge will do" in text
        assert f"the merge adds a second copy, 2026-11-28_x_{SID}.md." in text
        assert "the merge copies it in as 2026-11-28_z.md." in text

"""Removing what only the index holds is a decision: its plan says the assistant forgets it, and
names every pending project update and runbook signal that depends on it; the CLI lists the
same and removes nothing without --yes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from ..conftest import TASKS, TODAY
from ..pending_updates import update
from ..samantha_llm_tree import PROC, PROC_INDEX, _dump, _json, _project, root

__all__ = ["root"]  # the fixture, from samantha_llm_tree.py

PENDING = f"{TASKS}/pending-updates"
WAITING = f"{PENDING}/20260614_165930_infra-notes.json"
ELSEWHERE = f"{PENDING}/20260614_170000_Gateway Refactor.json"
SESSION = ".ai/subconscious/.ai/sessions/20260613_090000"
# A runbook entry whose file is gone: its triggers live in the index alone.
GONE_RUNBOOK = {
    "file": "deploy-old.md",
    "domain": "deploy-old",
    "summary": "How deploys went before the move.",
    "triggers": {
        "positive": {"repo_signals": ["deployer"], "keyword_signals": ["rollback"]},
        "negative": [{"signal": "docs/", "reason": "docs only"}],
    },
    "confidence": "low",
    "corrections_count": 0,
}
FORGETS = "known only to the index: the assistant forgets it"


@pytest.fixture
def tree(root: Path) -> Path:
    """The samantha-llm tree, with a pending update for the index-only project, one for a
    project with a folder, a runbook entry with no file, and a session awaiting merge that
    observed that runbook's domain."""
    (root / PENDING).mkdir(parents=True)
    (root / WAITING).write_text(update("infra-notes", {"status": "Phase 2"}))
    (root / ELSEWHERE).write_text(update("Gateway Refactor", {"status": "Phase 3"}))
    proc = json.loads(_dump(PROC_INDEX))
    proc["runbooks"].append(GONE_RUNBOOK)
    (root / PROC / "index.json").write_text(_dump(proc))
    (root / SESSION / "procedural").mkdir(parents=True)
    (root / SESSION / "status.json").write_text(json.dumps({"status": "complete"}))
    observed = {
        "session_had_procedural_patterns": True,
        "observations": [{"domain": "deploy-old", "suggested_triggers": {"path_signals": ["ci/"]}}],
    }
    (root / SESSION / "procedural" / "procedural_20260613_090000.json").write_text(
        json.dumps(observed)
    )
    return root


def _reasons(root: Path) -> dict[str, list[str]]:
    store = Store(root, lambda: TODAY)
    curator = Curator(store)
    curator.load()
    plan = curator.index_plan(remove_stale=True)
    return {op.path: op.reason.splitlines() for op in plan.operations}


def test_an_index_only_project_is_named_as_forgotten_with_its_pending_update(tree: Path) -> None:
    lines = _reasons(tree)[f"{TASKS}/index.json"]
    assert f"removed infra-notes (active): {FORGETS}" in lines
    assert (
        f"  pending update {WAITING} waits for infra-notes: `samantha-llm projects review`"
        " finds no entry of that name and cannot apply it"
    ) in lines
    # The update for a project that stays is no concern of this removal.
    assert not any("Gateway Refactor" in line for line in lines)
    assert not any("tied to no file" in line for line in lines)


def test_a_runbook_entry_with_no_file_names_its_signals_and_the_session_that_observed_it(
    tree: Path,
) -> None:
    lines = _reasons(tree)[f"{PROC}/index.json"]
    at = lines.index(f"removed deploy-old.md (runbooks): {FORGETS}")
    assert lines[at + 1] == (
        "  its trigger signals go with it (the assistant loads the runbook by them):"
        " repo: deployer; keyword: rollback; negative: docs/"
    )
    assert lines[at + 2] == (
        "  session 20260613_090000 awaits merge with observations for deploy-old: its merge"
        " finds no runbook entry of that domain and drops the trigger signals it observed"
    )
    # The runbook with a file keeps its entry, and is named nowhere.
    assert not any("db-infra" in line for line in lines)


def test_a_session_without_procedural_patterns_is_not_named(tree: Path) -> None:
    observed = tree / SESSION / "procedural" / "procedural_20260613_090000.json"
    data = json.loads(observed.read_text())
    data["session_had_procedural_patterns"] = False
    observed.write_text(json.dumps(data))
    lines = _reasons(tree)[f"{PROC}/index.json"]
    assert not any("awaits merge" in line for line in lines)


def test_an_update_whose_project_stays_under_the_same_name_is_not_named(tree: Path) -> None:
    tasks = _json(tree, TASKS)
    # A second entry of that name, tied to a folder by its files: `projects review` finds it.
    tasks["recently_completed"] = [{"name": "infra-notes", "files": ["gateway/status.md"]}]
    (tree / TASKS / "index.json").write_text(_dump(tasks))
    lines = _reasons(tree)[f"{TASKS}/index.json"]
    assert f"removed infra-notes (active): {FORGETS}" in lines
    assert not any("pending update" in line for line in lines)


def test_the_cli_lists_the_same_and_removes_nothing_without_yes(tree: Path, capsys) -> None:
    before = {p: p.read_bytes() for p in tree.rglob("index.*")}
    assert main(["index", "--remove-stale", str(tree)]) == 0
    out = capsys.readouterr().out
    assert f"  removed infra-notes (active): {FORGETS}" in out
    assert f"    pending update {WAITING} waits for infra-notes" in out
    assert f"  removed deploy-old.md (runbooks): {FORGETS}" in out
    assert "repo: deployer; keyword: rollback; negative: docs/" in out
    assert "session 20260613_090000 awaits merge" in out
    assert "2 entries known only to the index would be removed" in out
    assert "run again with --yes to remove them" in out
    assert {p: p.read_bytes() for p in tree.rglob("index.*")} == before


def test_the_cli_removes_them_with_yes_and_leaves_the_update_it_named(tree: Path, capsys) -> None:
    assert main(["index", "--remove-stale", "--yes", str(tree)]) == 0
    out = capsys.readouterr().out
    assert "2 entries known only to the index removed" in out
    assert _project(tree, "infra-notes") is None
    assert [r["file"] for r in _json(tree, PROC)["runbooks"]] == ["db-infra.md"]
    # The update is the person's to settle (`projects review` or the trash): never deleted here.
    assert (tree / WAITING).is_file()

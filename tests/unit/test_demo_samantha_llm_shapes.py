"""The bundled demo holds what samantha-llm's own code leaves in a tree, and samantha-tui keeps it.

Each shape here was checked against samantha-llm's source: the project-state analyzer names its
pending update `<session id>_<project>.json` and writes its confidence as a word; the worker's
finalize step copies a session's memories into short-term memory before it marks the session
complete; its `projects` commands go by an entry's `name` alone, so an index-only project is real;
its merge adds trigger signals to the procedural index.json only; the assistant appends to index.md
by hand. `samantha-tui index` on the demo keeps every one of them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.cli import main
from samantha_tui.core.reading import subconscious
from samantha_tui.core.reading.triggers import read_triggers
from samantha_tui.core.views import lifecycle
from samantha_tui.core.views.bootstrap import Signals, Tier, plan
from samantha_tui.core.writing.door import apply
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TASKS, TODAY
from ..demo_session import SID

PROC = ".ai/procedural-memory/.ai"
SESSION = f".ai/subconscious/.ai/sessions/{SID}"
PENDING = f"{TASKS}/pending-updates"
PYTHON_TESTING = f"{PROC}/python-testing.md"
APPENDED = (
    "\n## Notes from the assistant\n\n"
    "- Dana reviews PRs on Tuesday and Thursday mornings; send gateway PRs by Monday evening.\n"
    "- Ask before running anything against `billing-svc` staging: finance uses it for month-end"
    " checks.\n"
)


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _pending_file(root: Path) -> Path:
    [path] = sorted((root / PENDING).glob("*.json"))
    return path


def _project(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(
        e for section in ("active", "blocked", "recently_completed")
        for e in data.get(section, []) if e.get("name") == name
    )  # fmt: skip


def _runbook_entry(root: Path, file: str) -> dict[str, Any]:
    data = _json(root / PROC / "index.json")
    return next(r for r in data["runbooks"] if r["file"] == file)


def _file_signals(store: Store, path: str) -> set[str]:
    triggers = read_triggers(store.get(path).frontmatter.get("triggers"))
    return {s for signals in triggers.positive.values() for s in signals}


def _index_signals(entry: dict[str, Any]) -> set[str]:
    return {s for signals in entry["triggers"]["positive"].values() for s in signals}


# --- 1. the pending update, as the project-state analyzer writes it ---------------------------


def test_the_pending_update_is_named_and_worded_as_the_analyzer_writes_it(demo_root: Path) -> None:
    path = _pending_file(demo_root)
    text = path.read_text(encoding="ascii")
    data = json.loads(text)
    assert path.name == f"{data['session_id']}_{data['project_name']}.json"
    assert data["session_id"] == SID and (demo_root / SESSION).is_dir()
    assert text == json.dumps(data, indent=2), "json.dumps(indent=2): ASCII, no final newline"
    # The analyzer's rule: 5+ pieces of evidence say high, 3+ medium, else low.
    evidence = data["evidence"]
    assert data["confidence"] == "high" and len(evidence) >= 5
    assert data["reasoning"].startswith(
        f"Detected {len(evidence)} pieces of evidence suggesting project state change. "
        "Confidence level: high."
    )
    assert set(data["proposed_changes"]) == {"status", "recent_progress", "summary"}
    # Its status proposal is the current status with a check mark appended.
    current = _project(_json(demo_root / TASKS / "index.json"), "api-gateway-refactor")
    assert data["proposed_changes"]["status"] == current["status"] + " \u2705"


def test_applying_the_demo_update_sets_the_summary_too(demo_root: Path) -> None:
    store = Store(demo_root, lambda: TODAY)
    store.scan()
    [update] = store.tree.pending_updates
    assert (update.confidence, update.confidence_text, update.session_id) == ("high", "high", SID)
    proposal = lifecycle.pending_updates(store.tree)
    [candidate] = proposal.candidates
    assert "high confidence" in candidate.reason and "summary: " in candidate.reason
    proposed = _json(_pending_file(demo_root))["proposed_changes"]
    apply(store, proposal.plan())
    entry = _project(_json(demo_root / TASKS / "index.json"), "api-gateway-refactor")
    assert entry["summary"] == proposed["summary"]
    assert entry["status"] == proposed["status"]
    assert not list((demo_root / PENDING).glob("*.json"))


# --- 2. the staged session, finalized -------------------------------------------------------


def test_the_staged_memories_are_already_in_short_term_memory(demo_root: Path) -> None:
    assert _json(demo_root / SESSION / "status.json")["status"] == "complete"
    staged = sorted((demo_root / SESSION / "memories").glob("*.md"))
    assert len(staged) == 2
    for path in staged:
        assert (demo_root / ST / path.name).read_bytes() == path.read_bytes(), path.name
        text = path.read_text(encoding="utf-8")
        # The generator writes `project:` from the workspace folder's name, and the analyzer
        # proposes an update only for a project named like the workspace.
        workspace = re.search(r"- \*\*Workspace\*\*: (\S+)", text).group(1)
        assert f"\nproject: {workspace.rsplit('/', 1)[-1]}\n" in text
    tree = Store(demo_root, lambda: TODAY).scan()
    [merge] = subconscious.merge_plan(tree)
    assert [(c.name, c.target_name, c.renamed) for c in merge.copies] == [
        (p.name, f"{p.stem}_{SID}.md", True) for p in staged
    ]


# --- 3, 4, 5. state only the indexes hold ----------------------------------------------------


def test_the_tasks_index_holds_a_project_with_no_folder(demo_root: Path) -> None:
    data = _json(demo_root / TASKS / "index.json")
    entry = _project(data, "infra-notes")
    assert entry in data["active"] and data["active_count"] == len(data["active"])
    assert entry["status"] and entry["summary"] and entry["recent_progress"]
    assert not (demo_root / TASKS / "infra-notes").exists()
    assert not (demo_root / ".ai/work-experience/.ai/infra-notes").exists()


def test_a_runbook_loads_through_a_signal_only_the_index_has(demo_root: Path) -> None:
    store = Store(demo_root, lambda: TODAY)
    store.scan()
    index_only = _index_signals(_runbook_entry(demo_root, "python-testing.md")) - _file_signals(
        store, PYTHON_TESTING
    )
    assert index_only == {"golden tests"}
    signals = Signals(keywords=("golden tests",), paths=("tests/golden/test_routes.py",))
    result = plan(store.tree, signals, TODAY)
    [item] = [i for i in result.items if i.tier is Tier.RUNBOOK]
    assert (item.path, item.reason) == (PYTHON_TESTING, "runbook: path + keyword signals matched")
    assert item.disagreements == (
        "loads through index-only signals: keyword_signals golden tests (not in the runbook file)",
    )


def test_the_short_term_index_md_ends_with_the_assistants_own_section(demo_root: Path) -> None:
    text = (demo_root / ST / "index.md").read_text(encoding="utf-8")
    assert text.endswith(APPENDED)


def test_index_keeps_what_only_the_indexes_hold_byte_for_byte(
    demo_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = (demo_root / TASKS / "index.json").read_text(encoding="utf-8")
    # The entry's own text, as the assistant left it (json.dumps(indent=2), inside `active`).
    infra = json.dumps(_project(json.loads(tasks), "infra-notes"), indent=2)
    infra = "\n".join("    " + line for line in infra.splitlines())
    assert infra in tasks
    runbook = _runbook_entry(demo_root, "python-testing.md")
    assert main(["index", str(demo_root)]) == 0
    out = capsys.readouterr().out
    assert "kept infra-notes under active: it has no file of its own" in out
    assert infra in (demo_root / TASKS / "index.json").read_text(encoding="utf-8")
    after = _runbook_entry(demo_root, "python-testing.md")
    assert after["triggers"] == runbook["triggers"]
    assert '"golden tests"' in (demo_root / PROC / "index.json").read_text(encoding="utf-8")
    assert (demo_root / ST / "index.md").read_text(encoding="utf-8").endswith(APPENDED)
    # The indexes now match the files, and a second run keeps all of it again.
    assert main(["index", "--check", "--tree", str(demo_root)]) == 0
    before = {p: p.read_bytes() for p in demo_root.rglob("index.*")}
    assert main(["index", str(demo_root)]) == 0
    assert {p: p.read_bytes() for p in demo_root.rglob("index.*")} == before

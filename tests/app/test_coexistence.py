"""Living beside samantha-llm: its index state survives every write samantha-tui makes.

The trees hold what samantha-llm's own code leaves (verified against it): a current-tasks project
with no folder, one whose `name` differs from its folder, trigger signals its merge put into the
procedural index only, a section the assistant appended to index.md, and frontmatter strict YAML
refuses. After `index`, each curation command, `set`, and the app's own changes, every entry, key,
list item and line that does not belong to the changed memory is what it was.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.cli import main
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen

from ..conftest import ST, TASKS, TODAY, make_tree
from ..pilot import settle, until
from ..watching import watches_made

PROC = ".ai/procedural-memory/.ai"
GATEWAY = f"{TASKS}/gateway/status.md"
RUNBOOK = f"{PROC}/db-infra.md"
MEMO = f"{ST}/2026-06-10_cache_rule.md"
WIP = f"{ST}/2026-06-12_wip_csv_encoding.md"
APPENDED = "\n## Notes from the assistant\n\n- Ask Dana before touching billing.\n"

# The current-tasks index as samantha-llm keeps it: an entry named unlike its folder, and a
# project that lives in the index alone (its readers go by `name`).
TASKS_INDEX = {
    "last_updated": "2026-06-14",
    "active_count": 2,
    "active": [
        {
            "name": "Gateway Refactor",
            "status": "Phase 2 - routing done",
            "started": "2026-03-30",
            "summary": "Envoy in front of every service.",
            "files": ["gateway/status.md"],
            "topics": ["api"],
            "recent_progress": "Route table v2 live for quotes-svc.",
        },
        {
            "name": "infra-notes",
            "status": "Ongoing",
            "summary": "Notes kept by the assistant.",
            "files": [],
            "topics": ["infra"],
        },
    ],
    "blocked": [],
    "recently_completed": [],
}
# A runbook entry holding a path signal and a negative signal that only the index has: the merge
# of samantha-llm adds them there, and the assistant loads the runbook from them.
PROC_INDEX = {
    "last_updated": "2026-06-14",
    "total_runbooks": 1,
    "runbooks": [
        {
            "file": "db-infra.md",
            "domain": "db-infra",
            "summary": "How to change the database layer.",
            "triggers": {
                "positive": {
                    "repo_signals": ["db-infra"],
                    "path_signals": ["migrations/", "src/db/"],
                },
                "negative": [{"signal": "docs/", "reason": "docs only", "added": "2026-06-01"}],
            },
            "confidence": "medium",
            "corrections_count": 0,
        }
    ],
    "loading_strategy": {"minimum_positive_categories": 2, "negative_signals_are_veto": True},
}


def _status(status: str = "active") -> str:
    return (
        f"---\ndate: 2026-03-30\ntopics: [api]\nstatus: {status}\n---\n\n# Gateway\n\n"
        "Envoy in front of every service.\n"
    )


RUNBOOK_TEXT = (
    "---\ndate: 2026-05-01\ntopics: [db]\ntype: runbook\ndomain: db-infra\nconfidence: medium\n"
    "triggers:\n  positive:\n    repo_signals: [db-infra]\n    path_signals: [migrations/]\n"
    "  negative: []\n---\n\n# DB infra\n\nHow to change the database layer.\n"
)


def _dump(data: Any) -> str:
    # As samantha-llm writes its indexes: json.dump(indent=2), no final newline.
    return json.dumps(data, indent=2)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    files = {
        GATEWAY: _status(),
        RUNBOOK: RUNBOOK_TEXT,
        MEMO: "---\ndate: 2026-06-10\ntopics: [cache]\nimportance: medium\n---\n\n"
        "# Cache rule\n\nCache keys hash the lock file.\n",
        # samantha-llm's generator wrote this: strict YAML refuses the topics line.
        WIP: "---\ndate: 2026-06-12\ntopics: [[wip]_csv_encoding, billing]\nimportance: high\n"
        "type: decision\n---\n\n# [WIP] CSV encoding\n\nExports write UTF-8 with a BOM.\n",
        f"{TASKS}/index.json": _dump(TASKS_INDEX),
        f"{PROC}/index.json": _dump(PROC_INDEX),
    }
    root = make_tree(tmp_path / "cerebrum", files)
    # A first `index` writes what the files give; then the assistant appends to index.md.
    assert main(["index", str(root)]) == 0
    for folder in (ST, TASKS, PROC):
        md = root / folder / "index.md"
        md.write_bytes(md.read_bytes() + APPENDED.encode())
    return root


def _json(root: Path, folder: str) -> dict[str, Any]:
    return json.loads((root / folder / "index.json").read_bytes())


def _project(root: Path, name: str) -> dict[str, Any] | None:
    data = _json(root, TASKS)
    for section in ("active", "blocked", "recently_completed"):
        for entry in data.get(section, []):
            if entry.get("name") == name:
                return entry
    return None


def _held_by_samantha_llm(root: Path) -> None:
    """What samantha-llm keeps only in its indexes is all still there."""
    assert _project(root, "infra-notes") == TASKS_INDEX["active"][1]
    gateway = _project(root, "Gateway Refactor")
    assert gateway is not None and gateway["recent_progress"].startswith("Route table v2")
    (runbook,) = _json(root, PROC)["runbooks"]
    assert "src/db/" in runbook["triggers"]["positive"]["path_signals"]
    assert runbook["triggers"]["negative"][0]["signal"] == "docs/"
    for folder in (ST, TASKS, PROC):
        assert APPENDED in (root / folder / "index.md").read_text()


def _short_entries(root: Path) -> dict[str, list[dict]]:
    data = _json(root, ST)
    found: dict[str, list[dict]] = {}
    for section in ("critical", "high_priority"):
        for entry in data.get(section, []):
            found.setdefault(entry["file"], []).append(entry)
    for group in ("high_importance", "medium_importance"):
        for entry in data["recent"][group]:
            found.setdefault(entry["file"], []).append(entry)
    return found


def test_index_keeps_everything_samantha_llm_holds_and_indexes_what_it_reads(root: Path) -> None:
    _held_by_samantha_llm(root)
    # The memory strict YAML refuses is indexed as samantha-llm reads it.
    assert "2026-06-12_wip_csv_encoding.md" in _short_entries(root)
    before = {p: p.read_bytes() for p in root.rglob("index.*")}
    assert main(["index", str(root)]) == 0
    assert {p: p.read_bytes() for p in root.rglob("index.*")} == before, "a second run is quiet"
    assert main(["index", "--check", str(root)]) == 0


def test_set_patches_only_its_memory_entries(root: Path, capsys) -> None:
    others = {k: v for k, v in _short_entries(root).items() if k != MEMO.rsplit("/", 1)[1]}
    assert main(["set", str(root / MEMO), "critical=true", "--keep-updated"]) == 0
    out = capsys.readouterr().out
    assert f"{ST}/index.json: entry patched" in out
    data = _json(root, ST)
    assert [e["file"] for e in data["critical"]] == ["2026-06-10_cache_rule.md"]
    assert {k: v for k, v in _short_entries(root).items() if k in others} == others
    _held_by_samantha_llm(root)
    assert main(["index", "--check", str(root)]) == 0


def test_set_no_index_leaves_the_indexes_alone(root: Path) -> None:
    before = {p: p.read_bytes() for p in root.rglob("index.*")}
    assert main(["set", str(root / MEMO), "critical=true", "--no-index"]) == 0
    assert {p: p.read_bytes() for p in root.rglob("index.*")} == before


def test_a_renamed_project_keeps_its_name_through_an_edit_and_completion(root: Path) -> None:
    assert main(["set", str(root / GATEWAY), "topics=[api, envoy]", "--keep-updated"]) == 0
    gateway = _project(root, "Gateway Refactor")
    assert gateway is not None and gateway["topics"] == ["api", "envoy"]
    assert _project(root, "gateway") is None, "never a second entry under the folder's name"
    assert main(["complete", str(root), "--yes", "--project", "gateway"]) == 0
    data = _json(root, TASKS)
    assert [e["name"] for e in data["active"]] == ["infra-notes"]
    assert [e["name"] for e in data["recently_completed"]] == ["Gateway Refactor"]
    assert data["recently_completed"][0]["recent_progress"].startswith("Route table v2")


def test_a_runbook_edit_keeps_the_signals_only_the_index_has(root: Path) -> None:
    assert main(["set", str(root / RUNBOOK), "confidence=high", "--keep-updated"]) == 0
    (runbook,) = _json(root, PROC)["runbooks"]
    assert runbook["confidence"] == "high"
    assert runbook["triggers"]["positive"]["path_signals"] == ["migrations/", "src/db/"]
    _held_by_samantha_llm(root)


def test_the_app_changes_patch_and_undo_keeps_the_rest(root: Path) -> None:
    store = Store(root, lambda: TODAY)
    curator = Curator(store)
    curator.load()
    tasks_before = (root / TASKS / "index.json").read_bytes()
    for path in (MEMO, WIP, RUNBOOK, GATEWAY):
        curator.apply(edits.toggle_critical(curator.get(path)))
        _held_by_samantha_llm(root)
        curator.undo()
        _held_by_samantha_llm(root)
    assert (root / TASKS / "index.json").read_bytes() == tasks_before
    assert main(["index", "--check", str(root)]) == 0


def test_removing_entries_tied_to_no_file_is_listed_then_done_only_when_asked(
    root: Path, capsys
) -> None:
    before = (root / TASKS / "index.json").read_bytes()
    assert main(["index", "--remove-stale", str(root)]) == 0
    out = capsys.readouterr().out
    assert "removed infra-notes (active): tied to no file" in out
    assert "run again with --yes" in out
    assert (root / TASKS / "index.json").read_bytes() == before
    short_before = (root / ST / "index.json").read_bytes()
    assert main(["index", "--remove-stale", "--yes", str(root)]) == 0
    assert _project(root, "infra-notes") is None
    assert _project(root, "Gateway Refactor") == json.loads(before)["active"][0]
    md = (root / TASKS / "index.md").read_text()
    assert "### infra-notes" not in md and "### Gateway Refactor" in md
    assert md.endswith(APPENDED)
    # Only what is tied to no file goes; nothing else is brought in step by it.
    assert (root / ST / "index.json").read_bytes() == short_before


def test_the_worker_appending_beside_the_app_is_never_overwritten(root: Path) -> None:
    """samantha-llm's worker adds a memory and its own index lines while the app is open."""
    curator = Curator(Store(root, lambda: TODAY))
    curator.load()
    new = f"{ST}/2026-06-14_worker_memory.md"
    (root / new).write_text("---\ndate: 2026-06-14\ntopics: [x]\n---\n\n# Worker\n\nFrom it.\n")
    index = _json(root, ST)
    index["recent"]["medium_importance"].insert(0, {"file": new.rsplit("/", 1)[1], "note": "w"})
    (root / ST / "index.json").write_text(_dump(index))
    curator.absorb([new, f"{ST}/index.json"])
    # The person's own change patches its memory's entries; the worker's entry stays its own.
    curator.apply(edits.toggle_critical(curator.get(MEMO)))
    recent = _json(root, ST)["recent"]["medium_importance"]
    assert {"file": "2026-06-14_worker_memory.md", "note": "w"} in recent
    _held_by_samantha_llm(root)


async def test_r_in_the_app_shows_what_it_keeps_and_writes_only_when_confirmed(root: Path) -> None:
    entry = json.loads((root / ST / "index.json").read_bytes())
    entry["recent"]["high_importance"] = []  # another program dropped entries: drift to show
    (root / ST / "index.json").write_text(_dump(entry))
    before = {p: p.read_bytes() for p in root.rglob("index.*")}
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before, "no silent writes"
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        _held_by_samantha_llm(root)
        await pilot.press("u")
        await settle(pilot)
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before


def test_the_index_plan_writes_index_files_that_are_never_listed_as_memories(root: Path) -> None:
    (root / PROC / "index.md").unlink()  # `r` creates it again
    curator = Curator(Store(root, lambda: TODAY))
    curator.load()
    count = len(curator.tree.memories)
    plan = curator.index_plan()
    assert any(op.path == f"{PROC}/index.md" for op in plan.operations)
    curator.apply_index_plan(plan)
    assert len(curator.tree.memories) == count
    assert all(not m.path.endswith(("index.md", "index.json")) for m in curator.tree.memories)
    curator.undo()
    assert not (root / PROC / "index.md").exists(), "the file it created went to the trash"
    assert len(curator.tree.memories) == count


def test_a_second_entry_for_the_same_folder_is_kept(root: Path) -> None:
    """samantha-llm can hold a project under its folder's name and under a display name."""
    data = _json(root, TASKS)
    twin = {"name": "gateway", "status": "active", "files": ["gateway/status.md"]}
    data["active"].append(twin)
    (root / TASKS / "index.json").write_text(_dump(data))
    assert main(["set", str(root / GATEWAY), "topics=[api, envoy]", "--keep-updated"]) == 0
    assert main(["index", str(root)]) == 0
    names = [entry["name"] for entry in _json(root, TASKS)["active"]]
    assert names == ["Gateway Refactor", "infra-notes", "gateway"]
    assert _project(root, "gateway") == twin


def _worker_writes(root: Path, number: int) -> str:
    """What samantha-llm's worker does after a session: a memory file, its entry appended to
    the short-term index.json, a line appended to index.md (another process's bytes)."""
    name = f"2026-06-14_worker_{number}.md"
    (root / ST / name).write_text(
        f"---\ndate: 2026-06-14\ntopics: [w]\nimportance: medium\n---\n\n# Worker {number}\n\nX.\n"
    )
    index = _json(root, ST)
    index["recent"]["medium_importance"].append({"file": name, "by": "worker"})
    (root / ST / "index.json").write_text(_dump(index))
    md = root / ST / "index.md"
    md.write_bytes(md.read_bytes() + f"- worker note {number}\n".encode())
    return name


async def test_with_the_watcher_on_the_workers_writes_survive_the_persons_changes(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import asyncio

    config = tmp_path / "watch.toml"
    config.write_text("[watch]\nenabled = true\n")
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    made = watches_made(monkeypatch)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: app.curator.get(MEMO) is not None)
        assert await until(pilot, lambda: made)  # the watcher is running
        written = []
        for number in range(3):
            written.append(_worker_writes(root, number))
            await asyncio.sleep(0.3)
            app.toggle_critical_of(MEMO)  # the person's own change, while the worker writes
            await asyncio.sleep(0.4)

        def all_shown() -> bool:
            shown = {m.path for m in app.curator.tree.memories}
            return all(f"{ST}/{name}" in shown for name in written)

        assert await until(pilot, all_shown)
        # settle, not a clock: an own change whose index write met the worker's is patched
        # again once outside changes are quiet (INDEX_QUIET), a timer settle waits out.
        await settle(pilot)
    recent = _json(root, ST)["recent"]["medium_importance"]
    for name in written:
        assert {"file": name, "by": "worker"} in recent, name
    md = (root / ST / "index.md").read_text()
    assert all(f"- worker note {n}\n" in md for n in range(3))
    _held_by_samantha_llm(root)


def test_completing_a_project_kept_in_the_index_alone_says_it_has_no_folder(
    root: Path, capsys
) -> None:
    assert main(["complete", str(root), "--project", "infra-notes", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "infra-notes has no folder in current tasks; there is nothing to move" in out
    assert _project(root, "infra-notes") == TASKS_INDEX["active"][1]

"""Living beside samantha-llm: its index state survives every write the commands and the core make.

After `index`, each curation command, `set`, and the changes the app makes through its curator,
every entry, key, list item and line that does not belong to the changed memory is what it was.
"""

from __future__ import annotations

import json
from pathlib import Path

from samantha_tui.cli import main
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TASKS, TODAY
from ..samantha_llm_tree import (
    APPENDED,
    GATEWAY,
    MEMO,
    PROC,
    RUNBOOK,
    TASKS_INDEX,
    WIP,
    _dump,
    _held_by_samantha_llm,
    _json,
    _project,
    root,
)

__all__ = ["root"]  # the fixture, from samantha_llm_tree.py


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


def test_removing_entries_known_only_to_the_index_is_listed_then_done_only_when_asked(
    root: Path, capsys
) -> None:
    before = (root / TASKS / "index.json").read_bytes()
    assert main(["index", "--remove-stale", str(root)]) == 0
    out = capsys.readouterr().out
    assert "removed infra-notes (active): known only to the index: the assistant forgets it" in out
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


def test_completing_a_project_kept_in_the_index_alone_says_it_has_no_folder(
    root: Path, capsys
) -> None:
    assert main(["complete", str(root), "--project", "infra-notes", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "infra-notes has no folder in current tasks; there is nothing to move" in out
    assert _project(root, "infra-notes") == TASKS_INDEX["active"][1]

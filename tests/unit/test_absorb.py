"""Store.absorb: another program's changes re-read, and only real changes reported."""

from __future__ import annotations

import json
import os
import shutil

from samantha_tui.core.writing.store import Absorbed, Store

from ..conftest import LT, ST, TASKS, TODAY, memory_text

PENDING = f"{TASKS}/pending-updates"
SESSIONS = ".ai/subconscious/.ai/sessions"
NOTE = memory_text(date="2026-06-01", topics="[a]", importance="low")


def write(store: Store, rel: str, text: str) -> None:
    """Write as another program would: straight to disk, behind the store's back."""
    path = store.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def same_as_a_fresh_scan(store: Store) -> bool:
    fresh = Store(store.root, lambda: TODAY).scan()
    return store.tree == fresh


def test_external_edit_is_reported_once_as_changed(tree) -> None:
    store = tree({f"{ST}/n.md": NOTE})
    write(store, f"{ST}/n.md", NOTE.replace("importance: low", "importance: high"))
    result = store.absorb([f"{ST}/n.md"])
    assert result == Absorbed(changed=(f"{ST}/n.md",))
    assert store.get(f"{ST}/n.md").importance == "high"


def test_create_delete_and_rename_come_out_as_added_and_removed(tree) -> None:
    store = tree({f"{ST}/a.md": NOTE, f"{ST}/b.md": NOTE})
    write(store, f"{ST}/c.md", NOTE)
    (store.root / ST / "a.md").unlink()
    os.rename(store.root / ST / "b.md", store.root / ST / "d.md")
    result = store.absorb([f"{ST}/c.md", f"{ST}/a.md", f"{ST}/b.md", f"{ST}/d.md"])
    assert result.added == (f"{ST}/c.md", f"{ST}/d.md")
    assert result.removed == (f"{ST}/a.md", f"{ST}/b.md")
    assert result.changed == () and result.paths == tuple(sorted(result.added + result.removed))
    assert same_as_a_fresh_scan(store)


def test_unchanged_bytes_are_no_change_and_nothing_is_reported(tree) -> None:
    store = tree({f"{ST}/n.md": NOTE})
    store.edit(f"{ST}/n.md", {"critical": True})
    # The store's own write seen again by the watcher, then a rewrite of the very same bytes.
    assert not store.absorb([f"{ST}/n.md"])
    write(store, f"{ST}/n.md", (store.root / ST / "n.md").read_text())
    assert store.absorb([f"{ST}/n.md", f"{ST}/.n.md.x1.tmp"]) == Absorbed()
    assert store.get(f"{ST}/n.md").critical


def test_paths_outside_the_areas_read_are_ignored(tree) -> None:
    store = tree({f"{ST}/n.md": NOTE})
    write(store, "README.md", "hello")
    write(store, ".ai/subconscious/.ai/logs/run.log", "log")
    assert store.absorb(["README.md", ".ai/subconscious/.ai/logs/run.log", ".ai/.trash"]) == (
        Absorbed()
    )


def test_a_long_term_topic_folder_renamed_then_removed(tree) -> None:
    store = tree({f"{LT}/api/one.md": NOTE, f"{LT}/api/two.md": NOTE, f"{LT}/apix.md": NOTE})
    os.rename(store.root / LT / "api", store.root / LT / "web")
    result = store.absorb([f"{LT}/api", f"{LT}/web"])
    assert result.removed == (f"{LT}/api/one.md", f"{LT}/api/two.md")
    assert result.added == (f"{LT}/web/one.md", f"{LT}/web/two.md")
    shutil.rmtree(store.root / LT / "web")
    assert store.absorb([f"{LT}/web"]).removed == (f"{LT}/web/one.md", f"{LT}/web/two.md")
    assert [m.path for m in store.tree.memories] == [f"{LT}/apix.md"]


def test_project_folder_created_grown_renamed_and_removed(tree) -> None:
    store = tree({})
    status = memory_text(date="2026-06-01", topics="[api]", status="active")
    write(store, f"{TASKS}/api/status.md", status)
    write(store, f"{TASKS}/api/notes.md", "# Notes\n")
    # The watcher reports the folder and each file in it; the project is read once.
    result = store.absorb([f"{TASKS}/api", f"{TASKS}/api/status.md", f"{TASKS}/api/notes.md"])
    assert result == Absorbed(added=(f"{TASKS}/api/status.md",))
    assert store.get(f"{TASKS}/api/status.md").companions == (f"{TASKS}/api/notes.md",)

    write(store, f"{TASKS}/api/decisions.md", "# Decisions\n")
    result = store.absorb([f"{TASKS}/api/decisions.md"])
    assert result == Absorbed(changed=(f"{TASKS}/api/status.md",))
    assert store.get(f"{TASKS}/api/status.md").companions == (
        f"{TASKS}/api/decisions.md",
        f"{TASKS}/api/notes.md",
    )
    write(store, f"{TASKS}/api/notes.md", "# Notes\n\nMore.\n")
    assert not store.absorb([f"{TASKS}/api/notes.md"])  # a companion's text is not in the record

    os.rename(store.root / TASKS / "api", store.root / TASKS / "gateway")
    result = store.absorb([f"{TASKS}/api", f"{TASKS}/gateway"])
    assert result.removed == (f"{TASKS}/api/status.md",)
    assert result.added == (f"{TASKS}/gateway/status.md",)
    (store.root / TASKS / "gateway" / "status.md").unlink()
    result = store.absorb([f"{TASKS}/gateway/status.md"])
    assert result.changed == (f"{TASKS}/gateway/status.md",)
    assert "no status.md" in store.get(f"{TASKS}/gateway/status.md").problems[0].message
    shutil.rmtree(store.root / TASKS / "gateway")
    assert store.absorb([f"{TASKS}/gateway"]).removed == (f"{TASKS}/gateway/status.md",)
    assert same_as_a_fresh_scan(store)


def test_pending_updates_are_read_again_when_touched(tree) -> None:
    store = tree({f"{TASKS}/api/status.md": NOTE})
    update = {"project_name": "api", "confidence": 0.9, "proposed_changes": {"status": "blocked"}}
    write(store, f"{PENDING}/20260615_101500_api.json", json.dumps(update))
    result = store.absorb([f"{PENDING}/20260615_101500_api.json"])
    assert result == Absorbed(pending_changed=True)
    assert [u.project for u in store.tree.pending_updates] == ["api"]

    write(store, f"{PENDING}/20260615_101500_api.json", "{not json")
    assert store.absorb([f"{PENDING}/20260615_101500_api.json"]).pending_changed
    assert store.tree.pending_updates == ()
    assert [p.path for p in store.tree.problems] == [f"{PENDING}/20260615_101500_api.json"]

    shutil.rmtree(store.root / PENDING)
    assert store.absorb([PENDING]) == Absorbed(pending_changed=True)
    assert store.tree.problems == ()
    assert not store.absorb([PENDING])


def test_subconscious_sessions_are_read_again_when_touched(tree) -> None:
    store = tree({})
    session = f"{SESSIONS}/20260615_101500"
    write(store, f"{session}/status.json", json.dumps({"status": "processing"}))
    assert store.absorb([f"{session}/status.json"]) == Absorbed(sessions_changed=True)
    assert store.tree.awaiting_merge == []
    write(store, f"{session}/memories/2026-06-15_found.md", NOTE)
    write(store, f"{session}/status.json", json.dumps({"status": "complete"}))
    assert store.absorb([f"{session}/memories/2026-06-15_found.md", f"{session}/status.json"])
    [waiting] = store.tree.awaiting_merge
    assert waiting.memory_files == (f"{session}/memories/2026-06-15_found.md",)
    assert store.tree.memories == ()  # staging files are never memories
    assert not store.absorb([f"{session}/status.json"])


def test_a_burst_of_500_files_is_absorbed_in_one_call_with_one_change(tree) -> None:
    store = tree({f"{ST}/keep.md": NOTE, f"{TASKS}/api/status.md": NOTE})
    rels = [f"{ST}/2026-06-{n % 28 + 1:02}_note_{n}.md" for n in range(400)]
    rels += [f"{LT}/topic/note_{n}.md" for n in range(100)]
    for rel in rels:
        write(store, rel, NOTE)
    result = store.absorb([*rels, f"{LT}/topic", f"{TASKS}/api/status.md"])
    assert result.added == tuple(sorted(rels)) and result.changed == result.removed == ()
    assert same_as_a_fresh_scan(store)


def test_dot_ai_itself_or_the_root_reads_every_kind_again(tree) -> None:
    store = tree({f"{ST}/a.md": NOTE, f"{LT}/b.md": NOTE, f"{TASKS}/api/status.md": NOTE})
    write(store, f"{ST}/c.md", NOTE)
    (store.root / LT / "b.md").unlink()
    write(store, ".ai/work-experience/.ai/old/status.md", NOTE)
    result = store.absorb([".ai"])
    assert result.added == (f"{ST}/c.md", ".ai/work-experience/.ai/old/status.md")
    assert result.removed == (f"{LT}/b.md",)
    shutil.rmtree(store.root / ".ai")
    result = store.absorb([""])
    assert len(result.removed) == 4 and store.tree.memories == ()
    assert same_as_a_fresh_scan(store)

"""Index regeneration rules: windows, thresholds, merging, determinism, drift."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.indexes import drift, dump_json, kinds_affected, plan_updates
from samantha_tui.core.views.indexes.summary import MAX_SUMMARY, summary_of
from samantha_tui.core.writing.index_writes import regenerate

from ..conftest import LT, ST, TASKS, TODAY, memory_text

WE = ".ai/work-experience/.ai"
PROC = ".ai/procedural-memory/.ai"


def days_ago(days: int) -> str:
    return (TODAY - dt.timedelta(days=days)).isoformat()


def index_of(root: Path, folder: str) -> dict:
    return json.loads((root / folder / "index.json").read_bytes())


def files(entries: list[dict]) -> list[str]:
    return [entry["file"] for entry in entries]


def st(name: str, **fields: str) -> tuple[str, str]:
    fields.setdefault("topics", "[a]")
    return f"{ST}/{name}.md", memory_text(**fields)


def test_recent_window_includes_day_30_and_not_day_31(tree) -> None:
    store = tree(
        dict(
            [
                st("d29", date=days_ago(29), importance="high"),
                st("d30", date=days_ago(30), importance="high"),
                st("d31", date=days_ago(31), importance="high"),
                st("low30", date=days_ago(30), importance="low"),
                st("none30", date=days_ago(30)),
            ]
        )
    )
    regenerate(store, [Kind.SHORT_TERM], TODAY)
    recent = index_of(store.root, ST)["recent"]
    assert files(recent["high_importance"]) == ["d29.md", "d30.md"]
    # Low and unstated importance go where samantha-llm's worker puts them.
    assert files(recent["medium_importance"]) == ["none30.md", "low30.md"]
    markdown = (store.root / ST / "index.md").read_text()
    recent_md, older_md = markdown.split("## Recent (Last 30 Days)")[1].split(
        "## Older (30-90 Days)"
    )
    assert "d30.md" in recent_md and "d31.md" not in recent_md
    assert "d31.md" in older_md.split("## By Topic")[0]


def test_high_priority_starts_at_five_references_and_critical_lists_every_age(tree) -> None:
    store = tree(
        dict(
            [
                st("four", date=days_ago(200), reference_count="4"),
                st("five", date=days_ago(200), reference_count="5"),
                st("old_rule", date=days_ago(400), critical="true"),
            ]
        )
    )
    regenerate(store, [Kind.SHORT_TERM], TODAY)
    data = index_of(store.root, ST)
    assert files(data["high_priority"]) == ["five.md"]
    assert files(data["critical"]) == ["old_rule.md"]
    assert data["high_priority"][0]["references"] == 5


def test_short_term_has_every_key_the_real_worker_reads(tree) -> None:
    store = tree(
        dict(
            [
                st("a", date=days_ago(1), importance="high", type="decision", project="p"),
                st("b", date=days_ago(2), type="decision"),
            ]
        )
    )
    regenerate(store, [Kind.SHORT_TERM], TODAY)
    data = index_of(store.root, ST)
    assert list(data) == [
        "last_updated",
        "total_memories",
        "critical",
        "high_priority",
        "recent",
        "stats",
    ]
    assert data["stats"] == {
        "by_importance": {"high": 1, "medium": 1, "low": 0},
        "by_type": {"decision": 2},
        "by_project": {"p": 1},
    }
    assert data["recent"]["high_importance"][0] == {
        "file": "a.md",
        "date": days_ago(1),
        "title": "A memory",
        "summary": "Body text.",
        "importance": "high",
        "type": "decision",
        "project": "p",
        "topics": ["a"],
        "references": 0,
    }


def test_hand_edited_current_tasks_index_keeps_what_no_file_can_supply(tree) -> None:
    hand = {
        "last_updated": "2026-01-01",
        "owner": "dana",
        "active_count": 7,
        "active": [
            {
                "name": "gateway",
                "status": "Phase 2 - API done",
                "started": "2025-12-01",
                "summary": "Written by hand.",
                "files": ["gateway/status.md"],
                "topics": ["stale"],
                "recent_progress": "Routing merged; cutover next.",
                "ticket": "TW-1",
            },
            {"name": "vanished", "status": "Phase 1"},
        ],
        "blocked": [],
        "recently_completed": [],
    }
    store = tree(
        {
            f"{TASKS}/gateway/status.md": memory_text(
                date="2026-03-30", topics="[api, envoy]", status="active"
            ),
            f"{TASKS}/gateway/notes.md": "notes\n",
            f"{TASKS}/billing/status.md": memory_text(
                date="2026-04-20", topics="[billing]", status="blocked"
            ),
            f"{TASKS}/index.json": json.dumps(hand, indent=2),
        }
    )
    updates = regenerate(store, [Kind.CURRENT_TASKS], TODAY)
    data = index_of(store.root, TASKS)
    # A project with no folder is samantha-llm's own state: kept as it is, and counted.
    assert data["owner"] == "dana" and data["active_count"] == 2
    assert data["active"] == [
        {
            "name": "gateway",
            "status": "Phase 2 - API done",
            "started": "2025-12-01",
            "summary": "Written by hand.",
            "files": ["gateway/status.md", "gateway/notes.md"],
            # Topics only the index has stay beside the file's.
            "topics": ["stale", "api", "envoy"],
            "recent_progress": "Routing merged; cutover next.",
            "ticket": "TW-1",
        },
        {"name": "vanished", "status": "Phase 1"},
    ]
    # A new project takes its status, start and summary from status.md.
    assert data["blocked"] == [
        {
            "name": "billing",
            "status": "blocked",
            "started": "2026-04-20",
            "summary": "Body text.",
            "files": ["billing/status.md"],
            "topics": ["billing"],
        }
    ]
    changes = next(u for u in updates if u.path.endswith("index.json")).changes
    assert "kept vanished under active: it has no file of its own" in changes
    assert "added billing under blocked" in changes


def test_project_moved_to_work_experience_becomes_recently_completed(tree) -> None:
    hand = {
        "active": [
            {"name": "sync", "status": "Phase 3 - rollout", "recent_progress": "All depots."},
        ],
        "blocked": [],
        "recently_completed": [{"name": "older", "status": "Completed - shipped"}],
    }
    store = tree(
        {
            f"{WE}/sync/status.md": memory_text(
                date="2026-01-08", topics="[sync]", status="completed", completed="2026-03-12"
            ),
            f"{WE}/older/status.md": memory_text(date="2025-10-01", topics="[x]"),
            f"{TASKS}/index.json": json.dumps(hand),
        }
    )
    regenerate(store, None, TODAY)
    data = index_of(store.root, TASKS)
    assert data["active"] == [] and data["active_count"] == 0
    assert data["recently_completed"] == [
        {
            "name": "sync",
            "status": "Phase 3 - rollout ✅",
            "completed": "2026-03-12",
            "recent_progress": "All depots.",
        },
        {"name": "older", "status": "Completed - shipped"},
    ]
    experience = index_of(store.root, WE)
    assert [p["name"] for p in experience["completed"]] == ["older", "sync"]
    assert experience["total_projects"] == 2


def test_short_term_merge_keeps_hand_summary_unknown_keys_and_key_order(tree) -> None:
    old = {
        "version": "1.0",
        "last_updated": "2026-01-01",
        "recent": {
            "high_importance": [],
            "medium_importance": [
                {"file": "a.md", "summary": "By hand.", "note": "keep", "title": "Old"}
            ],
            "low_importance": ["kept"],
        },
    }
    store = tree(
        {
            **dict([st("a", date=days_ago(3))]),
            f"{ST}/index.json": json.dumps(old),
        }
    )
    regenerate(store, [Kind.SHORT_TERM], TODAY)
    data = index_of(store.root, ST)
    assert list(data)[:2] == ["version", "last_updated"]
    assert data["recent"]["low_importance"] == ["kept"]
    (entry,) = data["recent"]["medium_importance"]
    assert entry["summary"] == "By hand." and entry["note"] == "keep"
    assert entry["title"] == "A memory"
    assert list(entry)[:3] == ["file", "date", "summary"]


def test_summary_is_the_first_sentence_cut_at_a_word_boundary() -> None:
    body = "# Title\n\n**Status**: x\n\nFirst one, see `a.py`. Second.\n"
    assert summary_of(body) == "First one, see `a.py`."
    long = "# T\n\n" + "word " * 100 + "end.\n"
    cut = summary_of(long)
    assert len(cut) <= MAX_SUMMARY and cut.endswith("word...")
    assert summary_of("# T\n\n- item one\n- item two\n") == "item one"
    assert summary_of("no title here. More.") == "no title here."


def test_regeneration_is_quiet_until_something_other_than_the_date_changes(tree) -> None:
    store = tree(dict([st("a", date=days_ago(300), critical="true")]))
    first = regenerate(store, None, TODAY)
    assert {u.path.rsplit("/", 1)[-1] for u in first} == {"index.json", "index.md"}
    later = TODAY + dt.timedelta(days=5)
    assert plan_updates(store.tree, store.root, later) == []
    store.edit(f"{ST}/a.md", {"reference_count": 6}, touch_updated=False)
    updates = plan_updates(store.tree, store.root, later)
    assert [u.path for u in updates] == [f"{ST}/index.json", f"{ST}/index.md"]
    assert json.loads(updates[0].new)["last_updated"] == later.isoformat()
    assert "**Last Updated**: " + later.isoformat() in updates[1].new.decode()


def test_output_is_deterministic_and_written_like_the_real_tool(tree) -> None:
    files_ = dict([st(f"n{i}", date=days_ago(i), topics="[b, a]") for i in range(5)])
    one = plan_updates(tree(files_).tree, tree(files_).root, TODAY)
    two = plan_updates(tree(files_).tree, tree(files_).root, TODAY)
    assert [(u.path, u.new) for u in one] == [(u.path, u.new) for u in two]
    assert dump_json({"a": "Zürich"}) == b'{\n  "a": "Z\\u00fcrich"\n}'


def test_invalid_index_json_is_reported_and_only_index_rewrites_it(tree) -> None:
    store = tree({**dict([st("a", date=days_ago(1))]), f"{ST}/index.json": "{not json"})
    report = drift(store.tree, store.root, TODAY)
    short = next(k for k in report.kinds if k.kind is Kind.SHORT_TERM)
    assert short.drifted and "not valid JSON" in short.files[0]
    assert (store.root / ST / "index.json").read_text() == "{not json"
    (update,) = [u for u in regenerate(store, [Kind.SHORT_TERM], TODAY) if "json" in u.path]
    assert update.changes[0] == "index.json is not valid JSON; regenerated from the files"
    assert index_of(store.root, ST)["total_memories"] == 1


def test_unreadable_memory_is_left_out_and_noted(tree) -> None:
    store = tree(
        {
            **dict([st("good", date=days_ago(1))]),
            f"{ST}/bad.md": "---\n[a\n---\n# Bad\n",  # not even samantha-llm reads a field
        }
    )
    report = drift(store.tree, store.root, TODAY)
    short = next(k for k in report.kinds if k.kind is Kind.SHORT_TERM)
    assert short.unindexed and short.unindexed[0].startswith(f"{ST}/bad.md is not indexed")
    regenerate(store, [Kind.SHORT_TERM], TODAY)
    assert index_of(store.root, ST)["total_memories"] == 1


def test_long_term_groups_and_procedural_defaults(tree) -> None:
    runbook = (
        "---\ndate: 2026-05-28\ntopics: [db]\ndomain: db-migrations\nconfidence: low\n"
        "triggers:\n  positive:\n    keyword_signals: [alembic]\n  negative:\n"
        "    - signal: reports\n      reason: dbt\n      added: 2026-05-28\n"
        "corrections: [{a: 1}]\n---\n\n# DB\n\nHow to migrate.\n"
    )
    store = tree(
        {
            f"{LT}/python/b.md": memory_text(date="2025-01-01", topics="[python]"),
            f"{LT}/a.md": memory_text(
                date="2025-01-01", topics="[arch, python]", importance="high", critical="true"
            ),
            f"{PROC}/db.md": runbook,
        }
    )
    regenerate(store, None, TODAY)
    long = index_of(store.root, LT)
    assert files(long["critical"]) == files(long["high_importance"]) == ["a.md"]
    assert {t: files(e) for t, e in long["by_topic"].items()} == {
        "arch": ["a.md"],
        "python": ["python/b.md"],
    }
    proc = index_of(store.root, PROC)
    assert proc["loading_strategy"] == {
        "minimum_positive_categories": 2,
        "negative_signals_are_veto": True,
    }
    (entry,) = proc["runbooks"]
    assert entry["domain"] == "db-migrations" and entry["corrections_count"] == 1
    assert entry["triggers"]["negative"][0]["added"] == "2026-05-28"


def test_kinds_affected_maps_paths_to_the_indexes_they_feed() -> None:
    assert kinds_affected([f"{ST}/a.md"]) == {Kind.SHORT_TERM}
    assert kinds_affected([f"{WE}/sync"]) == {Kind.WORK_EXPERIENCE, Kind.CURRENT_TASKS}
    assert kinds_affected([f"{TASKS}/p/status.md", f"{LT}/x/y.md"]) == {
        Kind.CURRENT_TASKS,
        Kind.LONG_TERM,
    }
    assert kinds_affected([f"{ST}/index.json", f"{TASKS}/pending-updates/x.json"]) == set()
    assert kinds_affected([".ai/.trash/x", "README.md"]) == set()


def test_demo_drift_is_reported_then_fixed(demo_root: Path) -> None:
    from samantha_tui.core.writing.store import Store

    store = Store(demo_root, lambda: TODAY)
    store.scan()
    report = drift(store.tree, demo_root, TODAY)
    assert report.drifted
    short = next(k for k in report.kinds if k.kind is Kind.SHORT_TERM)
    # An entry whose file is gone is kept (samantha-tui cannot tell it from samantha-llm's own).
    assert any(k.startswith("2026-05-08_envoy_lua_filter_spike.md") for k in short.kept)
    assert any(m.startswith("2026-06-13_gateway_route_table_cutover.md") for m in short.missing)
    regenerate(store, None, TODAY)
    assert not drift(store.tree, demo_root, TODAY).drifted
    tasks = index_of(demo_root, TASKS)
    assert tasks["active"][0]["status"] == "Phase 2 - routing done"
    # The hand-kept order of a project's files survives while the same files exist.
    assert tasks["active"][0]["files"] == [
        "api-gateway-refactor/status.md",
        "api-gateway-refactor/notes.md",
        "api-gateway-refactor/decisions.md",
    ]
    assert [p["name"] for p in tasks["recently_completed"]] == ["mobile-sync"]


def test_a_project_completed_in_place_says_so_as_samantha_llm_would(tree) -> None:
    """A status.md that says completed moves the project to recently_completed; its hand-written
    phase text gets samantha-llm's completion mark, once: `projects status` prints the status
    as written, and "Phase 1 - In progress" there would read as work still going on."""
    hand = {
        "active": [{"name": "sync", "status": "Phase 1 - In progress", "started": "2026-01-02"}],
        "blocked": [],
        "recently_completed": [],
    }
    store = tree(
        {
            f"{TASKS}/sync/status.md": memory_text(
                date="2026-01-08", topics="[sync]", status="completed"
            ),
            f"{TASKS}/index.json": json.dumps(hand),
        }
    )
    regenerate(store, None, TODAY)
    data = index_of(store.root, TASKS)
    assert data["active"] == []
    (done,) = data["recently_completed"]
    assert done["name"] == "sync" and done["status"] == "Phase 1 - In progress ✅"
    regenerate(store, None, TODAY)
    assert index_of(store.root, TASKS)["recently_completed"][0]["status"] == done["status"]


def test_a_merge_copy_beside_its_original_is_not_indexed(tree) -> None:
    """samantha-llm's merge writes `<stem>_<session id>.md` after its worker indexed `<stem>.md`;
    it never indexes the copy, and listing it would have the assistant read it twice."""
    text = memory_text(date=days_ago(2), topics="[sync]", importance="high")
    original, copy = f"{ST}/2026-06-13_sync.md", f"{ST}/2026-06-13_sync_20260613_101500.md"
    store = tree({original: text, copy: text})
    regenerate(store, [Kind.SHORT_TERM], TODAY)
    listed = json.dumps(index_of(store.root, ST))
    assert "2026-06-13_sync.md" in listed and "20260613_101500" not in listed
    assert "20260613_101500" not in (store.root / ST / "index.md").read_text()
    # With its original gone, the copy is the memory: indexed.
    (store.root / original).unlink()
    store.scan()
    regenerate(store, [Kind.SHORT_TERM], TODAY)
    assert "2026-06-13_sync_20260613_101500.md" in json.dumps(index_of(store.root, ST))

"""bench/samantha_llm_like.py writes what samantha-llm writes, in the shapes its readers expect.

The worker's byte layout was compared once with samantha-llm's own generate_memory_file,
finalize_session_memories and merge (400 sessions, every byte equal); these tests hold the
generator to that layout without samantha-llm at hand, through samantha-tui's own reader.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from bench import samantha_llm_like as like
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.reading.scan import scan

from ..conftest import TODAY

SECTIONS = [
    "## Overview",
    "## Key Decisions",
    "## Patterns & Insights",
    "## Key Learnings",
    "## User Preferences & Working Style",
    "## Action Items",
    "## Session Metadata",
]
FRONT_KEYS = [
    "date",
    "topics",
    "importance",
    "type",
    "project",
    "reference_count",
    "session_id",
    "duration_minutes",
]
SIZE = 400


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, like.Planted]:
    root = tmp_path_factory.mktemp("sllm") / "tree"
    return root, like.write_tree(root, SIZE, seed=11, today=TODAY)


def _digests(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_the_reader_finds_every_memory_and_only_the_planted_problems(made) -> None:
    root, planted = made
    tree = scan(root, TODAY)
    assert len(tree.memories) == SIZE
    troubled = {m.path: [p.message for p in m.problems] for m in tree.memories if m.problems}
    assert set(troubled) == set(planted.yaml_quirks)
    assert all(any("YAML" in message for message in found) for found in troubled.values())
    assert not tree.problems and not tree.unlisted
    short = tree.of_kind(Kind.SHORT_TERM)
    analyses = [m for m in short if m.type == "session-analysis"]
    assert 0.6 <= len(analyses) / len(short) <= 0.8
    assert len(analyses) == len(planted.sessions) + len(planted.merge_copies)


def test_session_analyses_have_the_workers_layout(made) -> None:
    root, planted = made
    overviews = set()
    for rel in planted.sessions:
        text = (root / rel).read_text(encoding="utf-8")
        front, body = text[4:].split("\n---\n", 1)
        assert [line.split(":", 1)[0] for line in front.splitlines()] == FRONT_KEYS
        fields = dict(line.split(": ", 1) for line in front.splitlines())
        topics = fields["topics"][1:-1].split(", ")
        assert Path(rel).name == f"{fields['date']}_{topics[0]}.md"
        assert fields["type"] == "session-analysis" and fields["reference_count"] == "0"
        assert re.fullmatch(r"\d{8}_\d{6}", fields["session_id"])
        assert fields["session_id"][:8] == fields["date"].replace("-", "")
        assert body.startswith(f"\n# Session Analysis - {fields['date']}\n\n## ")
        headings = [line for line in body.splitlines() if line.startswith("## ")]
        assert headings == [h for h in SECTIONS if h in headings]
        assert headings[-1] == "## Session Metadata"
        assert text.endswith(
            f"- **Duration**: {fields['duration_minutes']} minutes\n"
            f"- **Session ID**: {fields['session_id']}\n"
        )
        assert re.search(rf"^- \*\*Workspace\*\*: /\S+/{re.escape(fields['project'])}$", text, re.M)
        if "## Action Items" in headings:
            items = body.split("## Action Items\n\n")[1].split("\n\n")[0].splitlines()
            assert all(item.startswith("- [ ] ") for item in items)
        if "## Overview" in headings:
            overview = body.split("## Overview\n\n")[1].split("\n\n## ")[0]
            assert len(overview) <= 503
            overviews.add(overview)
    assert len(overviews) >= 0.95 * len(planted.sessions), "sessions must not read alike"


def test_merge_copies_are_the_sessions_again_under_the_merges_name(made) -> None:
    root, planted = made
    assert planted.merge_copies
    for rel in planted.merge_copies:
        stem, session_id = re.fullmatch(r"(.+)_(\d{8}_\d{6})\.md", Path(rel).name).groups()
        original = root / Path(rel).with_name(f"{stem}.md")
        assert original.read_bytes() == (root / rel).read_bytes()
        assert f"session_id: {session_id}\n" in original.read_text(encoding="utf-8")


def test_staged_sessions_are_as_the_worker_leaves_them(made) -> None:
    root, planted = made
    tree = scan(root, TODAY)
    states = {}
    for folder in (root / like.SUBCONSCIOUS / "sessions").iterdir():
        status = json.loads((folder / "status.json").read_text(encoding="utf-8"))
        states[folder.name] = status["status"]
        if status["status"] == "complete":
            assert list(status)[:3] == ["status", "updated_at", "session_id"]
            (memory,) = (folder / "memories").iterdir()
            # finalize copied it to short-term memory before the session was marked complete
            assert memory.read_bytes() == (root / like.SHORT / memory.name).read_bytes()
    assert sorted(s for s, state in states.items() if state == "complete") == sorted(
        planted.awaiting_merge
    )
    assert {"processing", "failed"} <= set(states.values())
    assert len(tree.sessions) == len(states)


def _index_files(root: Path) -> set[tuple[str, str]]:
    """(index file, file named) for every entry of every index.json that names a file."""
    named = set()
    short = json.loads((root / like.SHORT / "index.json").read_text(encoding="utf-8"))
    entries = short["critical"] + short["high_priority"]
    entries += short["recent"]["high_importance"] + short["recent"]["medium_importance"]
    named |= {(f"{like.SHORT}/index.json", e["file"]) for e in entries}
    long = json.loads((root / like.LONG / "index.json").read_text(encoding="utf-8"))
    named |= {(f"{like.LONG}/index.json", e["file"]) for e in long["high_importance"]}
    grouped = [e for group in long["by_topic"].values() for e in group]
    named |= {(f"{like.LONG}/index.json", e["file"]) for e in grouped}
    proc = json.loads((root / like.PROCEDURAL / "index.json").read_text(encoding="utf-8"))
    named |= {(f"{like.PROCEDURAL}/index.json", e["file"]) for e in proc["runbooks"]}
    return named


def test_index_entries_name_existing_files_but_the_planted_ones(made) -> None:
    root, planted = made
    named = _index_files(root)
    missing = {(index, f) for index, f in named if not (root / index).parent.joinpath(f).is_file()}
    assert missing == planted.index_only
    tasks = json.loads((root / like.TASKS / "index.json").read_text(encoding="utf-8"))
    for entry in tasks["active"]:
        assert "status" in entry  # samantha-llm's `projects status` crashes without it
        assert all((root / like.TASKS / f).is_file() for f in entry["files"])
    for entry in tasks["recently_completed"]:
        assert all((root / like.WORK / f).is_file() for f in entry["files"])
    assert any(not entry["files"] for entry in tasks["active"]), "an index-only project"


def test_the_short_term_index_has_what_the_worker_requires(made) -> None:
    root, planted = made
    index = json.loads((root / like.SHORT / "index.json").read_text(encoding="utf-8"))
    for key in ("high_importance", "medium_importance"):
        assert isinstance(index["recent"][key], list)
    for key in ("by_importance", "by_type", "by_project"):
        assert isinstance(index["stats"][key], dict)
    worker = [e for e in index["recent"]["medium_importance"] if e["type"] == "session-analysis"]
    worker += [e for e in index["recent"]["high_importance"] if e["type"] == "session-analysis"]
    # finalize indexes each session once; the merge never touches the index, so no copies
    assert sorted(e["file"] for e in worker) == sorted(Path(p).name for p in planted.sessions)
    assert index["stats"]["by_type"]["session-analysis"] == len(planted.sessions)


def test_the_same_seed_gives_the_same_bytes(made, tmp_path: Path) -> None:
    root, _ = made
    again = like.write_tree(tmp_path / "again", SIZE, seed=11, today=TODAY)
    assert _digests(tmp_path / "again") == _digests(root)
    assert again == made[1]
    like.write_tree(tmp_path / "other", SIZE, seed=12, today=TODAY)
    assert _digests(tmp_path / "other") != _digests(root)


@pytest.mark.parametrize("count", [10, 37])
def test_small_trees_have_every_part(tmp_path: Path, count: int) -> None:
    planted = like.write_tree(tmp_path, count, seed=1, today=TODAY)
    tree = scan(tmp_path, TODAY)
    assert len(tree.memories) == count
    assert planted.sessions and planted.merge_copies and planted.awaiting_merge
    assert {m.kind for m in tree.memories} >= {Kind.SHORT_TERM, Kind.LONG_TERM, Kind.PROCEDURAL}

"""The per-change refresh gives the bytes of a full rebuild; the `index` command end to end."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.views.indexes import plan_updates
from samantha_tui.core.writing.index_writes import refresh, regenerate
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TASKS, TODAY

WE = ".ai/work-experience/.ai"
TOPICS = ["api", "db", "ci", "sync"]


def _fields(rng: random.Random) -> dict:
    return {
        "date": TODAY - dt.timedelta(days=rng.randint(0, 100)),
        "topics": rng.sample(TOPICS, rng.randint(1, 3)),
        "importance": rng.choice(["low", "medium", "high"]),
        "reference_count": rng.choice([0, 4, 5, 9]),
        "critical": rng.random() < 0.2,
    }


def _step(store: Store, rng: random.Random, number: int) -> tuple[str, ...]:
    """One random change through the store; returns the paths it touched."""
    # Not the memory read as samantha-llm reads it: its refused topics line is never rewritten.
    editable = [m for m in store.tree.memories if m.frontmatter and not m.problems]
    action = rng.choice(["edit", "edit", "create", "create", "trash", "move", "status"])
    if action == "create":
        folder = rng.choice([ST, LT, f"{LT}/topic"])
        rel = f"{folder}/2026-06-0{number % 9 + 1}_note_{number}.md"
        store.create(rel, _fields(rng), f"# Note {number}\n\nSentence {number}. More.\n")
        return (rel,)
    if action == "trash":
        victim = rng.choice(editable)
        return (store.trash(victim.path).path,)
    projects = [m for m in editable if m.path.startswith(TASKS)]
    if action == "move" and projects:
        source = rng.choice(projects).path.rsplit("/", 1)[0]
        target = f"{WE}/{source.rsplit('/', 1)[1]}"
        return (store.move(source, target), source)
    if action == "status" and projects:
        project = rng.choice(projects)
        store.edit(project.path, {"status": rng.choice(["active", "blocked", "completed"])})
        return (project.path,)
    memory = rng.choice(editable)
    field, value = rng.choice(list(_fields(rng).items()))
    store.edit(memory.path, {field: value})
    return (memory.path,)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_refresh_after_each_change_equals_a_full_rebuild(
    demo_root: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(demo_root, lambda: TODAY)
    store.scan()
    regenerate(store, None, TODAY)
    rng = random.Random(seed)
    for number in range(25):
        paths = _step(store, rng, number)
        with monkeypatch.context() as patch:
            # The refresh works from the store's in-memory tree: a rescan would be a failure.
            patch.setattr(store, "scan", lambda: pytest.fail("refresh rescanned the tree"))
            refresh(store, paths, TODAY)
        fresh = Store(demo_root, lambda: TODAY)
        fresh.scan()
        assert plan_updates(fresh.tree, demo_root, TODAY) == [], f"step {number}: {paths}"


def test_index_check_then_index_then_clean_check(demo_root: Path, capsys) -> None:
    before = {p: p.read_bytes() for p in demo_root.rglob("index.*")}
    assert main(["index", "--check", str(demo_root)]) == 1
    out = capsys.readouterr().out
    assert "Short-term index (.ai/short-term-memory/.ai/index.json): needs updating" in out
    kept = "  2026-05-08_envoy_lua_filter_spike.md: listed under recent medium-importance with"
    assert f"{kept} no file of its own; kept" in out
    assert "  index.json is missing" in out  # work experience has none in the demo
    assert {p: p.read_bytes() for p in demo_root.rglob("index.*")} == before

    assert main(["index", str(demo_root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert ".ai/short-term-memory/.ai/index.json:" in out
    assert "  added 2026-06-13_gateway_route_table_cutover.md under recent high-importance" in out
    assert out[-1] == "10 index files rewritten"
    # The memory strict YAML refuses is indexed as samantha-llm reads it, not left out.
    assert not any("is not indexed" in line for line in out)
    assert "  added 2026-06-09_pytest_xdist_flaky_fixtures.md under recent medium-importance" in out

    assert main(["index", "--check", str(demo_root)]) == 0
    assert main(["index", str(demo_root)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "indexes are up to date"

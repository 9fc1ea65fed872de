"""A one-file edit that reads only its file patches the short-term index files to the very bytes
the whole patch writes (views/indexes/one_memory.py), and falls back to it when unsure."""

from __future__ import annotations

import datetime as dt
import random
import shutil
from pathlib import Path

import pytest

from bench.samantha_llm_like import write_tree
from samantha_tui.cli import main
from samantha_tui.core.basics.clock import TODAY_ENV
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.reading import catalog
from samantha_tui.core.views.indexes import one_memory
from samantha_tui.core.views.indexes import plan as index_plan
from samantha_tui.core.writing import door, one_file_index
from samantha_tui.core.writing.index_writes import regenerate
from samantha_tui.core.writing.store import Store
from samantha_tui.demo import write_demo

from ..conftest import ST, TODAY

TOPICS = ["python", "testing", "git", "docker", "rust", "notes"]
PROJECTS = ["samantha-tui", "gateway", "blog"]


def _in_step(root: Path, today: dt.date) -> None:
    store = Store(root, lambda: today)
    store.scan()
    regenerate(store)
    store.close()


def _short_term(root: Path) -> list[str]:
    store = Store(root, lambda: TODAY)
    store.scan()
    found = [m.path for m in store.tree.memories if m.kind is Kind.SHORT_TERM and m.frontmatter]
    store.close()
    return found


def _random_edit(rng: random.Random, today: dt.date, first_topic: str) -> dict[str, object]:
    """One to three keys of the kinds a person sets from a script."""
    choices: dict[str, object] = {
        "importance": rng.choice(["high", "medium", "low"]),
        "critical": rng.choice([True, False]),
        "reference_count": rng.choice([0, 1, 4, 5, 9]),
        "project": rng.choice(PROJECTS),
        "type": rng.choice(["note", "decision", "lesson"]),
        # Mostly the same first topic (the fast path's case), sometimes another (the fallback).
        "topics": [
            first_topic if rng.random() < 0.7 else rng.choice(TOPICS),
            *rng.sample(TOPICS, rng.randint(0, 2)),
        ],
        "date": today - dt.timedelta(days=rng.randint(0, 120)),
    }
    weights = [5, 5, 4, 2, 2, 3, 1]
    keys = set(rng.choices(list(choices), weights=weights, k=rng.randint(1, 3)))
    return {key: choices[key] for key in keys}


def _index_bytes(root: Path) -> dict[str, bytes | None]:
    found: dict[str, bytes | None] = {}
    for kind in Kind:
        for name in ("index.json", "index.md"):
            path = root / kind.folder / name
            found[f"{kind.folder}/{name}"] = path.read_bytes() if path.exists() else None
    return found


def _full(root: Path, today: dt.date, plan: Plan) -> None:
    """The whole path, as a fresh `set` process ran it before: every record, then the patch."""
    index_plan._RENDERED.clear()  # a fresh process has rendered nothing yet
    store = Store(root, lambda: today)
    store.scan()
    door.apply(store, plan)
    store.close()


def _narrow(root: Path, today: dt.date, plan: Plan) -> None:
    store = Store(root, lambda: today)
    assert store.read_only(plan.operations[0].path) is not None
    door.apply(store, plan, indexes=one_file_index.patch_indexes)
    store.close()


def _compare_edits(tmp_path: Path, make, today: dt.date, seed: int, edits: int) -> int:
    """Apply the same random edits to two copies, the whole way and the narrow way; return how
    many the narrow way planned alone."""
    full, narrow = tmp_path / "full", tmp_path / "narrow"
    make(full)
    if not (full / ST / "index.md").read_text().count("Mine."):
        _in_step(full, today)
    shutil.copytree(full, narrow, symlinks=True)
    shutil.rmtree(narrow / ".ai" / ".samantha-tui", ignore_errors=True)
    rng = random.Random(seed)
    paths = _short_term(full)
    hits = 0
    planned = one_memory.plan_edit

    def counting(*args):
        nonlocal hits
        found = planned(*args)
        hits += found is not None
        return found

    one_file_index.plan_edit = counting  # type: ignore[assignment]
    try:
        for step in range(edits):
            rel = rng.choice(paths)
            store = Store(full, lambda: today)
            record = store.read_only(rel)
            assert record is not None
            first = record.topics[0] if record.topics else rng.choice(TOPICS)
            values = _random_edit(rng, today, first)
            unset = ("critical",) if rng.random() < 0.1 and "critical" not in values else ()
            plan = Plan(f"set {rel}", (Operation("edit", rel, values=values, unset=unset),))
            _full(full, today, plan)
            _narrow(narrow, today, plan)
            assert (narrow / rel).read_bytes() == (full / rel).read_bytes()
            assert _index_bytes(narrow) == _index_bytes(full), (step, rel, values, unset)
    finally:
        one_file_index.plan_edit = planned  # type: ignore[assignment]
    return hits


@pytest.mark.parametrize("seed", [1, 2])
def test_random_edits_on_the_demo_match_the_whole_patch(tmp_path: Path, seed: int) -> None:
    hits = _compare_edits(tmp_path, lambda root: write_demo(root, TODAY), TODAY, seed, 40)
    assert hits >= 10  # the fast path really ran, not only its fallback


@pytest.mark.parametrize("seed", [3, 4])
def test_random_edits_on_a_samantha_llm_tree_match_the_whole_patch(
    tmp_path: Path, seed: int
) -> None:
    today = dt.date(2026, 11, 28)

    def make(root: Path) -> None:
        write_tree(root, 300, seed=seed, today=today)

    hits = _compare_edits(tmp_path, make, today, seed, 40)
    assert hits >= 10


def test_edits_days_after_the_last_index_write_match_the_whole_patch(tmp_path: Path) -> None:
    """Memories aged out of Recent and Older since the index was written: still the same."""
    written = dt.date(2026, 11, 28)

    def make(root: Path) -> None:
        write_tree(root, 300, seed=5, today=written)
        _in_step(root, written)

    later = written + dt.timedelta(days=9)
    full, narrow = tmp_path / "full", tmp_path / "narrow"
    make(full)
    shutil.copytree(full, narrow, symlinks=True)
    rng = random.Random(5)
    for rel in rng.sample(_short_term(full), 25):
        plan = Plan(f"set {rel}", (Operation("edit", rel, values={"critical": True}),))
        _full(full, later, plan)
        _narrow(narrow, later, plan)
        assert _index_bytes(narrow) == _index_bytes(full), rel


def test_unsure_cases_are_left_to_the_whole_patch(tmp_path: Path) -> None:
    """A hand-laid index.json, a missing index.md, a new day: the plan says it cannot tell."""
    root = write_demo(tmp_path / "demo", TODAY)
    _in_step(root, TODAY)
    rel = _short_term(root)[0]
    store = Store(root, lambda: TODAY)
    before = store.read_only(rel)
    assert before is not None
    after = store.edit(rel, {"critical": not before.critical})
    assert one_memory.plan_edit(root, TODAY, before, after) is not None
    moved = store.edit(rel, {"date": TODAY - dt.timedelta(days=3)})
    assert one_memory.plan_edit(root, TODAY, after, moved) is None
    index_json = root / ST / "index.json"
    laid = index_json.read_bytes()
    index_json.write_bytes(laid.replace(b'\n  "', b'\n    "'))
    assert one_memory.plan_edit(root, TODAY, before, after) is None
    index_json.write_bytes(laid)
    (root / ST / "index.md").unlink()
    assert one_memory.plan_edit(root, TODAY, before, after) is None


def test_hand_written_lines_in_index_md_stay_as_the_whole_patch_keeps_them(
    tmp_path: Path,
) -> None:
    def make(root: Path) -> None:
        write_demo(root, TODAY)
        _in_step(root, TODAY)
        md = root / ST / "index.md"
        text = md.read_text()
        text = text.replace("## Older (30-90 Days)\n\n", "## Older (30-90 Days)\n\nMine.\n", 1)
        text = text.replace("## By Topic\n\n", "## By Topic\n\n- `not-a-memory.md` - mine\n", 1)
        md.write_text(text + "\n## My section\n\n- `also-mine.md`\n")

    assert _compare_edits(tmp_path, make, TODAY, 9, 30) >= 5


def test_set_reads_only_the_edited_file(tmp_path: Path, monkeypatch, capsys) -> None:
    """`set` on an in-step tree reads one memory's record: no scan, no catalog."""
    root = write_demo(tmp_path / "demo", TODAY)
    _in_step(root, TODAY)
    shutil.rmtree(root / ".ai" / ".samantha-tui", ignore_errors=True)
    monkeypatch.setenv(TODAY_ENV, TODAY.isoformat())
    rel = _short_term(root)[0]
    shutil.rmtree(root / ".ai" / ".samantha-tui", ignore_errors=True)
    read: list[str] = []
    from samantha_tui.core.writing import store as store_module

    real = store_module.read_memory

    def spy(root_, path, *args, **kwargs):
        read.append(path)
        return real(root_, path, *args, **kwargs)

    monkeypatch.setattr(store_module, "read_memory", spy)
    scans: list[Path] = []
    monkeypatch.setattr(store_module, "scan", lambda *a, **k: scans.append(a[0]))
    opened: list[Path] = []
    real_open = catalog.Catalog.open
    monkeypatch.setattr(
        catalog.Catalog, "open", classmethod(lambda cls, r: opened.append(r) or real_open(r))
    )
    assert main(["set", str(root / rel), "critical=true"]) == 0, capsys.readouterr()
    assert read == [rel] and scans == [] and opened == []
    assert "critical" in (root / rel).read_text()
    monkeypatch.undo()
    monkeypatch.setenv(TODAY_ENV, TODAY.isoformat())
    assert main(["index", "--check", "--tree", str(root)]) == 0, capsys.readouterr().out

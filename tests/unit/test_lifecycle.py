"""Curation rules, their boundaries, and plans applied as one unit with an exact undo."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.door import apply

from ..conftest import LT, ST, TASKS, TODAY


def note(days_old: int, **fields: object) -> str:
    date = TODAY - dt.timedelta(days=days_old)
    lines = {"date": date.isoformat(), "topics": "[a]", **fields}
    head = "".join(f"{key}: {value}\n" for key, value in lines.items())
    return f"---\n{head}---\n\n# Note from {date}\n\nSomething learned on {date}.\n"


def paths(proposal: lifecycle.Proposal) -> list[str]:
    return [c.path.rsplit("/", 1)[-1] for c in proposal.candidates]


def test_prune_low_importance_after_30_days_never_critical(tree) -> None:
    store = tree(
        {
            f"{ST}/low30.md": note(30, importance="low"),
            f"{ST}/low31.md": note(31, importance="low"),
            f"{ST}/crit.md": note(200, importance="low", critical="true"),
            f"{ST}/med90.md": note(90, importance="medium"),
            f"{ST}/low91.md": note(91, importance="low"),
            f"{ST}/none91.md": note(91),
        }
    )
    proposal = lifecycle.prune(store.tree)
    assert sorted(paths(proposal)) == ["low31.md", "low91.md", "none91.md"]
    reasons = {c.path.rsplit("/", 1)[-1]: c.reason for c in proposal.candidates}
    assert reasons["low31.md"] == "low importance, 31 days old"
    assert reasons["none91.md"] == "91 days old and not a promotion candidate"


def test_old_memories_worth_promoting_are_not_pruned(tree) -> None:
    store = tree({f"{ST}/old.md": note(120, importance="medium")})
    assert paths(lifecycle.prune(store.tree)) == []
    assert paths(lifecycle.promote(store.tree, TODAY)) == ["old.md"]


@pytest.mark.parametrize(
    ("fields", "promoted"),
    [
        ({"reference_count": 4}, False),
        ({"reference_count": 5}, True),
        ({"importance": "high", "type": "decision"}, True),
        ({"importance": "high", "type": "interaction"}, False),
        ({"importance": "medium", "type": "quick-reference"}, False),
    ],
)
def test_promotion_rules(tree, fields: dict, promoted: bool) -> None:
    store = tree({f"{ST}/2026-06-01_api_auth.md": note(14, **fields)})
    assert bool(lifecycle.promote(store.tree, TODAY).candidates) is promoted


def test_promote_dates_the_copy_today_and_trashes_the_original(tree) -> None:
    original = note(14, reference_count=7, importance="high")
    store = tree({f"{ST}/2026-06-01_api_auth_20260601_101500.md": original})
    proposal = lifecycle.promote(store.tree, TODAY)
    assert proposal.candidates[0].reason == "referenced 7 times"
    applied = apply(store, proposal.plan(), reindex=False)
    new = store.root / LT / f"{TODAY}_api_auth.md"
    date_line = f"date: {(TODAY - dt.timedelta(days=14)).isoformat()}"
    assert new.read_text() == original.replace(date_line, f"date: {TODAY}")
    assert not (store.root / ST / "2026-06-01_api_auth_20260601_101500.md").exists()
    apply(store, applied.inverse, reindex=False)
    assert (store.root / ST / "2026-06-01_api_auth_20260601_101500.md").read_text() == original
    assert not new.exists()


def test_escalate_at_3_and_10_references(tree) -> None:
    store = tree(
        {
            f"{ST}/r2.md": note(5, reference_count=2, importance="low"),
            f"{ST}/r3.md": note(5, reference_count=3, importance="low"),
            f"{ST}/r9.md": note(5, reference_count=9, importance="high"),
            f"{LT}/r10.md": note(5, reference_count=10, importance="high"),
        }
    )
    proposal = lifecycle.escalate(store.tree)
    values = {c.path.rsplit("/", 1)[-1]: dict(c.operations[0].values) for c in proposal.candidates}
    assert values == {"r3.md": {"importance": "high"}, "r10.md": {"critical": True}}


def test_dedupe_trashes_the_poorer_merge_copy(tree) -> None:
    store = tree(
        {
            f"{ST}/2026-06-01_retry.md": note(14, reference_count=3),
            f"{ST}/2026-06-01_retry_20260602_010101.md": note(14, reference_count=1),
        }
    )
    proposal = lifecycle.dedupe(store.tree)
    assert paths(proposal) == ["2026-06-01_retry_20260602_010101.md"]
    assert proposal.candidates[0].reason.startswith("merge copy of 2026-06-01_retry.md")


def test_dedupe_never_trashes_a_critical_memory(tree) -> None:
    store = tree(
        {
            f"{ST}/2026-06-01_retry.md": note(14, reference_count=3),
            f"{ST}/2026-06-01_retry_20260602_010101.md": note(14, critical="true"),
            f"{ST}/2026-06-03_rule.md": note(15, critical="true"),
            f"{ST}/2026-06-03_rule_20260604_010101.md": note(15, critical="true"),
        }
    )
    # The critical copy is the one kept, however poorer; two critical ones are left to a person.
    assert paths(lifecycle.dedupe(store.tree)) == ["2026-06-01_retry.md"]


def test_dedupe_finds_near_identical_bodies_but_not_different_notes(tree) -> None:
    body = (
        "# Cache keys\n\nThe CI cache key ignored uv.lock, so dependency bumps reused old wheels.\n"
    )
    head = "---\ndate: 2026-06-02\ntopics: [ci]\n---\n\n"
    store = tree(
        {
            f"{ST}/a.md": "---\ndate: 2026-06-01\ntopics: [ci]\n---\n\n" + body,
            f"{ST}/b.md": "---\ndate: 2026-06-02\ntopics: [ci, uv]\n---\n\n"
            + body.replace("so", "and"),
            f"{ST}/c.md": head + "# Cache keys\n\nUnrelated.\n",
        }
    )
    proposal = lifecycle.dedupe(store.tree)
    assert paths(proposal) == ["a.md"]  # b has more topics: it is the one kept
    assert "near-identical to b.md" in proposal.candidates[0].reason


def test_complete_moves_the_folder_and_sets_fields(tree) -> None:
    status = "---\ndate: 2026-05-01\ntopics: [x]\nstatus: completed\nproject: proj\n---\n# P\n"
    active = status.replace("completed", "active").replace("proj", "other")
    store = tree(
        {
            f"{TASKS}/proj/status.md": status,
            f"{TASKS}/proj/notes.md": "n\n",
            f"{TASKS}/other/status.md": active,
        }
    )
    proposal = lifecycle.complete(store.tree, TODAY)
    assert [c.path for c in proposal.candidates] == [f"{TASKS}/proj"]
    apply(store, proposal.plan(), reindex=False)
    moved = store.root / ".ai/work-experience/.ai/proj"
    assert (moved / "notes.md").read_text() == "n\n"
    text = (moved / "status.md").read_text()
    assert "status: completed\n" in text and f"completed: {TODAY}\n" in text
    picked = lifecycle.complete(store.tree, TODAY, projects=["other"])
    assert [c.reason for c in picked.candidates] == ["picked to complete"]


def test_a_failing_plan_changes_nothing(tree) -> None:
    store = tree({f"{ST}/a.md": note(40, importance="low"), f"{ST}/b.md": note(40)})
    before = {p.name: p.read_bytes() for p in (store.root / ST).iterdir()}
    plan = Plan(
        "broken",
        (
            Operation("trash", f"{ST}/a.md"),
            Operation("edit", f"{ST}/b.md", values={"importance": "x"}),
        ),
    )
    with pytest.raises(StoreError, match="nothing was changed"):
        apply(store, plan, reindex=False)
    assert {p.name: p.read_bytes() for p in (store.root / ST).iterdir()} == before
    assert store.trash_entries() == []


def test_applying_a_pending_update_changes_the_index_as_the_real_tool(demo_root: Path) -> None:
    from samantha_tui.core.writing.store import Store

    store = Store(demo_root, lambda: TODAY)
    store.scan()
    index_path = demo_root / TASKS / "index.json"
    proposal = lifecycle.pending_updates(store.tree)
    update = store.tree.pending_updates[0]
    apply(store, proposal.plan(), reindex=False)
    index = json.loads(index_path.read_text())
    entry = next(e for e in index["active"] if e["name"] == update.project)
    for key in ("status", "recent_progress"):
        assert entry[key] == update.proposed_changes[key]
    assert index["last_updated"] == TODAY.isoformat()
    assert not (demo_root / update.path).exists()
    assert store.tree.pending_updates == ()


def test_review_on_the_demo_finds_something_of_each_kind(demo_root: Path) -> None:
    from samantha_tui.core.writing.store import Store

    store = Store(demo_root, lambda: TODAY)
    tree = store.scan()
    found = {p.name: len(p.candidates) for p in lifecycle.review(tree, TODAY)}
    assert found["prune"] and found["promote"] and found["escalate"] and found["dedupe"]
    assert found["apply updates"] == 1
    critical = {m.path for m in tree.critical}
    pruned = {c.path for c in lifecycle.prune(tree).candidates}
    assert not critical & pruned


def _every_pair_once(tree: lifecycle.Tree) -> list[tuple[str, str, str]]:
    """duplicate_pairs as a comparison of every pair of one kind sharing a key would give it."""
    from itertools import combinations

    def keys(m: lifecycle.Memory) -> set[str]:
        opening = lifecycle._fold(m.body)[:160]
        return {lifecycle.merge_stem(m), f"title:{m.title.lower()}", f"open:{opening}"}

    found = []
    readable = [m for m in tree.memories if m.date is not None and not m.has_errors]
    for first, second in combinations(readable, 2):
        if first.kind is not second.kind or not keys(first) & keys(second):
            continue
        keep, drop = sorted((first, second), key=lifecycle.richness, reverse=True)
        reason = None if drop.critical else lifecycle.duplicate_reason(keep, drop)
        if reason is not None:
            found.append((keep.path, drop.path, reason))
    return sorted(found, key=lambda p: (p[1], p[0]))


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "x/"]),
            st.sampled_from(["a", "a_20260602_010101", "b", "c"]),
            st.sampled_from(["Cache keys", "Session Analysis - 2026-06-01", "Other"]),
            st.sampled_from(["uv.lock ignored", "uv.lock was ignored", "something else", ""]),
            st.integers(0, 3),
        ),
        max_size=9,
    )
)
def test_each_candidate_pair_is_judged_once_as_a_comparison_of_all_would(
    drawn: list[tuple[str, str, str, str, int]],
) -> None:
    by_path = {
        f"{ST}/{folder}{stem}.md": lifecycle.Memory(
            lifecycle.Kind.SHORT_TERM,
            f"{ST}/{folder}{stem}.md",
            title,
            body=f"# {title}\n\n{text}\n",
            date=TODAY,
            reference_count=refs,
        )
        for folder, stem, title, text, refs in drawn
    }
    memories = tuple(by_path.values())
    tree = lifecycle.Tree(root="", memories=memories)
    found = [(k.path, d.path, r) for k, d, r in lifecycle.duplicate_pairs(tree)]
    assert sorted(found, key=lambda p: (p[1], p[0])) == _every_pair_once(tree)

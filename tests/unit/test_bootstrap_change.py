"""What a plan does to the bootstrap: before and after, worked out in memory, equal to the plan
of the tree once the door really applied it (its index files patched), and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.views import bootstrap, lifecycle
from samantha_tui.core.views.bootstrap import Signals, Tier
from samantha_tui.core.views.bootstrap_change import Unforeseeable, bootstrap_change
from samantha_tui.core.views.plan_outcome import outcome_of
from samantha_tui.core.writing import door, impact
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store
from samantha_tui.demo import write_demo

from ..conftest import LT, ST, TODAY, dt, make_tree

RECENT = f"{ST}/2026-06-10_recent_rule.md"
CRITICAL = f"{ST}/2026-06-01_critical_rule.md"
FREQUENT = f"{ST}/2026-05-01_frequent_note.md"
QUIET = f"{ST}/2026-06-05_quiet_note.md"


def note(title: str, day: str, extra: str = "") -> str:
    return f"---\ndate: {day}\ntopics: [ci]\n{extra}---\n\n# {title}\n\nBody of {title}.\n"


def indexed_store(tmp_path: Path, files: dict[str, str]) -> Store:
    """A tree of these files with its indexes written from them, as samantha-llm keeps them."""
    store = Store(make_tree(tmp_path / "cerebrum", files), lambda: TODAY)
    store.scan()
    Curator(store).reindex()
    store = Store(store.root, lambda: TODAY)
    store.scan()
    return store


@pytest.fixture
def small(tmp_path: Path) -> Store:
    return indexed_store(
        tmp_path,
        {
            RECENT: note("Recent rule", "2026-06-10", "importance: high\n"),
            CRITICAL: note("Critical rule", "2026-06-01", "importance: medium\ncritical: true\n"),
            FREQUENT: note("Frequent note", "2026-05-01", "importance: low\nreference_count: 6\n"),
            QUIET: note("Quiet note", "2026-06-05", "importance: low\n"),
        },
    )


def trash(store: Store, path: str) -> Plan:
    memory = store.get(path)
    assert memory is not None
    return Plan("prune", (Operation("trash", path, "picked", seen=memory.digest),), rule="prune")


def tier_of(plan: bootstrap.BootstrapPlan, path: str) -> Tier | None:
    return next((item.tier for item in plan.items if item.path == path), None)


def test_pruning_a_recent_memory_frees_its_tokens(small: Store) -> None:
    before = bootstrap.plan(small.tree, Signals(), TODAY)
    item = next(i for i in before.items if i.path == RECENT)
    assert item.tier is Tier.RECENT_HIGH

    change = bootstrap_change(small.tree, trash(small, RECENT), TODAY)

    assert change.freed == item.tokens > 0
    assert change.tokens_after == before.total_tokens - item.tokens
    (stopped,) = change.stops
    assert (stopped.path, stopped.before, stopped.after, stopped.gone) == (
        RECENT,
        Tier.RECENT_HIGH,
        None,
        True,
    )
    assert change.starts == () and change.critical == ()


def test_trashing_a_critical_memory_lists_it_with_its_tier(small: Store) -> None:
    change = bootstrap_change(small.tree, trash(small, CRITICAL), TODAY)

    (critical,) = change.critical
    assert (critical.path, critical.title, critical.before, critical.after) == (
        CRITICAL,
        "Critical rule",
        Tier.CRITICAL,
        None,
    )
    assert critical.gone and critical in change.stops


def test_a_promotion_moves_its_file_between_tiers(small: Store) -> None:
    promotion = lifecycle.promote(small.tree, TODAY).plan([FREQUENT])
    target = f"{LT}/{TODAY.isoformat()}_frequent_note.md"
    assert any(op.target == target for op in promotion.operations)

    change = bootstrap_change(small.tree, promotion, TODAY)

    (moved,) = change.changes
    assert (moved.was, moved.path, moved.before, moved.after, moved.gone) == (
        FREQUENT,
        target,
        Tier.FREQUENT,
        Tier.ON_DEMAND,
        False,
    )
    assert moved in change.stops
    assert change.freed == moved.tokens_before
    assert tier_of(change.after, target) is None
    assert target in {later.path for later in change.after.on_demand}


def test_a_critical_promotion_stays_critical_at_its_new_path(small: Store) -> None:
    promotion = lifecycle.promote(small.tree, TODAY)
    candidate = lifecycle.Candidate(
        CRITICAL,
        "Critical rule",
        "picked",
        (
            Operation("copy", CRITICAL, "picked", target=f"{LT}/promoted_rule.md", values={}),
            Operation("trash", CRITICAL, "picked"),
        ),
    )
    plan = lifecycle.Proposal(promotion.name, (candidate,)).plan()

    change = bootstrap_change(small.tree, plan, TODAY)

    (critical,) = change.critical
    assert (critical.was, critical.path, critical.before, critical.after) == (
        CRITICAL,
        f"{LT}/promoted_rule.md",
        Tier.CRITICAL,
        Tier.CRITICAL,
    )
    assert critical in change.moves and not critical.gone


def test_an_empty_plan_changes_nothing(small: Store) -> None:
    change = bootstrap_change(small.tree, Plan("nothing"), TODAY)

    assert not change
    assert change.before == change.after
    assert (change.freed, change.changes, change.critical) == (0, (), ())


def test_a_restore_is_refused_with_a_reason(small: Store) -> None:
    plan = Plan("undo", (Operation("restore", QUIET, target="20260615-000000-1"),))

    with pytest.raises(Unforeseeable, match="restore from the trash"):
        bootstrap_change(small.tree, plan, TODAY)


def files_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


RULES = [
    lifecycle.PRUNE,
    lifecycle.PROMOTE,
    lifecycle.ESCALATE,
    lifecycle.DEDUPE,
    lifecycle.APPLY_UPDATES,
    "every rule",
]


@pytest.mark.parametrize("rule", RULES)
def test_the_after_is_the_bootstrap_of_the_tree_the_door_leaves(tmp_path: Path, rule: str) -> None:
    """The strongest check: computed in memory, then applied for real through the door, the
    tree, its index files and the bootstrap plan are the same, and computing wrote nothing."""
    root = write_demo(tmp_path / "demo", TODAY)
    store = Store(root, lambda: TODAY)
    store.scan()
    proposals = lifecycle.review(store.tree, TODAY)
    if rule == "every rule":
        picked = {p.name: [c.path for c in p.candidates] for p in proposals}
        plan = impact.combine(proposals, picked)
    else:
        plan = next(p for p in proposals if p.name == rule).plan()
    assert plan, f"the demo has no {rule} candidate"
    signals = Signals(project="api-gateway-refactor", keywords=("terraform",))
    untouched = files_of(root)

    change = bootstrap_change(store.tree, plan, TODAY, signals, budget=3000)
    outcome = outcome_of(store.tree, plan, TODAY)

    assert files_of(root) == untouched
    door.apply(store, plan)
    applied = Store(root, lambda: TODAY)
    applied.scan()
    assert outcome.tree.memories == applied.tree.memories
    assert outcome.tree.pending_updates == applied.tree.pending_updates
    for path, data in outcome.index_files.items():
        assert data == (root / path).read_bytes(), path
    assert change.after == bootstrap.plan(applied.tree, signals, TODAY, 3000)
    assert change.tokens_after == change.after.total_tokens


def test_a_step_whose_file_changed_is_skipped_as_the_door_skips_it(small: Store) -> None:
    plan = trash(small, RECENT)
    path = small.root / RECENT
    path.write_text(path.read_text() + "\nAnother program's line.\n")

    change = bootstrap_change(small.tree, plan, TODAY)

    assert change.skipped == (RECENT,)
    assert change.freed == 0
    applied = door.apply(small, plan)
    assert [s.path for s in applied.skipped] == [RECENT]


def test_a_completed_task_follows_its_folder(tmp_path: Path) -> None:
    status = ".ai/current-tasks/.ai/gateway/status.md"
    store = indexed_store(
        tmp_path,
        {
            status: note("Gateway", "2026-05-01", "status: completed\n"),
            ".ai/current-tasks/.ai/gateway/notes.md": "notes\n",
        },
    )
    plan = lifecycle.complete(store.tree, TODAY).plan()

    outcome = outcome_of(store.tree, plan, TODAY)

    moved = next(m for m in outcome.tree.memories if m.path.endswith("gateway/status.md"))
    assert moved.path == ".ai/work-experience/.ai/gateway/status.md"
    assert moved.frontmatter["completed"] == TODAY and moved.status == "completed"
    assert moved.companions == (".ai/work-experience/.ai/gateway/notes.md",)
    assert isinstance(moved.frontmatter["completed"], dt.date)

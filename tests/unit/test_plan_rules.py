"""Every plan carries the name of the rule or edit that made it (`Plan.rule`), a reviewed batch
keeps each rule's plan as a part, and the impact in words is read from those names, never guessed
back from the operations. The journal is as before: an older one still finishes and rolls back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.core.basics import plans
from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import bulk_edits, door, edits, fixes, impact, journal
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.recovery import FINISH, ROLLBACK, recover
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TASKS, TODAY, make_tree, memory_text

OFTEN = f"{ST}/2026-05-20_often.md"
OLD = f"{ST}/2026-01-02_old.md"
BILLING = f"{TASKS}/billing"


def note(title: str, **fields: str) -> str:
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{lines}---\n\n# {title}\n\nWhat {title.lower()} says.\n"


FILES = {
    OFTEN: note(
        "Often", date="2026-05-20", topics="[a]", importance="medium", reference_count="12"
    ),
    OLD: note("Old", date="2026-01-02", topics="[b]", importance="low"),
    f"{BILLING}/status.md": note("Billing", date="2026-05-01", topics="[c]", status="completed"),
}


class Crash(BaseException):
    """Stands for the process dying mid-batch: nothing in the core catches it."""


@pytest.fixture
def store(tree) -> Store:
    return tree(FILES)


def every_candidate(proposals: list[lifecycle.Proposal]) -> dict[str, list[str]]:
    return {p.name: [c.path for c in p.candidates] for p in proposals if p.candidates}


def test_each_rule_names_its_plan(store: Store) -> None:
    proposals = lifecycle.review(store.tree, TODAY)
    assert [p.name for p in proposals] == [
        lifecycle.PRUNE,
        lifecycle.PROMOTE,
        lifecycle.ESCALATE,
        lifecycle.DEDUPE,
        lifecycle.COMPLETE,
        lifecycle.APPLY_UPDATES,
    ]
    for proposal in proposals:
        assert proposal.plan().rule == proposal.name
        assert proposal.plan().parts == ()


def test_a_batch_keeps_each_rules_plan_in_the_order_they_run(store: Store) -> None:
    proposals = lifecycle.review(store.tree, TODAY)
    batch = impact.combine(proposals, every_candidate(proposals))
    assert batch.rule == impact.REVIEW
    assert [part.rule for part in batch.parts] == ["escalate", "promote", "prune", "complete"]
    assert batch.operations == tuple(op for part in batch.parts for op in part.operations)
    assert [(rule, op.action) for rule, op in batch.by_rule()] == [
        ("escalate", "edit"),
        ("promote", "copy"),
        ("promote", "trash"),
        ("prune", "trash"),
        ("complete", "edit"),
        ("complete", "move"),
    ]


def test_a_file_two_rules_trash_is_trashed_once_by_the_first_part(tree) -> None:
    # Low importance, old and referenced 5 times: pruned and promoted at once.
    path = f"{ST}/2026-01-02_everything.md"
    store = tree(
        {path: memory_text(date="2026-01-02", topics="[a]", importance="low", reference_count="5")}
    )
    proposals = lifecycle.review(store.tree, TODAY)
    batch = impact.combine(proposals, {"prune": [path], "promote": [path]})
    assert [(part.rule, len(part.operations)) for part in batch.parts] == [
        ("promote", 2),
        ("prune", 0),
    ]


def test_a_batch_whose_operations_are_not_its_parts_is_refused() -> None:
    part = Plan("prune", (Operation("trash", OLD),), rule=lifecycle.PRUNE)
    assert Plan("review", part.operations, rule=impact.REVIEW, parts=(part,))
    with pytest.raises(ValueError, match="operations must be those of its parts"):
        Plan("review", (), rule=impact.REVIEW, parts=(part,))


def test_describe_reads_the_rule_not_the_shape_of_the_operations(store: Store) -> None:
    # The very operations a promotion, an escalation and a completion take, planned by no rule
    # (a plan made by hand): each is only a file operation.
    lookalike = Plan(
        "by hand",
        (
            Operation("copy", OLD, target=f"{LT}/2026-06-15_old.md", values={"date": TODAY}),
            Operation("edit", OFTEN, values={"importance": "high", "critical": True}),
            Operation("move", BILLING, target=".ai/work-experience/.ai/billing"),
        ),
    )
    assert impact.describe(lookalike, store.tree) == ["And 3 other file operations."]
    # The same operations from their rules are said as what they are.
    rules = (lifecycle.PROMOTE, lifecycle.ESCALATE, lifecycle.COMPLETE)
    parts = tuple(
        Plan(rule, (op,), rule=rule) for rule, op in zip(rules, lookalike.operations, strict=True)
    )
    batch = Plan("review", lookalike.operations, rule=impact.REVIEW, parts=parts)
    assert impact.describe(batch, store.tree)[:3] == [
        "Promote 1 to long-term memory.",
        "Raise 1 to high importance; mark 1 critical.",
        "Complete 1 task (its folder moves to work experience).",
    ]


def test_a_form_save_that_sets_high_importance_is_no_escalation(store: Store) -> None:
    saved = edits.edit_fields(OFTEN, {"importance": "high"}, (), None)
    assert saved.rule == edits.FORM
    assert impact.describe(saved, store.tree) == ["And 1 other file operation."]


def test_edits_fixes_and_bulk_edits_name_their_plans(store: Store) -> None:
    often, old = store.get(OFTEN), store.get(OLD)
    assert often is not None and old is not None
    assert edits.toggle_critical(often).rule == edits.CRITICAL
    assert edits.step_importance(often, 1).rule == edits.STEP_IMPORTANCE
    assert edits.delete([old]).rule == edits.TRASH
    assert edits.create(f"{ST}/2026-06-15_new.md", b"---\n---\n").rule == edits.CREATE
    assert bulk_edits.toggle_critical([often, old]).plan.rule == bulk_edits.BULK_CRITICAL
    assert bulk_edits.step_importance([often, old], 1).plan.rule == bulk_edits.BULK_IMPORTANCE
    change = bulk_edits.BulkChange(values={"importance": "high"})
    assert bulk_edits.edit_many([old], change).plan.rule == bulk_edits.BULK_FORM
    fix = fixes.Fix(OLD, "why", values={"importance": "low"}, expected=old.digest or "")
    assert fix.plan().rule == fixes.FIX


def test_undo_and_redo_name_theirs(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    old = store.get(OLD)
    assert old is not None
    applied = door.apply(store, edits.delete([old]))
    assert applied.plan.rule == edits.TRASH
    assert applied.inverse.rule == plans.UNDO
    curator = Curator(store)
    ran: list[str] = []
    real = door.apply

    def recorded(store: Store, plan: Plan, reindex: bool = True, **options) -> door.Applied:
        ran.append(plan.rule)
        return real(store, plan, reindex, **options)

    monkeypatch.setattr(door, "apply", recorded)
    curator.apply(edits.toggle_critical(store.get(OFTEN)))
    curator.undo()
    curator.redo()
    assert ran == [edits.CRITICAL, plans.UNDO, plans.REDO]
    assert curator.index_plan().rule == plans.INDEX


# --- the journal ---------------------------------------------------------------------------------


def test_a_batch_is_journaled_as_before_without_its_rules(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    proposals = lifecycle.review(store.tree, TODAY)
    batch = impact.combine(proposals, every_candidate(proposals))
    real = door.run_operation
    ran: list[Operation] = []

    def stop_at_the_third(store: Store, op: Operation) -> Operation:
        if len(ran) == 2:
            raise Crash
        ran.append(op)
        return real(store, op)

    with monkeypatch.context() as patch:
        patch.setattr(door, "run_operation", stop_at_the_third)
        with pytest.raises(Crash):
            door.apply(store, batch)
    written = json.loads((store.root / journal.JOURNAL_DIR / journal.PLAN_FILE).read_text())
    assert sorted(written) == ["format", "name", "operations", "started"]
    assert written["name"] == batch.name
    assert written["operations"] == [plans.encode(op) for op in batch.operations]
    # And it finishes as any batch: the rules were never needed to recover it.
    assert recover(store, FINISH).steps == len(batch.operations) - 2
    assert (
        not (store.root / OLD).exists()
        and (store.root / ".ai/work-experience/.ai/billing").is_dir()
    )


def test_a_journal_written_before_plans_carried_a_rule_still_finishes_and_rolls_back(
    tmp_path: Path,
) -> None:
    before = note("Old", date="2026-01-02", topics="[b]", importance="low")
    for mode in (FINISH, ROLLBACK):
        root = make_tree(tmp_path / mode, {OLD: before})
        folder = root / journal.JOURNAL_DIR
        folder.mkdir(parents=True)
        # Exactly what the previous version wrote: no rule, no parts, anywhere.
        old_plan = {
            "format": 1,
            "name": "2026-01-02_old.md: marked critical",
            "started": "2026-06-15T10:00:00",
            "operations": [
                {
                    "action": "edit",
                    "path": OLD,
                    "reason": "read every session",
                    "target": None,
                    "values": [["critical", "json", True]],
                    "unset": [],
                    "data": None,
                    "expected": None,
                    "touch_updated": False,
                    "seen": None,
                    "title": None,
                }
            ],
        }
        (folder / journal.PLAN_FILE).write_text(json.dumps(old_plan))
        store = Store(root, lambda: TODAY)
        store.scan()
        found = journal.pending(root)
        assert found is not None and found.describe() == (
            "2026-01-02_old.md: marked critical, 0 of 1 steps done"
        )
        assert recover(store, mode).steps == (1 if mode == FINISH else 0)
        assert journal.pending(root) is None
        text = (root / OLD).read_text()
        assert ("critical: true" in text) == (mode == FINISH)
        if mode == ROLLBACK:
            assert text == before


# --- a batch says what it does, per kind, and the notice what it did ----------------------------

BOTH = f"{ST}/2026-01-02_both.md"
"""Low importance, old and referenced 5 times: a prune candidate and a promotion candidate."""
RAISED = f"{ST}/2026-01-03_raised.md"
"""Low importance, old and referenced 3 times: a prune candidate and an escalation candidate."""
PLAIN = [f"{ST}/2026-01-0{n}_plain_{n}.md" for n in (4, 5, 6)]


@pytest.fixture
def picks(tree) -> Store:
    files = {
        BOTH: note("Both", date="2026-01-02", topics="[a]", importance="low", reference_count="5"),
        RAISED: note(
            "Raised", date="2026-01-03", topics="[b]", importance="low", reference_count="3"
        ),
    }
    for n, path in enumerate(PLAIN):
        files[path] = note(
            f"Plain {n}", date=f"2026-01-0{n + 4}", topics=f"[p{n}]", importance="low"
        )
    return tree(files)


def test_a_prune_pick_the_batch_promotes_is_counted_and_said_as_a_promotion(picks: Store) -> None:
    proposals = lifecycle.review(picks.tree, TODAY)
    picked = {"prune": [BOTH, *PLAIN], "promote": [BOTH]}
    plan = impact.combine(proposals, picked)
    assert plan.name == "review: promote 1, prune 3", "four prune picks, three pruned"
    assert impact.counts(plan.parts) == {"promote": 1, "prune": 3}
    folded = impact.folded(proposals, picked)
    assert folded == [impact.Folded("prune", BOTH, "promote")]
    assert impact.describe(plan, picks.tree, folded) == [
        "Prune 3 memories to the trash: 0 critical, referenced 0 times in total.",
        "Promote 1 to long-term memory.",
        "1 picked to prune is promoted instead: Both.",
    ]
    outcome = Curator(picks).apply(plan)
    assert outcome.message == "review: promote 1, prune 3"
    assert not outcome.skipped
    assert (picks.root / LT / f"{TODAY.isoformat()}_both.md").exists()
    assert not any((picks.root / path).exists() for path in (BOTH, *PLAIN))


def test_a_prune_pick_the_batch_escalates_is_not_pruned_and_says_so(picks: Store) -> None:
    proposals = lifecycle.review(picks.tree, TODAY)
    picked = {"prune": [RAISED, PLAIN[0]], "escalate": [RAISED]}
    plan = impact.combine(proposals, picked)
    # The door would refuse it (an escalated memory no longer meets the prune rule): the batch
    # does not plan it, and says why.
    assert [(op.action, op.path) for op in plan.operations] == [
        ("edit", RAISED),
        ("trash", PLAIN[0]),
    ]
    assert plan.name == "review: escalate 1, prune 1"
    folded = impact.folded(proposals, picked)
    assert impact.describe(plan, picks.tree, folded)[-1] == (
        "1 picked to prune is escalated instead (an escalated memory is not pruned): Raised."
    )
    outcome = Curator(picks).apply(plan)
    assert (outcome.message, outcome.skipped) == ("review: escalate 1, prune 1", ())
    assert (picks.root / RAISED).exists()


def test_the_notice_of_a_batch_counts_the_steps_that_ran(picks: Store) -> None:
    proposals = lifecycle.review(picks.tree, TODAY)
    plan = impact.combine(proposals, {"prune": PLAIN, "promote": [BOTH]})
    assert plan.name == "review: promote 1, prune 3"
    changed = picks.root / PLAIN[1]
    changed.write_text(changed.read_text() + "\nA line added after the plan.\n")
    outcome = Curator(picks).apply(plan)
    assert outcome.message.startswith("review: promote 1, prune 2 · skipped 1 changed since")
    assert changed.exists()


def test_a_promotion_of_a_memory_the_batch_merges_away_is_left_out_and_said(picks: Store) -> None:
    from samantha_tui.core.views import merging

    keep, drop = picks.get(PLAIN[0]), picks.get(BOTH)
    assert keep is not None and drop is not None
    alike = lifecycle.Proposal(
        merging.MERGE,
        (lifecycle.Candidate(BOTH, "Both", "alike", merging.merge_plan(keep, drop).operations),),
    )
    proposals = [*lifecycle.review(picks.tree, TODAY), alike]
    picked = {merging.MERGE: [BOTH], "promote": [BOTH]}
    plan = impact.combine(proposals, picked)
    assert [(op.action, op.path) for op in plan.operations] == [
        ("edit", keep.path),
        ("trash", BOTH),
    ]
    assert plan.name == "review: merge 1"
    assert impact.describe(plan, picks.tree, impact.folded(proposals, picked))[-1] == (
        "1 picked to promote is merged into the memory it says the same as instead: Both."
    )

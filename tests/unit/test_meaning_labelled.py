"""The labelled set's floors: a change that makes duplicates or conflicts worse found fails.

The figures and thresholds are recorded in bench/README.md ("Meaning")."""

from __future__ import annotations

from samantha_tui.core.views.meaning import CONFLICT, DUPLICATE
from samantha_tui.core.views.meaning.model import Engine, load_engine

from .meaning_labelled import CONTRADICTIONS, PARAPHRASES, UNRELATED, scores, verdicts

FLOORS = {
    "duplicate_precision": 0.95,
    "duplicate_recall": 0.80,
    "conflict_precision": 0.95,
    "conflict_recall": 0.95,
}


def test_the_set_has_at_least_25_pairs_of_each_kind() -> None:
    assert min(len(PARAPHRASES), len(CONTRADICTIONS), len(UNRELATED)) >= 25


def test_duplicates_and_conflicts_meet_the_recorded_floors() -> None:
    engine = load_engine()
    assert isinstance(engine, Engine)
    found = verdicts(engine)
    measured = scores(found)
    below = {name: measured[name] for name, floor in FLOORS.items() if measured[name] < floor}
    assert not below, f"below the floors {FLOORS}: {below}"
    # No unrelated pair is offered at all, and no contradiction is offered for a merge.
    assert set(found["unrelated"]) == {None}
    assert DUPLICATE not in found["contradictions"]
    assert CONFLICT not in found["paraphrases"]

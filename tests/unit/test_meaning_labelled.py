"""The labelled sets' floors: a change that makes duplicates or conflicts worse found fails, on
short memories (meaning_labelled.py), on long ones (meaning_labelled_long.py) and on the demo
tree.

The figures and thresholds are recorded in bench/README.md ("Meaning")."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.core.views.meaning import (
    CONFLICT,
    DUPLICATE,
    RELATED,
    SUPERSESSION,
    SimilarPair,
)
from samantha_tui.core.views.meaning.analysis import analyse
from samantha_tui.core.views.meaning.model import Engine, load_engine
from samantha_tui.core.writing.store import Store
from samantha_tui.demo import write_demo

from ..conftest import TODAY
from . import meaning_labelled_long as long_set
from .meaning_labelled import CONTRADICTIONS, PARAPHRASES, UNRELATED, scores, verdicts

FLOORS = {
    "conflict_precision": 0.95,
    "conflict_recall": 0.95,
    # Paraphrases are no longer offered for a merge on meaning (pairs.MERGE_WORDING: only a copy
    # is); they are shown as related, to read side by side: 22 of 26 today (0.80 were merges
    # before, and a merge offered on meaning was wrong two times in three on the held-out set).
    "paraphrases_shown": 0.80,
}
LONG_FLOORS = {
    "conflict_precision": 0.95,
    "conflict_recall": 0.85,
    "paraphrases_shown": 0.90,
}
"""Long memories: 10 of 10 paraphrases shown as related and 9 of 10 contradictions found today
(the one missed, "Prefer Poetry" / "Avoid Poetry; use uv", differs in half its words: cosine
0.665)."""


def measured_of(found: dict[str, list[str | None]]) -> dict[str, float]:
    shown = [v for v in found["paraphrases"] if v in (DUPLICATE, RELATED)]
    return {**scores(found), "paraphrases_shown": len(shown) / len(found["paraphrases"])}


def engine() -> Engine:
    loaded = load_engine()
    assert isinstance(loaded, Engine)
    return loaded


def test_the_set_has_at_least_25_pairs_of_each_kind() -> None:
    assert min(len(PARAPHRASES), len(CONTRADICTIONS), len(UNRELATED)) >= 25


def test_duplicates_and_conflicts_meet_the_recorded_floors() -> None:
    found = verdicts(engine())
    measured = measured_of(found)
    below = {name: measured[name] for name, floor in FLOORS.items() if measured[name] < floor}
    assert not below, f"below the floors {FLOORS}: {below}"
    # No unrelated pair is offered at all, and no contradiction is offered for a merge.
    assert set(found["unrelated"]) == {None}
    assert DUPLICATE not in found["contradictions"]
    assert CONFLICT not in found["paraphrases"]


def test_the_long_set_is_of_long_memories_and_large_enough() -> None:
    assert len(long_set.PARAPHRASES) >= 10 and len(long_set.CONTRADICTIONS) >= 10
    assert len(long_set.DISTINCT) >= 15
    for _, group in long_set.GROUPS:
        for pair in group:
            for text in pair:
                assert text.startswith("# ") and "\n## " in text and "`" in text
                assert 8 <= len(text.splitlines()) <= 30, text.splitlines()[0]


def test_long_memories_meet_their_floors_and_distinct_ones_give_no_pair() -> None:
    found = verdicts(engine(), long_set.GROUPS)
    measured = measured_of(found)
    below = {k: measured[k] for k, floor in LONG_FLOORS.items() if measured[k] < floor}
    assert not below, f"below the floors {LONG_FLOORS}: {below}"
    # Memories on one subject that say different things (cosines 0.78-0.85) are no pair.
    assert set(found["distinct"]) == {None}
    assert DUPLICATE not in found["contradictions"]
    assert CONFLICT not in found["paraphrases"]


@pytest.fixture(scope="module")
def demo_pairs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], SimilarPair]:
    root = write_demo(Path(tmp_path_factory.mktemp("demo")) / "demo", TODAY)
    store = Store(root, lambda: TODAY)
    store.scan()
    found = analyse(store.tree.memories)
    store.close()
    assert isinstance(found, tuple)
    return {(pair.first.rsplit("/", 1)[-1], pair.second.rsplit("/", 1)[-1]): pair for pair in found}


def test_the_demo_gives_its_merge_copy_as_a_duplicate_its_paraphrase_as_related_and_more(
    demo_pairs: dict[tuple[str, str], SimilarPair],
) -> None:
    paraphrase = (
        "2026-03-20_no_force_push_shared_branches.md",
        "2026-06-12_force_push_own_branches_only.md",
    )
    copy = (
        "2026-05-12_retry_budget_upstream_calls.md",
        "2026-05-12_retry_budget_upstream_calls_20260513_020114.md",
    )
    contradiction = (
        "2026-05-18_jwt_clock_skew_leeway.md",
        "2026-06-10_jwt_leeway_sixty_seconds.md",
    )
    assert set(demo_pairs) == {paraphrase, copy, contradiction}, sorted(demo_pairs)
    # Alike in meaning, worded apart: shown to be read side by side, never merged on meaning.
    assert demo_pairs[paraphrase].verdict == RELATED
    # The demo's merge copy is reworded: by meaning alone it is related (the Duplicates rule
    # still proposes it, by its name: lifecycle.duplicate_pairs).
    assert demo_pairs[copy].verdict == RELATED
    # The same setting with another value, written three weeks later: the newer may supersede.
    jwt = demo_pairs[contradiction]
    assert jwt.verdict == SUPERSESSION and jwt.newer.endswith(contradiction[1])
    assert any("30 vs 60" in cue for cue in jwt.cues), jwt.cues

"""The tree in numbers (core.stats): exact counts on small trees and on the demo."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.indexes import Disagreement, DriftReport, KindDrift
from samantha_tui.core.views.stats import DriftSummary, MonthCount, last_months, stats, top
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TASKS, TODAY, memory_text

PROC = ".ai/procedural-memory/.ai"


def test_last_months_end_with_this_month_and_cross_the_year() -> None:
    assert last_months(dt.date(2026, 6, 15)) == [
        *(dt.date(2025, month, 1) for month in range(7, 13)),
        *(dt.date(2026, month, 1) for month in range(1, 7)),
    ]
    assert last_months(dt.date(2026, 1, 31), 3) == [
        dt.date(2025, 11, 1),
        dt.date(2025, 12, 1),
        dt.date(2026, 1, 1),
    ]


def test_top_breaks_ties_by_name_and_keeps_ten() -> None:
    values = ["b", "a", "b", *(f"t{n:02d}" for n in range(12))]
    assert top(values) == (("b", 2), ("a", 1), *((f"t{n:02d}", 1) for n in range(8)))
    assert top([]) == ()


def test_counts_of_a_small_tree(tree) -> None:
    store = tree(
        {
            # Short-term: the window's first and last day, one day before it, one after today.
            f"{ST}/a.md": memory_text(
                date="2025-07-01", topics="[ci, ci, python]", importance="low", project="p1"
            ),
            f"{ST}/b.md": memory_text(
                date="2026-06-15", topics="[ci]", importance="high", critical="true"
            ),
            f"{ST}/c.md": memory_text(date="2025-06-30", topics="[python]", importance="urgent"),
            f"{ST}/d.md": memory_text(date="2026-07-01", topics="[ops]", project="p1"),
            f"{ST}/old_low.md": memory_text(date="2026-04-01", topics="[x]", importance="low"),
            f"{ST}/broken.md": "---\ndate: [2026\n---\n\n# Broken\n",
            f"{LT}/e.md": memory_text(date="2026-06-01", topics="[ci]", importance="medium"),
            f"{TASKS}/p1/status.md": memory_text(
                date="2026-05-20", topics="[ci]", status="active", project="p1"
            ),
            f"{PROC}/deploy.md": memory_text(date="2026-05-02", topics="[ops]", project="p2"),
        }
    )
    numbers = stats(store.tree, TODAY, None)
    assert numbers.total == 9
    assert numbers.per_kind == (
        (Kind.SHORT_TERM, 6),
        (Kind.LONG_TERM, 1),
        (Kind.CURRENT_TASKS, 1),
        (Kind.WORK_EXPERIENCE, 0),
        (Kind.PROCEDURAL, 1),
    )
    # An unreadable frontmatter has no importance to read: it counts as unset.
    assert numbers.per_importance == (
        ("low", 2),
        ("medium", 1),
        ("high", 1),
        ("unset", 4),
        ("invalid", 1),
    )
    counts = {m.month: m.count for m in numbers.per_month}
    assert len(numbers.per_month) == 12
    assert numbers.per_month[0] == MonthCount(dt.date(2025, 7, 1), 1)
    assert numbers.per_month[-1] == MonthCount(dt.date(2026, 6, 1), 2)
    assert counts[dt.date(2026, 5, 1)] == 2
    assert counts[dt.date(2026, 4, 1)] == 1
    assert sum(counts.values()) == 6, "2025-06-30, 2026-07-01 and the broken file count nowhere"
    assert numbers.top_topics == (("ci", 4), ("ops", 2), ("python", 2), ("x", 1))
    assert numbers.top_projects == (("p1", 3), ("p2", 1))
    assert numbers.critical == 1
    assert numbers.critical_verdict == "too few"
    # old_low (low, 75 days) and a (low, 349 days) are prune candidates; b is critical.
    assert numbers.prune_candidates == 2
    # b: high importance but no type, 0 days old, not referenced: no promotion.
    assert numbers.promote_candidates == 0
    assert numbers.drift is None


@pytest.mark.parametrize(
    ("critical", "verdict"),
    [(0, "too few"), (4, "too few"), (5, "ok"), (10, "ok"), (11, "too many")],
)
def test_critical_verdict_at_the_edges_of_five_to_ten(tree, critical: int, verdict: str) -> None:
    numbers = stats(tree({}).tree, TODAY, None)
    assert dataclasses.replace(numbers, critical=critical).critical_verdict == verdict


def test_an_empty_tree_counts_zero(tree) -> None:
    numbers = stats(tree({}).tree, TODAY, None)
    assert numbers.total == 0
    assert all(count == 0 for _, count in numbers.per_kind)
    assert all(m.count == 0 for m in numbers.per_month)
    assert numbers.top_topics == numbers.top_projects == ()
    assert (numbers.prune_candidates, numbers.promote_candidates) == (0, 0)


def test_drift_is_summed_over_kinds(tree) -> None:
    report = DriftReport(
        (
            KindDrift(
                Kind.SHORT_TERM,
                f"{ST}/index.json",
                missing=("a.md (recent)", "b.md (recent)"),
                gone=("c.md",),
                disagreeing=(Disagreement("d.md", "importance", "high", "low"),),
                files=("index.md is out of date",),
            ),
            KindDrift(Kind.LONG_TERM, f"{LT}/index.json"),
            KindDrift(Kind.PROCEDURAL, f"{PROC}/index.json", missing=("x.md (runbooks)",)),
        )
    )
    numbers = stats(tree({}).tree, TODAY, report)
    assert numbers.drift == DriftSummary(
        drifted=(Kind.SHORT_TERM, Kind.PROCEDURAL), missing=3, gone=1, disagreeing=1, files=1
    )
    clean = stats(tree({}).tree, TODAY, DriftReport(()))
    assert clean.drift == DriftSummary((), 0, 0, 0, 0)


def test_the_demo_tree(demo_root: Path) -> None:
    store = Store(demo_root, lambda: TODAY)
    curator = Curator(store)
    curator.load()
    numbers = stats(store.tree, TODAY, curator.drift())
    # 69: the finalized session's two memories are in short-term memory already, and the 25
    # worker session analyses of the months before are there beside the hand-written ones.
    assert numbers.total == 69
    assert dict(numbers.per_kind) == {
        Kind.SHORT_TERM: 53,
        Kind.LONG_TERM: 10,
        Kind.CURRENT_TASKS: 2,
        Kind.WORK_EXPERIENCE: 1,
        Kind.PROCEDURAL: 3,
    }
    assert numbers.per_importance == (
        ("low", 14),
        ("medium", 30),
        ("high", 24),
        ("unset", 0),
        ("invalid", 1),
    )
    assert [m.count for m in numbers.per_month] == [0, 0, 0, 1, 1, 2, 6, 8, 14, 12, 16, 9]
    assert numbers.top_topics[:3] == (("api-gateway", 9), ("python", 6), ("workflow", 6))
    assert len(numbers.top_topics) == 10
    assert numbers.top_projects == (
        ("api-gateway-refactor", 25),
        ("billing-export", 11),
        ("mobile-sync", 5),
        ("tidewater-infra", 3),
    )
    assert (numbers.critical, numbers.critical_verdict) == (4, "too few")
    # The worker's sessions: 10 low ones past 30 days (prune); of the last 9 added, the 2
    # medium and 1 high past 90 days are still kept (promote).
    assert (numbers.prune_candidates, numbers.promote_candidates) == (13, 14)
    # Each worker entry has a title made from the file name and no importance (2 fields each),
    # one past 30 days is in a recent list where the index would have it in older (a third),
    # and the 9 sessions past 90 days are still in its recent lists.
    assert numbers.drift == DriftSummary(tuple(Kind), missing=13, gone=13, disagreeing=61, files=6)
    curator.reindex()
    assert stats(store.tree, TODAY, curator.drift()).drift == DriftSummary((), 0, 0, 0, 0)

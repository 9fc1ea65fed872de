"""The tree in numbers: kinds, importance, new memories per month, topics, projects, the critical
count against the advised range, curation candidates and index drift."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..basics.model import Kind, Tree
from ..basics.schema import IMPORTANCE
from . import lifecycle
from .indexes import DriftReport

CRITICAL_ADVISED = (5, 10)
"""The format's docs advise 5-10 critical memories across the whole tree."""
MONTHS = 12
TOP = 10
IMPORTANCE_LEVELS = (*IMPORTANCE, "unset", "invalid")


@dataclass(frozen=True)
class MonthCount:
    """New memories (by `date:`) in one calendar month."""

    month: dt.date
    """The first day of the month."""
    count: int


@dataclass(frozen=True)
class DriftSummary:
    """How far the index files are from the memory files, in counts."""

    drifted: tuple[Kind, ...]
    missing: int
    """Entries the files give that an index lacks."""
    gone: int
    """Index entries whose file no longer exists."""
    disagreeing: int
    """Fields (or placements) an index has differently from the files."""
    files: int
    """Whole-file findings: an index file missing, unreadable or out of date."""


@dataclass(frozen=True)
class TreeStats:
    """Everything the stats screen shows, computed from one tree on one day."""

    today: dt.date
    total: int
    per_kind: tuple[tuple[Kind, int], ...]
    """Every kind, in the format's order, zeros included."""
    per_importance: tuple[tuple[str, int], ...]
    """low, medium, high, unset, invalid (a value outside the scale), zeros included."""
    per_month: tuple[MonthCount, ...]
    """The last 12 calendar months, oldest first, this month last."""
    top_topics: tuple[tuple[str, int], ...]
    top_projects: tuple[tuple[str, int], ...]
    critical: int
    prune_candidates: int
    promote_candidates: int
    drift: DriftSummary | None
    """None until the indexes have been compared."""

    @property
    def critical_verdict(self) -> str:
        """`ok`, `too few` or `too many` against the advised 5-10."""
        low, high = CRITICAL_ADVISED
        if self.critical < low:
            return "too few"
        return "too many" if self.critical > high else "ok"


def importance_level(raw: object) -> str:
    """The bucket a memory's `importance:` value falls in."""
    if raw is None:
        return "unset"
    return raw if raw in IMPORTANCE else "invalid"


def last_months(today: dt.date, count: int = MONTHS) -> list[dt.date]:
    """The first days of the `count` calendar months ending with today's, oldest first."""
    index = today.year * 12 + today.month - 1
    return [dt.date(i // 12, i % 12 + 1, 1) for i in range(index - count + 1, index + 1)]


def top(values: Iterable[str], limit: int = TOP) -> tuple[tuple[str, int], ...]:
    """The most frequent values with their counts; ties in name order, so output is stable."""
    counts = Counter(values)
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:limit])


def drift_summary(report: DriftReport) -> DriftSummary:
    """Count what a drift report found, over every kind."""
    return DriftSummary(
        drifted=tuple(k.kind for k in report.kinds if k.drifted),
        missing=sum(len(k.missing) for k in report.kinds),
        gone=sum(len(k.gone) for k in report.kinds),
        disagreeing=sum(len(k.disagreeing) for k in report.kinds),
        files=sum(len(k.files) for k in report.kinds),
    )


def stats(tree: Tree, today: dt.date, drift: DriftReport | None) -> TreeStats:
    """The numbers of a tree; dates outside the last 12 months count in no month."""
    memories = tree.memories
    kinds = Counter(m.kind for m in memories)
    levels = Counter(importance_level(m.frontmatter.get("importance")) for m in memories)
    months = last_months(today)
    by_month = Counter(m.date.replace(day=1) for m in memories if m.date is not None)
    return TreeStats(
        today=today,
        total=len(memories),
        per_kind=tuple((kind, kinds[kind]) for kind in Kind),
        per_importance=tuple((level, levels[level]) for level in IMPORTANCE_LEVELS),
        per_month=tuple(MonthCount(month, by_month[month]) for month in months),
        top_topics=top(topic for m in memories for topic in dict.fromkeys(m.topics)),
        top_projects=top(m.project for m in memories if m.project),
        critical=sum(1 for m in memories if m.critical),
        prune_candidates=len(lifecycle.prune(tree).candidates),
        promote_candidates=len(lifecycle.promote(tree, today).candidates),
        drift=None if drift is None else drift_summary(drift),
    )

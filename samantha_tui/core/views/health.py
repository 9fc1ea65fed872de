"""The memory health report: what is wrong with a tree as a whole, each finding with its fix, and
a score from 0 to 100.

The checks: pairs that say the same thing or the opposite (health_pairs.py), index files out of
step with the memories in a way samantha-llm would read wrong (health_indexes.py), bootstrap
tiers past the token budget, more critical memories than the format advises, memories without
topics or without the summary the index reads, dates in words that rot (relative_dates.py), and
memories the prune rule finds stale. Each check is one of the rules the product already has,
reused: this module only gathers and scores what they say.

A merge copy that is its original's twin byte for byte gets no finding of its own text (topics,
summary, dates): the original's says it, and the duplicate check proposes merging the copy away.

The score is deterministic: 100, less for each check `WEIGHTS[check]` points per finding, at
most `CAP` points per check, never below 0. A check that finds something loses points at once;
no single check, however many findings it has, takes more than CAP.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..basics import progress
from ..basics.model import Memory, Severity, Tree
from ..basics.per_path import PerPath
from ..basics.schema import SESSION_ANALYSIS
from . import health_findings as h
from . import lifecycle
from .bootstrap import BootstrapPlan, Tier
from .dismissals import Dismissal, Dismissed
from .health_findings import Finding, Fix
from .health_indexes import drift_findings
from .health_pairs import pair_findings
from .indexes import DriftReport, drift
from .indexes.summary import summary_of
from .meaning import SimilarPair, Unavailable
from .merge_copies import merge_copies, same_as_original
from .relative_dates import relative_dates
from .stats import CRITICAL_ADVISED

WEIGHTS = {
    h.CONFLICT: 10,
    h.SUPERSESSION: 4,
    h.DUPLICATE: 4,
    h.RELATED: 0,
    h.INDEX_DRIFT: 5,
    h.BOOTSTRAP_BUDGET: 5,
    h.CRITICAL_COUNT: 5,
    h.NO_TOPICS: 2,
    h.NO_SUMMARY: 1,
    h.RELATIVE_DATE: 1,
    h.STALE: 1,
}
"""Points a finding of each check costs. Two related memories are nothing wrong: they are shown
to be read side by side, and cost no point."""
CAP = 20
"""Points one check costs at most."""
READING_DATES = "Reading the dates of {count} memories"
REPORT_EVERY = 500
"""Memories read between two progress reports."""


@dataclass(frozen=True)
class Semantic:
    """What the semantic checks (duplicates and conflicts by meaning) said."""

    on: bool
    reason: str = ""
    """Why they are off."""
    pairs: int = 0
    """Pairs the meaning engine found close."""
    dismissed: int = 0
    """Pairs left out because a person dismissed them (of either source)."""

    def line(self) -> str:
        if not self.on:
            return f"semantic checks: off ({self.reason})"
        return (
            f"semantic checks: on ({self.pairs} close pair{'s' * (self.pairs != 1)} found, "
            f"{self.dismissed} dismissed)"
        )


@dataclass(frozen=True)
class HealthReport:
    findings: tuple[Finding, ...]
    """In the order of health_findings.CHECKS, then by path and line."""
    score: int
    semantic: Semantic

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    def by_check(self) -> list[tuple[str, list[Finding]]]:
        """(check, its findings) for each check that found something, in report order."""
        grouped = [(check, [f for f in self.findings if f.check == check]) for check in h.CHECKS]
        return [(check, found) for check, found in grouped if found]


def score(findings: Iterable[Finding]) -> int:
    """100 less each check's points (see the module's docstring)."""
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.check] = counts.get(finding.check, 0) + 1
    lost = sum(min(CAP, WEIGHTS.get(check, 1) * count) for check, count in counts.items())
    return max(0, 100 - lost)


def health_report(
    tree: Tree[Memory],
    today: dt.date,
    *,
    bootstrap_plan: BootstrapPlan | None,
    meaning: tuple[SimilarPair, ...] | Unavailable,
    dismissed: Dismissed | Iterable[Dismissal],
    drift_report: DriftReport | None = None,
) -> HealthReport:
    """Every check over `tree`. `bootstrap_plan`: the plan to measure against its budget (None:
    no such check); `meaning`: the meaning engine's pairs, or why it is off; `dismissed`: the
    pairs a person dismissed; `drift_report`: the index drift when the caller has it (None: it is
    worked out here, reading the tree's index files)."""
    if not isinstance(dismissed, Dismissed):
        dismissed = Dismissed(dismissed)
    pairs = pair_findings(tree, () if isinstance(meaning, Unavailable) else meaning, dismissed)
    if drift_report is None:
        drift_report = drift(tree, Path(tree.root), today)
    findings = [
        *pairs.findings,
        *drift_findings(drift_report, tree),
        *budget_findings(bootstrap_plan),
        *critical_findings(tree),
        *missing_findings(tree),
        *date_findings(tree),
        *stale_findings(tree),
    ]
    order = {check: place for place, check in enumerate(h.CHECKS)}
    findings.sort(key=lambda f: (order[f.check], f.paths, f.line or 0))
    if isinstance(meaning, Unavailable):
        semantic = Semantic(False, meaning.reason, dismissed=pairs.dismissed)
    else:
        semantic = Semantic(True, pairs=len(meaning), dismissed=pairs.dismissed)
    return HealthReport(tuple(findings), score(findings), semantic)


def budget_findings(plan: BootstrapPlan | None) -> list[Finding]:
    """One finding per bootstrap tier with memories past the token budget."""
    if plan is None or plan.budget is None:
        return []
    found = []
    for tier in Tier:
        over = [item for item in plan.items if item.tier is tier and item.over_budget]
        if not over:
            continue
        tokens = sum(item.tokens for item in over)
        found.append(
            Finding(
                h.BOOTSTRAP_BUDGET,
                Severity.WARNING,
                tuple(item.path for item in over),
                f"{len(over)} {tier.value} memor{'ies' if len(over) != 1 else 'y'} "
                f"({tokens} tokens) past the bootstrap budget of {plan.budget} tokens; the "
                f"whole start-up load is {plan.total_tokens} tokens",
                Fix(
                    h.BOOTSTRAP,
                    "b: the bootstrap preview; unmark critical or lower the importance of what "
                    "need not load every session, or raise `bootstrap.budget` in the settings",
                ),
            )
        )
    return found


def critical_findings(tree: Tree[Memory]) -> list[Finding]:
    """More critical memories than the format advises (5-10), read every session."""
    critical = sorted(m.path for m in tree.memories if m.critical)
    most = CRITICAL_ADVISED[1]
    if len(critical) <= most:
        return []
    return [
        Finding(
            h.CRITICAL_COUNT,
            Severity.WARNING,
            tuple(critical),
            f"{len(critical)} memories are critical, read every session; the format advises "
            f"{CRITICAL_ADVISED[0]}-{most}",
            Fix(h.CRITICAL, "6: the Critical tab; c unmarks those that need not be read always"),
        )
    ]


def missing_findings(tree: Tree[Memory]) -> list[Finding]:
    """Memories without topics, or without the summary their index entry is made from (the
    first sentence under the title: indexes/summary.py). Files whose frontmatter cannot be read
    are `check`'s to report, not these checks'."""
    found = []
    copies = merge_copies(tree)
    for memory in tree.memories:
        if not memory.frontmatter or same_as_original(memory, copies):
            continue
        if not memory.topics:
            found.append(
                Finding(
                    h.NO_TOPICS,
                    Severity.WARNING,
                    (memory.path,),
                    f"{memory.name} has no topics: the index lists none, so a search or a "
                    "bootstrap by topic never finds it",
                    Fix(h.FORM, "e: the form, Topics: give it one or two", field="topics"),
                )
            )
        if not summary_of(memory.body):
            found.append(
                Finding(
                    h.NO_SUMMARY,
                    Severity.WARNING,
                    (memory.path,),
                    f"{memory.name} has no summary: its index entry's is made from the first "
                    "sentence under the title, and it has no such sentence",
                    Fix(h.EDITOR, "o: write one sentence under the title saying what it is"),
                )
            )
    return found


def body_first_line(memory: Memory) -> int:
    """The 1-based line of the file where the body starts (after the frontmatter)."""
    body = memory.body
    body_lines = body.count("\n") + (1 if body and not body.endswith("\n") else 0)
    return memory.lines - body_lines + 1


_DATES = PerPath(lambda body, date: tuple(relative_dates(body, date)))
"""Each memory's dates in words, read again only when its body or date changed."""


def date_findings(tree: Tree[Memory]) -> list[Finding]:
    """Each date in words that will rot, with its line of the file. Not in the worker's session
    analyses: each is the account of one day, headed by that day (`Session Analysis - DATE`),
    and its "tomorrow" is read against it as a dated log's is; a person would not rewrite the
    hundreds a tree holds."""
    found = []
    copies = merge_copies(tree)
    memories = tree.memories
    for number, memory in enumerate(memories):
        if number % REPORT_EVERY == 0:
            progress.report(number, len(memories), READING_DATES)
        if memory.type == SESSION_ANALYSIS or same_as_original(memory, copies):
            continue
        first = body_first_line(memory)
        for phrase in _DATES(memory.path, memory.body, memory.date):
            meant = f" (written on {memory.date}, it meant {phrase.meant})" if phrase.meant else ""
            found.append(
                Finding(
                    h.RELATIVE_DATE,
                    Severity.WARNING,
                    (memory.path,),
                    f'"{phrase.phrase}" will mean another day each time it is read{meant}',
                    Fix(h.EDITOR, "o: write the date it means instead (YYYY-MM-DD)"),
                    line=first + phrase.line,
                )
            )
    return found


def stale_findings(tree: Tree[Memory]) -> list[Finding]:
    """The memories the prune rule proposes, for the reason it gives."""
    return [
        Finding(
            h.STALE,
            Severity.WARNING,
            (candidate.path,),
            f"{candidate.reason}: the prune rule proposes moving it to the trash",
            Fix(
                h.REVIEW,
                "p: the review's Prune section (or `samantha-tui prune`)",
                section=lifecycle.PRUNE,
            ),
        )
        for candidate in lifecycle.prune(tree).candidates
    ]

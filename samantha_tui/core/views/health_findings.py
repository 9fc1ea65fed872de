"""What the health report finds: a finding is a check's name, how bad, the files, what is wrong
in words, and the fix (the one-key fix or the review section that resolves it)."""

from __future__ import annotations

from dataclasses import dataclass

from ..basics.model import Severity

# The checks, in the order the report lists them.
CONFLICT = "conflict"
SUPERSESSION = "supersession"
DUPLICATE = "duplicate"
RELATED = "related"
INDEX_DRIFT = "index drift"
BOOTSTRAP_BUDGET = "bootstrap budget"
CRITICAL_COUNT = "critical count"
NO_TOPICS = "no topics"
NO_SUMMARY = "no summary"
RELATIVE_DATE = "relative date"
STALE = "stale"
CHECKS = (
    CONFLICT,
    SUPERSESSION,
    DUPLICATE,
    RELATED,
    INDEX_DRIFT,
    BOOTSTRAP_BUDGET,
    CRITICAL_COUNT,
    NO_TOPICS,
    NO_SUMMARY,
    RELATIVE_DATE,
    STALE,
)

# What resolves a finding (Fix.action).
MERGE = "merge"
"""merging.merge_plan(keep, drop): the finding's paths are (keep, drop)."""
RESOLVE_CONFLICT = "resolve conflict"
"""merging.stands_plan (or, for the newer of a supersession, merging.merge_plan), an edit of
one, or a dismissal: the person picks, in the review's section of pairs to settle."""
FORM = "form"
"""The frontmatter form (`e`), on Fix.field."""
EDITOR = "editor"
"""The file in the person's editor (`o`): the body needs words only they can write."""
CRITICAL = "critical"
"""The critical flag (`c`), in the Critical tab."""
BOOTSTRAP = "bootstrap"
"""The bootstrap preview (`b`)."""
INDEX = "index"
"""Bringing the indexes in step (`r`, `samantha-tui index`)."""
REVIEW = "review"
"""A section of the review (`p`), Fix.section, the rule of lifecycle.py that proposes it."""


@dataclass(frozen=True)
class Fix:
    action: str
    """One of the actions above."""
    words: str
    """What to do, for a person."""
    field: str = ""
    """FORM: the field the form opens on."""
    section: str = ""
    """REVIEW: the rule's section (`prune`)."""


@dataclass(frozen=True)
class Finding:
    check: str
    severity: Severity
    paths: tuple[str, ...]
    """The files it is about, relative to the root; for a pair to merge, (keep, drop)."""
    message: str
    fix: Fix
    line: int | None = None
    """The line of the file, 1-based, when the finding is at one."""

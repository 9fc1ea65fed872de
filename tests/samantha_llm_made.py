"""A memory tree as samantha-llm makes it, file for file: what its worker, its merge and its
assistant (following its process documents) write, for tests that ask whether a view of ours
says anything of such a tree that a person would not act on.

What each writer leaves, checked against samantha-llm's own code run in a scratch folder
(memory_generator.generate_memory_file, subconscious_worker.finalize_session_memories,
merge_sessions.merge_completed_sessions) and its core_processes/memory_format.md:

- the worker: one session analysis per session, `<date>_<first topic>.md`, frontmatter in its
  fixed order, `# Session Analysis - <date>`, then `## Overview` (the summary, without its
  `**Chunk 1**:` label, cut at 500 characters), the lists, `## Session Metadata`; its finalize
  copies the file into short-term memory and puts an entry in the short-term index.json
  (no importance, a title made from the file name, a summary naming the session, the entry
  first in `recent.high_importance` or `recent.medium_importance`, stats counted up);
- the merge: the same file copied again as `<stem>_<session id>.md` (the name is taken), never
  indexed; a drafted runbook with its procedural index.json entry (summary: the reason);
- the assistant: memories by the templates (heading, then the text on the next line), the
  current-tasks index.json in the documented shape and index.md files by their templates.

The files' wording is ours; their shapes are samantha-llm's.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ST = ".ai/short-term-memory/.ai"
LT = ".ai/long-term-memory/.ai"
TASKS = ".ai/current-tasks/.ai"
WE = ".ai/work-experience/.ai"
PROC = ".ai/procedural-memory/.ai"
SUB = ".ai/subconscious/.ai"
OVERVIEW_LIMIT = 500
"""Characters of the session's summary the worker writes under `## Overview`."""


@dataclass(frozen=True)
class Session:
    """What the worker's analysis of one session gave, and what it writes from it."""

    id: str
    """`YYYYMMDD_HHMMSS`; the memory's date is its first part."""
    workspace: str
    seconds: int
    topics: tuple[str, ...]
    importance: str
    summary: str | None = None
    decisions: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    learnings: tuple[str, ...] = ()
    preferences: tuple[str, ...] = ()
    todos: tuple[str, ...] = ()

    @property
    def date(self) -> str:
        day = self.id.split("_")[0]
        return f"{day[:4]}-{day[4:6]}-{day[6:]}"

    @property
    def name(self) -> str:
        return f"{self.date}_{self.topics[0].replace(' ', '_')}.md"

    @property
    def copy_name(self) -> str:
        """The merge's name for its copy when `name` is taken."""
        return f"{self.name[:-3]}_{self.id}.md"

    def overview(self) -> str | None:
        if not self.summary:
            return None
        text = self.summary
        if "**Chunk 1**:" in text:
            text = text.split("**Chunk 2**")[0].replace("**Chunk 1**:", "").strip()
        return text[:OVERVIEW_LIMIT] + ("..." if len(text) > OVERVIEW_LIMIT else "")

    def text(self) -> str:
        """The session analysis, line for line as the worker writes it."""
        minutes = self.seconds // 60
        lines = [
            "---",
            f"date: {self.date}",
            f"topics: [{', '.join(self.topics)}]",
            f"importance: {self.importance}",
            "type: session-analysis",
            f"project: {Path(self.workspace).name}",
            "reference_count: 0",
            f"session_id: {self.id}",
            f"duration_minutes: {minutes}",
            "---",
            "",
            f"# Session Analysis - {self.date}",
            "",
        ]
        overview = self.overview()
        if overview is not None:
            lines += ["## Overview", "", overview, ""]
        for heading, items in (
            ("Key Decisions", self.decisions),
            ("Patterns & Insights", self.patterns),
            ("Key Learnings", self.learnings),
            ("User Preferences & Working Style", self.preferences),
        ):
            if items:
                lines += [f"## {heading}", "", *(f"- {item}" for item in items), ""]
        if self.todos:
            lines += ["## Action Items", "", *(f"- [ ] {todo}" for todo in self.todos), ""]
        lines += [
            "## Session Metadata",
            "",
            f"- **Workspace**: {self.workspace}",
            f"- **Duration**: {minutes} minutes",
            f"- **Session ID**: {self.id}",
            "",
        ]
        return "\n".join(lines)

    def index_entry(self) -> dict[str, Any]:
        """The entry the worker's finalize puts in the short-term index.json."""
        return {
            "date": self.date,
            "title": self.name[:-3].replace("_", " ").title(),
            "topics": list(self.topics),
            "type": "session-analysis",
            "project": Path(self.workspace).name,
            "summary": f"Auto-generated from session {self.id}",
            "file": self.name,
            "references": 0,
        }


@dataclass(frozen=True)
class DraftRunbook:
    """A runbook the merge drafts from a session's procedural recommendation."""

    domain: str
    reason: str
    day: str
    keywords: tuple[str, ...]
    paths: tuple[str, ...]
    knowledge: tuple[str, ...]
    triggers: dict[str, list[str]] = field(default_factory=dict)
    anti: tuple[tuple[str, str], ...] = ()

    def text(self) -> str:
        positive = {
            key: self.triggers.get(key, [])
            for key in ("repo_signals", "path_signals", "keyword_signals", "domain_signals")
        }
        negative = "".join(
            f'\n    - signal: "{signal}"\n      reason: "{reason}"\n      added: {self.day}'
            for signal, reason in self.anti
        )
        rows = "".join(f"| {p.split('/')[-1]} | `{p}` |\n" for p in sorted(self.paths))
        knowledge = "\n".join(f"- {item}" for item in self.knowledge)
        title = self.domain.replace("-", " ").title()
        signals = "".join(f"    {key}: {json.dumps(value)}\n" for key, value in positive.items())
        return (
            f"---\ndate: {self.day}\nupdated: {self.day}\ndomain: {self.domain}\n"
            f"topics: [{', '.join(self.keywords)}]\ntype: runbook\nconfidence: low\n"
            f"triggers:\n  positive:\n{signals}  negative:{negative or ' []'}\n"
            f"corrections: []\n---\n\n# {title} Runbook\n\n"
            "*Draft \u2014 auto-generated from subconscious analysis. Confidence: low.*\n"
            f"*Reason: {self.reason}*\n\n## Project Locations\n\n"
            f"| Component | Path |\n|-----------|------|\n{rows}\n## Key Architecture\n\n"
            f"{knowledge}\n\n## Common Operations\n\n(To be populated from additional session "
            "observations)\n\n## Critical Knowledge\n\n(To be populated from corrections and "
            "repeated patterns)\n"
        )

    def index_entry(self) -> dict[str, Any]:
        return {
            "file": f"{self.domain}.md",
            "domain": self.domain,
            "summary": self.reason,
            "triggers": {
                "positive": {
                    key: self.triggers.get(key, [])
                    for key in ("repo_signals", "path_signals", "keyword_signals", "domain_signals")
                },
                "negative": [{"signal": signal, "reason": reason} for signal, reason in self.anti],
            },
            "confidence": "low",
            "corrections_count": 0,
        }


# Durations and frequencies, in the worker's words and the assistant's: none names a day.
SESSIONS = (
    Session(
        "20260610_101500",
        "/home/sam/code/billing-api",
        3120,
        ("use_sqlite_for", "retry_failed_webhooks", "keep_the_cli"),
        "medium",
        summary="**Chunk 1**: Moved the job queue off Redis onto SQLite and settled how failed "
        "webhooks are retried. The migration ships in a day or two once it is reviewed; the "
        "rollout itself takes a day.\n\n**Chunk 2**: Wrote the retry tests.",
        decisions=(
            "Use SQLite for the job queue: one file, no server to run",
            "Retry failed webhooks three times: the provider retries for a day anyway",
            "Keep the CLI flags stable: scripts in CI depend on them",
        ),
        patterns=("User reviews the plan before any code is written",),
        learnings=(
            "SQLite in WAL mode lets readers run while one writer writes",
            "The provider sends each webhook at most once per minute, every day",
        ),
        preferences=("Prefers small commits whose body says why",),
        todos=("Write the migration for the jobs table",),
    ),
    Session(
        "20260612_141000",
        "/home/sam/code/billing-api",
        5400,
        ("pin_ruff_to", "user_asks_for"),
        "low",
        summary="**Chunk 1**: Fixed the lint job that broke after a ruff release and pinned "
        "the version. CI now finishes in two minutes, within a week of tuning.",
        decisions=("Pin ruff to one version in CI: a new rule broke the build",),
        patterns=("User asks for two options before choosing",),
        learnings=("Cache keys are checked per day, so a key a day later misses",),
        todos=("Bump ruff in the lockfile once the new rules are read",),
    ),
    # No summary in the analysis: the worker writes no Overview.
    Session(
        "20260613_090000",
        "/home/sam/code/docs-site",
        1500,
        ("split_the_readme",),
        "low",
        decisions=("Split the README into install and usage pages",),
        learnings=("mkdocs keeps the nav order only when it is listed by hand",),
    ),
)
RUNBOOK = DraftRunbook(
    "billing-api",
    "Three sessions found the queue and webhook layout again",
    "2026-06-14",
    ("queue", "webhooks"),
    ("billing/queue.py", "billing/webhooks.py"),
    ("The queue lives in billing/queue.py", "Webhooks are retried three times"),
    {"repo_signals": ["billing-api"], "keyword_signals": ["job queue", "webhook"]},
    (("docs-site repo", "the docs only mention billing"),),
)

HAND_SHORT = f"{ST}/2026-06-11_api_rate_limits.md"
HAND_SHORT_TEXT = """---
date: 2026-06-11
updated: 2026-06-11
topics: [api, rate-limits]
importance: high
type: decision
project: billing-api
reference_count: 2
---

# Rate limits for the partner API

## Context
Partners hit the API in bursts at the top of each hour.

## Key Points
- Limit each key to 100 requests per minute
- A burst allowance of 20 requests, refilled every day

## Technical Details
The limiter lives in `billing/limits.py`; a request takes a day's quota only when it succeeds.

## Follow-up
- [ ] Tell the partners before the limit applies

---
**Update 2026-06-12**: The allowance is per key, not per partner.
"""
HAND_LONG = f"{LT}/2026-05-02_api_design_lessons.md"
HAND_LONG_TEXT = """---
date: 2026-05-02
topics: [api, design]
importance: high
type: foundational-knowledge
---

# Title: Version APIs in the path

## Summary
Every public API carries its version in the path, so old clients keep working for a year.

## Background
A header-versioned API broke two partners in one week.

## Details
Routes are `/v1/...`; a new major version runs beside the old one for a while.

## Applications
The billing and search APIs.

## Related Topics
- api-design/authentication_patterns.md
"""
STATUS = f"{TASKS}/billing-queue/status.md"
STATUS_TEXT = """---
date: 2026-06-01
updated: 2026-06-12
topics: [backend, queue]
status: active
project: billing-queue
---

# Billing queue - Current Status

**Last Updated**: 2026-06-12

## Project Overview
Move the billing job queue from Redis to SQLite.

## Current Status: Phase 2

### Completed Phases
- \u2713 Phase 1: Queue behind an interface
  - Tests passing: 40/40

### Current Phase
- [ ] Migration for the jobs table
- [x] Retry policy

### Next Phase
Cut over, then remove Redis.

## Key Files
- billing/queue.py: the queue

## Important Context
Workers must be drained before the cut-over, which takes a day.
"""
DONE = f"{WE}/docs-revamp/status.md"
DONE_TEXT = """---
date: 2026-03-01
completed: 2026-04-15
topics: [docs]
status: completed
project: docs-revamp
---

# Docs revamp - Completed

**Started**: 2026-03-01
**Completed**: 2026-04-15
**Duration**: 6 weeks

## Final Summary
The docs moved to mkdocs with one page per command.

## Lessons Learned
Screenshots age faster than text.

## Metrics
- Pages written: 24
"""
TASKS_INDEX = {
    "last_updated": "2026-06-12",
    "active_count": 1,
    "active": [
        {
            "name": "billing-queue",
            "status": "Phase 2 - retry policy done",
            "started": "2026-06-01",
            "summary": "Move the billing job queue from Redis to SQLite",
            "files": ["billing-queue/status.md"],
            "topics": ["backend", "queue"],
            "recent_progress": "Retry policy merged; migration next.",
        }
    ],
    "blocked": [],
    "recently_completed": [],
}
TASKS_INDEX_MD = """# Current Tasks Index

**Last Updated**: 2026-06-12
**Active Projects**: 1

## Active Projects

### billing-queue
**Status**: Phase 2 - retry policy done
**Started**: 2026-06-01
**Summary**: Move the billing job queue from Redis to SQLite
**Files**: `billing-queue/status.md`

## Blocked Projects
None

## Recently Completed (Move to work-experience)
None
"""
SHORT_INDEX_MD = """# Short-Term Memory Index

**Last Updated**: 2026-06-11
**Total Memories**: 1

## Recent (Last 30 Days)
- `2026-06-11_api_rate_limits.md` - Per-key limits for the partner API [topics: api, rate-limits] [importance: high]

## By Topic

### API
- `2026-06-11_api_rate_limits.md`
"""  # noqa: E501  (the template's line is one line)
HAND_ENTRY = {
    "file": "2026-06-11_api_rate_limits.md",
    "summary": "Per-key limits for the partner API",
    "importance": "high",
    "references": 2,
    "type": "decision",
    "project": "billing-api",
}
"""The assistant's entry in the documented shape: no title, date or topics."""
LONG_INDEX_MD = """# Long-Term Memory Index

**Last Updated**: 2026-05-02
**Total Memories**: 1

## By Topic

### API Design
- `2026-05-02_api_design_lessons.md` - Version APIs in the path

## High Importance
- `2026-05-02_api_design_lessons.md`
"""


def _dump(data: Any) -> str:
    """As samantha-llm's writers dump JSON: two spaces, non-ASCII escaped, no final newline."""
    return json.dumps(data, indent=2)


def short_term_index(sessions: tuple[Session, ...], today: str) -> dict[str, Any]:
    """The short-term index.json after the assistant's entry and each session's finalize."""
    index: dict[str, Any] = {
        "last_updated": today,
        "total_memories": 1,
        "critical": [],
        "high_priority": [],
        "recent": {"high_importance": [dict(HAND_ENTRY)], "medium_importance": []},
        "stats": {
            "by_importance": {"high": 1, "medium": 0, "low": 0},
            "by_type": {"decision": 1},
            "by_project": {"billing-api": 1},
        },
    }
    for session in sessions:
        entry = session.index_entry()
        section = "high_importance" if session.importance == "high" else "medium_importance"
        index["recent"][section].insert(0, entry)
        stats = index["stats"]
        stats["by_importance"][session.importance] += 1
        stats["by_type"]["session-analysis"] = stats["by_type"].get("session-analysis", 0) + 1
        project = entry["project"]
        stats["by_project"][project] = stats["by_project"].get(project, 0) + 1
        index["total_memories"] += 1
    return index


def files(today: dt.date) -> dict[str, str]:
    """Every file of the tree, by path from its root: what `make_tree` writes."""
    stamp = today.isoformat()
    found: dict[str, str] = {
        HAND_SHORT: HAND_SHORT_TEXT,
        HAND_LONG: HAND_LONG_TEXT,
        STATUS: STATUS_TEXT,
        DONE: DONE_TEXT,
        f"{ST}/index.json": _dump(short_term_index(SESSIONS, stamp)),
        f"{ST}/index.md": SHORT_INDEX_MD,
        f"{LT}/index.md": LONG_INDEX_MD,
        f"{TASKS}/index.json": _dump(TASKS_INDEX),
        f"{TASKS}/index.md": TASKS_INDEX_MD,
        f"{PROC}/{RUNBOOK.domain}.md": RUNBOOK.text(),
        f"{PROC}/index.json": _dump(
            {
                "last_updated": RUNBOOK.day,
                "description": "Procedural memory registry.",
                "total_runbooks": 1,
                "runbooks": [RUNBOOK.index_entry()],
                "loading_strategy": {
                    "minimum_positive_categories": 2,
                    "negative_signals_are_veto": True,
                },
            }
        ),
    }
    for session in SESSIONS:
        text = session.text()
        found[f"{ST}/{session.name}"] = text  # the finalize's copy
        found[f"{ST}/{session.copy_name}"] = text  # the merge's, the name being taken
        found[f"{SUB}/processed/{session.id}/memories/{session.name}"] = text
        found[f"{SUB}/processed/{session.id}/status.json"] = _dump(
            {"status": "complete", "session_id": session.id}
        )
    return found


def copies() -> list[str]:
    """The merge copies' paths."""
    return [f"{ST}/{session.copy_name}" for session in SESSIONS]


__all__ = ["DONE", "HAND_LONG", "HAND_SHORT", "PROC", "RUNBOOK", "SESSIONS", "STATUS", "files"]

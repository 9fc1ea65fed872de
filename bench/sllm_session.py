"""One worker session, as samantha-llm's background worker leaves it (facts from its code).

The worker asks an LLM for an analysis of a session (lists of patterns, decisions, todos,
preferences, learnings, and a summary) and turns it into one short-term memory. What is fixed
by the worker, and reproduced here byte for byte:

- topics: the first three words of each of the first three decisions (text before a `:`, bold
  stars stripped from the ends, lower-cased, `_`-joined, `,` and `.` dropped, kept when under 30
  characters); fewer than two, and the first three words of the first two patterns are added;
  none at all gives `session_analysis`. The file is `DATE_<first topic>.md`.
- importance: `high` above 30 insights an hour or more than 5 decisions, `medium` above 15 an
  hour or more than 2 decisions, else `low`.
- the frontmatter keys and their order, the `# Session Analysis - DATE` title, the sections in
  a fixed order, each only when its list is not empty, the Overview cut at 500 characters plus
  `...` (a chunked session shows only its first chunk), `- [ ] ` before each action item, and
  the Session Metadata lines; LF endings and one newline at the end.
- finalize appends an entry of its own shape to the short-term index (title from the file
  name, `Auto-generated from session <id>` as summary, no importance key).

The analysis itself is drawn from sllm_words: the only part an LLM would have written.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import zlib
from typing import Any, NamedTuple

from . import sllm_words as words
from .sllm_words import Project


class Analysis(NamedTuple):
    patterns: list[str]
    decisions: list[str]
    todos: list[str]
    preferences: list[str]
    learnings: list[str]
    summary: str | None


class Session(NamedTuple):
    session_id: str
    start: dt.datetime
    seconds: int
    workspace: str
    project: Project
    analysis: Analysis

    @property
    def date(self) -> str:
        return self.start.date().isoformat()

    @property
    def finished(self) -> dt.datetime:
        """When the worker marked it complete: a few minutes after the session ended."""
        return self.start + dt.timedelta(seconds=self.seconds + 140 + self.seconds % 197)


_POOLS: dict[str, str | tuple[str, ...]] = {
    "thing": "things",
    "thing2": "things",
    "file": "files",
    "file2": "files",
    "tool": "tools",
    "tool2": "tools",
    "service": "services",
    "setting": "settings",
    "where": words.WHERE,
    "env": words.ENVS,
}
"""Where each slot's value comes from: a field of the project, or a list of its own."""
_TWINS = {"thing2": "thing", "file2": "file", "tool2": "tool"}


class _Slots(dict[str, str]):
    """Values for a template's slots, drawn on first use and kept for the rest of it."""

    def __init__(self, rng: random.Random, project: Project, person: str) -> None:
        super().__init__()
        self.rng, self.project, self.person = rng, project, person

    def __missing__(self, key: str) -> str:
        value = self._draw(key.lower())
        if key[0].isupper():
            value = value[0].upper() + value[1:]
        self[key] = value
        return value

    def _draw(self, key: str) -> str:
        rng, p = self.rng, self.project
        pool = _POOLS.get(key)
        if pool is not None:
            choices = getattr(p, pool) if isinstance(pool, str) else pool
            value = rng.choice(choices)
            twin = _TWINS.get(key)
            while twin and self.get(twin) == value and len(set(choices)) > 1:
                value = rng.choice(choices)
            return value
        if key == "verb":
            return rng.choice(words.VERBS).lower()
        if key == "why":
            return rng.choice(words.WHY).format_map(self)
        if key == "person":
            return self.person if rng.random() < 0.6 else rng.choice(words.PEOPLE)
        if key == "project":
            return p.name
        if key == "value":
            return str(setting_value(self["setting"]))
        numbers = {
            "n": lambda: rng.randint(2, 12),
            "n2": lambda: rng.randint(2, 9),
            "ms": lambda: rng.choice((4, 12, 35, 80, 140, 250, 400, 900, 1200)) + rng.randint(0, 9),
            "pct": lambda: rng.randint(3, 95),
            "big": lambda: f"{rng.randint(2, 950) * 1000:,}",
        }
        return str(numbers[key]())


def setting_value(setting: str) -> int:
    """The value a setting has, the same in every memory that gives it: a real tree states a
    setting alike until someone changes it (projects of one domain share setting names, and a
    person's projects their conventions), where values drawn afresh each time would make every
    two memories that name it disagree."""
    return 2 + zlib.crc32(setting.encode()) % 11


def fill(template: str, rng: random.Random, project: Project, person: str) -> str:
    return template.format_map(_Slots(rng, project, person))


def _some(
    rng: random.Random, pool: tuple[str, ...], counts: tuple[int, ...], project: Project, who: str
) -> list[str]:
    chosen = rng.sample(pool, min(len(pool), rng.choice(counts)))
    return [fill(template, rng, project, who) for template in chosen]


def _summary(rng: random.Random, project: Project, who: str, long: bool) -> str:
    def one() -> str:
        middle = rng.randint(4, 7) if rng.random() < 0.12 else rng.randint(1, 3)
        parts = [rng.choice(words.SUMMARY_OPENERS)]
        parts += rng.sample(words.SUMMARY_MIDDLES, middle)
        if rng.random() < 0.6:
            parts.append(rng.choice(words.SUMMARY_CLOSERS))
        text = " ".join(fill(part, rng, project, who) for part in parts)
        if rng.random() < 0.15:  # the LLM sometimes writes two paragraphs
            cut = text.find(". ", len(text) // 2)
            if cut > 0:
                text = text[: cut + 1] + "\n\n" + text[cut + 2 :]
        return text

    if not long:
        return one()
    # A conversation over the worker's chunk threshold: one summary per chunk, each cut at 500.
    chunks = []
    for number in range(1, rng.randint(2, 4) + 1):
        text = one().strip()
        if len(text) > 500:
            text = text[:497] + "..."
        chunks.append(f"**Chunk {number}**: {text}")
    return "\n\n".join(chunks)


def draw_analysis(rng: random.Random, project: Project, who: str, seconds: int) -> Analysis:
    long = seconds > 150 * 60 and rng.random() < 0.5
    summary = None if rng.random() < 0.02 else _summary(rng, project, who, long)
    return Analysis(
        patterns=_some(rng, words.PATTERNS, (0, 1, 2, 2, 3, 3, 4, 5), project, who),
        decisions=_some(rng, words.DECISIONS, (0, 1, 1, 2, 2, 3, 3, 4, 6, 7), project, who),
        todos=_some(rng, words.TODOS, (0, 0, 1, 2, 3, 4), project, who),
        preferences=_some(rng, words.PREFERENCES, (0, 0, 1, 1, 2, 3), project, who),
        learnings=_some(rng, words.LEARNINGS, (0, 1, 2, 2, 3, 4, 5), project, who),
        summary=summary,
    )


def topics_of(analysis: Analysis) -> list[str]:
    """The worker's topics: from the first decisions, then the first patterns."""
    topics = []
    for decision in analysis.decisions[:3]:
        head = decision.split(":")[0] if ":" in decision else decision
        head = head.strip("*").strip().lower()
        topic = "_".join(head.split()[:3]).replace(",", "").replace(".", "")
        if topic and len(topic) < 30:
            topics.append(topic)
    if len(topics) < 2:
        for pattern in analysis.patterns[:2]:
            topic = "_".join(pattern.split()[:3]).lower().replace(",", "").replace(".", "")
            if topic and len(topic) < 30 and topic not in topics:
                topics.append(topic)
    return topics[:5] or ["session_analysis"]


def importance_of(analysis: Analysis, seconds: int) -> str:
    insights = sum(
        len(items)
        for items in (
            analysis.patterns,
            analysis.decisions,
            analysis.learnings,
            analysis.preferences,
        )
    )
    per_hour = insights / (seconds / 3600) if seconds > 0 else 0
    if per_hour > 30 or len(analysis.decisions) > 5:
        return "high"
    if per_hour > 15 or len(analysis.decisions) > 2:
        return "medium"
    return "low"


def file_name(session: Session) -> str:
    return f"{session.date}_{topics_of(session.analysis)[0].replace(' ', '_')}.md"


def _overview(summary: str) -> str:
    if "**Chunk 1**:" in summary:
        summary = summary.split("**Chunk 2**")[0].replace("**Chunk 1**:", "").strip()
    return summary[:500] + ("..." if len(summary) > 500 else "")


def render(session: Session) -> str:
    """The memory file's text, laid out as the worker lays it out."""
    a, minutes = session.analysis, session.seconds // 60
    lines = [
        "---",
        f"date: {session.date}",
        f"topics: [{', '.join(topics_of(a))}]",
        f"importance: {importance_of(a, session.seconds)}",
        "type: session-analysis",
        f"project: {session.project.name}",
        "reference_count: 0",
        f"session_id: {session.session_id}",
        f"duration_minutes: {minutes}",
        "---",
        "",
        f"# Session Analysis - {session.date}",
        "",
    ]
    if a.summary:
        lines += ["## Overview", "", _overview(a.summary), ""]
    for heading, items in (
        ("Key Decisions", a.decisions),
        ("Patterns & Insights", a.patterns),
        ("Key Learnings", a.learnings),
        ("User Preferences & Working Style", a.preferences),
    ):
        if items:
            lines += [f"## {heading}", ""] + [f"- {item}" for item in items] + [""]
    if a.todos:
        lines += ["## Action Items", ""] + [f"- [ ] {todo}" for todo in a.todos] + [""]
    lines += [
        "## Session Metadata",
        "",
        f"- **Workspace**: {session.workspace}",
        f"- **Duration**: {minutes} minutes",
        f"- **Session ID**: {session.session_id}",
        "",
    ]
    return "\n".join(lines)


def index_entry(session: Session) -> dict[str, Any]:
    """The entry finalize puts at the front of `recent.high_importance` or `.medium_importance`."""
    name = file_name(session)
    return {
        "date": session.date,
        "title": name[:-3].replace("_", " ").title(),
        "topics": topics_of(session.analysis),
        "type": "session-analysis",
        "project": session.project.name,
        "summary": f"Auto-generated from session {session.session_id}",
        "file": name,
        "references": 0,
    }


def finalize_into(index: dict[str, Any], session: Session) -> None:
    """What finalize does to the short-term index.json for one session's memory."""
    importance = importance_of(session.analysis, session.seconds)
    section = "high_importance" if importance == "high" else "medium_importance"
    index["recent"][section].insert(0, index_entry(session))
    stats = index["stats"]
    stats["by_importance"][importance] = stats["by_importance"].get(importance, 0) + 1
    stats["by_type"]["session-analysis"] = stats["by_type"].get("session-analysis", 0) + 1
    project = session.project.name
    stats["by_project"][project] = stats["by_project"].get(project, 0) + 1
    index["last_updated"] = session.finished.date().isoformat()
    index["total_memories"] = index.get("total_memories", 0) + 1


def dump(data: Any) -> str:
    """json.dump(..., indent=2) as samantha-llm writes it: ASCII only, no newline at the end."""
    return json.dumps(data, indent=2)


def status_complete(session: Session) -> str:
    finished = session.finished
    return dump(
        {
            "status": "complete",
            "updated_at": (finished + dt.timedelta(microseconds=23)).isoformat(),
            "session_id": session.session_id,
            "completed_at": finished.isoformat(),
            "patterns_count": len(session.analysis.patterns),
            "decisions_count": len(session.analysis.decisions),
        }
    )


def status_processing(session: Session) -> str:
    started = session.start + dt.timedelta(seconds=session.seconds + 31, microseconds=412)
    return dump(
        {
            "status": "processing",
            "updated_at": started.isoformat(),
            "session_id": session.session_id,
            "created_at": started.isoformat(),
        }
    )


def status_failed(session: Session, error: str) -> str:
    failed = session.finished
    return dump(
        {
            "status": "failed",
            "updated_at": failed.isoformat(),
            "session_id": session.session_id,
            "error": error,
            "failed_at": failed.isoformat(),
        }
    )


def guidance_line(session: Session) -> str:
    """The session's line under `## Recent Sessions` (the merge copies lines starting `- **`)."""
    summary = session.analysis.summary or ""
    kept = [
        line.strip()
        for line in summary.split("\n")
        if line.strip()
        and not line.strip().startswith(("**Chunk", "#", "**Detailed", "**High-Level"))
        and not line.strip().endswith(":")
    ]
    text = " ".join(kept[:2]) if kept else "Session analyzed"
    if len(text) > 200:
        text = text[:200] + "..."
    return (
        f"- **{session.date}** ({session.seconds // 60}min, {session.workspace}): {text}"
        f" [[analysis_{session.session_id}_full.md]]"
    )


def guidance(session: Session) -> str:
    """The session's own guidance.md (prose paraphrased; the headings are the worker's)."""
    return "\n".join(
        [
            "---",
            f"last_updated: {session.finished.isoformat()}",
            "---",
            "",
            "# Subconscious Guidance",
            "",
            "Orientation from recent sessions; the full analyses are in the session folders.",
            "",
            "## Recent Sessions",
            "",
            guidance_line(session),
            "",
            "",
            "---",
            "",
            "*Kept short on purpose: details live in the analyses and the memories.*",
            "",
        ]
    )


_COMPLETION = re.compile(
    r"\b(complete|completed|done|finished|merged|deployed|shipped|all tests passing"
    r"|ready for (testing|review|production))\b"
)
_PROGRESS = re.compile(r"\b(implemented|added|created|built|fixed|refactored|started|phase \d+)\b")


def pending_update(session: Session, current_status: str, rng: random.Random) -> str | None:
    """The proposed project update the worker saves for a session in a current task's workspace."""
    a = session.analysis
    evidence = [f"Decision: {d[:100]}" for d in a.decisions if _COMPLETION.search(d.lower())]
    evidence += [f"Pattern: {p[:100]}" for p in a.patterns if _PROGRESS.search(p.lower())]
    if a.summary and _COMPLETION.search(a.summary.lower()):
        evidence.append(f"Summary indicates completion: {a.summary[:100]}")
    if rng.random() < 0.7:
        evidence.append("Tests passed in terminal")
    if rng.random() < 0.5:
        evidence.append(f"Git commits: {rng.randint(1, 6)} commit(s)")
    evidence += [f"Decision: {d[:100]}" for d in a.decisions if _COMPLETION.search(d.lower())]
    if not evidence:
        return None
    confidence = "high" if len(evidence) >= 5 else "medium" if len(evidence) >= 3 else "low"
    changes: dict[str, str] = {}
    if any(_COMPLETION.search(e.lower()) for e in evidence) and "complete" not in (
        current_status.lower()
    ):
        changes["status"] = f"{current_status} \u2705"
    if a.summary and len(a.summary) > 50:
        changes["recent_progress"] = a.summary[:500]
    if not changes:
        return None
    reasons = [
        f"Detected {len(evidence)} pieces of evidence suggesting project state change.",
        f"Confidence level: {confidence}.",
    ]
    if any("complete" in e.lower() for e in evidence):
        reasons.append("Evidence suggests phase or task completion.")
    if any("test" in e.lower() for e in evidence):
        reasons.append("Test results indicate progress.")
    if any("commit" in e.lower() for e in evidence):
        reasons.append("Git activity detected.")
    return dump(
        {
            "session_id": session.session_id,
            "session_date": session.finished.date().isoformat(),
            "project_name": session.project.name,
            "confidence": confidence,
            "proposed_changes": changes,
            "reasoning": " ".join(reasons),
            "evidence": evidence[:10],
        }
    )

"""Memories the assistant writes by hand, in the templates of samantha-llm's memory_format.md.

Short-term decisions, learnings and the like; long-term knowledge (some in topic folders);
a current task's status.md (with notes.md, decisions.md) and a finished one moved to work
experience. Their index entries have the full shape the bootstrap docs describe (with
importance and a one-line summary), unlike the worker's.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, NamedTuple

from . import sllm_words as words
from .sllm_session import fill
from .sllm_words import Project

HAND_TYPES = ("decision", "learning", "interaction", "technical", "quick-reference")
_SLUG = re.compile(r"[^a-z0-9]+")


class Written(NamedTuple):
    """A hand-written memory: where it goes, its text, and what its index entry says."""

    name: str
    text: str
    entry: dict[str, Any]
    critical: bool
    references: int


def slug(text: str, most: int = 5) -> str:
    return "_".join(_SLUG.sub(" ", text.lower()).split()[:most]) or "note"


def _sentences(rng: random.Random, p: Project, who: str, pool: tuple[str, ...], k: int) -> list:
    chosen = [fill(t, rng, p, who) for t in rng.sample(pool, min(k, len(pool)))]
    return [text if text.endswith((".", "?", "!")) else text + "." for text in chosen]


def short_term(
    rng: random.Random, p: Project, who: str, date: dt.date, today: dt.date, critical: bool
) -> Written:
    kind = rng.choice(HAND_TYPES)
    title = fill(rng.choice(words.HAND_TITLES[kind]), rng, p, who)
    if critical:
        title = "Rule: " + fill("Never change {thing} in {env} without {person}", rng, p, who)
    tags = rng.sample(p.tags, rng.randint(2, min(4, len(p.tags))))
    importance = "high" if critical else rng.choice(("low", "medium", "medium", "high"))
    references = rng.choice((0, 0, 0, 1, 2, 3, 5, 7, 12)) if not critical else rng.randint(5, 14)
    front = [f"date: {date}"]
    if references:
        front.append(f"updated: {min(today, date + dt.timedelta(days=rng.randint(1, 40)))}")
    front += [f"topics: [{', '.join(tags)}]", f"importance: {importance}", f"type: {kind}"]
    with_project = rng.random() < 0.7
    if with_project:
        front.append(f"project: {p.name}")
    front.append(f"reference_count: {references}")
    if critical:
        front.append("critical: true")
    context = _sentences(rng, p, who, words.SUMMARY_MIDDLES, rng.randint(1, 3))
    points = _sentences(rng, p, who, words.LEARNINGS + words.PATTERNS, rng.randint(2, 5))
    details = _sentences(rng, p, who, words.LEARNINGS, rng.randint(1, 2))
    follow = [fill(t, rng, p, who) for t in rng.sample(words.TODOS, rng.randint(0, 3))]
    body = [f"# {title}", "", "## Context", " ".join(context), "", "## Key Points"]
    body += [f"- {point}" for point in points] + ["", "## Technical Details", " ".join(details)]
    if follow:
        body += ["", "## Follow-up"] + [f"- [ ] {item}" for item in follow]
    if references and rng.random() < 0.3:
        later = min(today, date + dt.timedelta(days=rng.randint(2, 30)))
        body += ["", "---", f"**Update {later}**: {fill(rng.choice(words.WHY), rng, p, who)}."]
    text = "---\n" + "\n".join(front) + "\n---\n\n" + "\n".join(body) + "\n"
    entry: dict[str, Any] = {
        "file": "",
        "date": date.isoformat(),
        "title": title,
        "summary": context[0],
        "importance": importance,
        "type": kind,
    }
    if with_project:
        entry["project"] = p.name
    entry["topics"] = tags
    entry["references"] = references
    name = f"{date}_{slug(title)}.md"
    entry["file"] = name
    return Written(name, text, entry, critical, references)


def long_term(rng: random.Random, p: Project, who: str, date: dt.date) -> Written:
    tag = rng.choice(p.tags)
    title = fill(
        rng.choice(
            (
                "{thing} in practice",
                "What we know about {thing}",
                "{Tool} lessons for {thing}",
                "Designing {thing}",
                "Operating {service}",
            )
        ),
        rng,
        p,
        who,
    )
    tags = rng.sample(p.tags, rng.randint(2, min(4, len(p.tags))))
    importance = rng.choice(("medium", "high", "high"))
    summary = _sentences(rng, p, who, words.LEARNINGS, 2)
    front = [
        f"date: {date}",
        f"topics: [{', '.join(tags)}]",
        f"importance: {importance}",
        "type: foundational-knowledge",
    ]
    body = [f"# {title[0].upper() + title[1:]}", "", "## Summary", " ".join(summary), ""]
    body += ["## Background", " ".join(_sentences(rng, p, who, words.SUMMARY_MIDDLES, 2)), ""]
    body += ["## Details"] + [
        f"- {s}" for s in _sentences(rng, p, who, words.LEARNINGS, rng.randint(3, 6))
    ]
    body += ["", "## Applications", " ".join(_sentences(rng, p, who, words.PATTERNS, 2)), ""]
    body += ["## Related Topics", f"- {p.name}", f"- {tag}"]
    text = "---\n" + "\n".join(front) + "\n---\n\n" + "\n".join(body) + "\n"
    name = f"{tag}/{slug(title)}.md" if rng.random() < 0.45 else f"{date}_{slug(title)}.md"
    entry = {
        "file": name,
        "date": date.isoformat(),
        "title": body[0][2:],
        "summary": summary[0],
        "importance": importance,
        "type": "foundational-knowledge",
        "topics": tags,
        "references": 0,
    }
    return Written(name, text, entry, False, 0)


def task_status(
    rng: random.Random, p: Project, who: str, started: dt.date, updated: dt.date, phase: int
) -> str:
    front = [
        f"date: {started}",
        f"updated: {updated}",
        f"topics: [{', '.join(p.tags[:3])}]",
        "status: active",
        f"project: {p.name}",
    ]
    done = [fill("{Verb} {thing}", rng, p, who) for _ in range(rng.randint(1, 3))]
    now = [fill(t, rng, p, who) for t in rng.sample(words.TODOS, rng.randint(2, 4))]
    body = [
        f"# {p.name} - Current Status",
        "",
        f"**Last Updated**: {updated}",
        "",
        "## Project Overview",
        " ".join(_sentences(rng, p, who, words.SUMMARY_OPENERS, 1)),
        "",
        f"## Current Status: Phase {phase}",
        "",
        "### Completed Phases",
    ]
    for number in range(1, phase):
        body.append(f"- \u2713 Phase {number}: {done[(number - 1) % len(done)]}")
        body.append(f"  - Tests passing: {rng.randint(20, 90)}/{rng.randint(90, 120)}")
    body += ["", "### Current Phase"] + [f"- [ ] {item}" for item in now]
    body += [
        f"- [x] {done[0]}",
        "",
        "### Next Phase",
        fill("Roll {thing} out to {env}.", rng, p, who),
    ]
    body += ["", "## Key Files"] + [f"- {f}: {rng.choice(p.things)}" for f in p.files[:3]]
    body += ["", "## Important Context", " ".join(_sentences(rng, p, who, words.LEARNINGS, 2))]
    return "---\n" + "\n".join(front) + "\n---\n\n" + "\n".join(body) + "\n"


def experience_status(
    rng: random.Random, p: Project, who: str, started: dt.date, completed: dt.date
) -> str:
    front = [
        f"date: {started}",
        f"completed: {completed}",
        f"topics: [{', '.join(p.tags[:3])}]",
        "status: completed",
        f"project: {p.name}",
    ]
    months = max(1, (completed - started).days // 30)
    body = [
        f"# {p.name} - Completed",
        "",
        f"**Started**: {started}",
        f"**Completed**: {completed}",
        f"**Duration**: {months} month{'s' if months > 1 else ''}",
        "",
        "## Final Summary",
        " ".join(_sentences(rng, p, who, words.SUMMARY_MIDDLES, 3)),
        "",
        "",
        "## Lessons Learned",
    ]
    body += [f"- {s}" for s in _sentences(rng, p, who, words.LEARNINGS, 3)]
    body += [
        "",
        "## Metrics",
        f"- Tests added: {rng.randint(5, 200)}",
        f"- Files created: {rng.randint(2, 60)}",
        f"- Lines of code: {rng.randint(200, 9000)}",
    ]
    return "---\n" + "\n".join(front) + "\n---\n\n" + "\n".join(body) + "\n"


def notes(rng: random.Random, p: Project, who: str, date: dt.date) -> str:
    lines = [f"# {p.name} - Notes", "", f"## {date}"]
    lines += [f"- {s}" for s in _sentences(rng, p, who, words.PATTERNS, rng.randint(2, 4))]
    return "\n".join(lines) + "\n"

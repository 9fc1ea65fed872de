"""Runbooks in procedural memory: hand-kept ones, and what samantha-llm's merge does to them.

Facts from merge_sessions.py: a `create` recommendation for an unknown domain writes a draft
(`confidence: low`, flow lists of signals as JSON, `negative:` as a block list or ` []`,
`corrections: []`) and appends an index entry whose negative signals carry no `added`; a
correction inserts a block entry right after the first `corrections:` and an anti-signal right
after the first `  negative:`, as text, and moves `updated:` to the merge day. Inserted after
`corrections: []` that text ends `action: "..." []`: YAML refuses the file, samantha-llm's naive
reader does not, so a corrected draft is a real file with a problem. Observed signals for a
runbook that got no recommendation go into its index entry only, never into the file.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any, NamedTuple

from . import sllm_words as words
from .sllm_session import fill
from .sllm_words import Project

CATEGORIES = ("repo_signals", "path_signals", "keyword_signals", "domain_signals")


class Runbook(NamedTuple):
    name: str
    text: str
    entry: dict[str, Any]


def _triggers(rng: random.Random, p: Project) -> dict[str, list[str]]:
    return {
        "repo_signals": [p.name],
        "path_signals": rng.sample(p.files, min(2, len(p.files))),
        "keyword_signals": rng.sample(p.tools, min(2, len(p.tools))),
        "domain_signals": [rng.choice(p.things)],
    }


def _anti(rng: random.Random, p: Project, who: str) -> dict[str, str]:
    return {
        "signal": fill("{thing} mentioned while working on {service}", rng, p, who),
        "reason": fill("{service} has its own {thing}; this runbook is not about it", rng, p, who),
    }


def _quoted(values: list[str]) -> str:
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


def hand(rng: random.Random, p: Project, who: str, domain: str, date: dt.date) -> Runbook:
    """A runbook the assistant wrote from the template (block lists, valid YAML)."""
    triggers, anti = _triggers(rng, p), _anti(rng, p, who)
    corrected = rng.random() < 0.5
    confidence = rng.choice(("medium", "high"))
    lines = [
        "---",
        f"date: {date}",
        f"updated: {date}",
        f"domain: {domain}",
        f"topics: [{', '.join(p.tags[:3])}]",
        "type: runbook",
        f"confidence: {confidence}",
        "triggers:",
        "  positive:",
    ]
    lines += [f"    {category}: {_quoted(triggers[category])}" for category in CATEGORIES]
    lines += [
        "  negative:",
        f'    - signal: "{anti["signal"]}"',
        f'      reason: "{anti["reason"]}"',
        f"      added: {date}",
    ]
    if corrected:
        lines += [
            "corrections:",
            f"  - date: {date}",
            f'    trigger: "{anti["signal"]}"',
            f'    wrong_interpretation: "{fill("this was about {thing2}", rng, p, who)}"',
            f'    correct_interpretation: "{fill("it was about {thing}", rng, p, who)}"',
            '    action: "added a negative signal"',
        ]
    else:
        lines.append("corrections: []")
    lines += ["---", "", f"# {domain.replace('-', ' ').title()} Runbook", ""]
    lines += ["## Project Locations", "| Component | Path |", "|-----------|------|"]
    lines += [f"| Main repo | `/home/{who.lower()}/src/{p.name}` |"]
    lines += [f"| {f.rsplit('/', 1)[-1] or f} | `{f}` |" for f in p.files[:3]]
    lines += ["", "## Key Architecture"]
    lines += [fill(t, rng, p, who) + "." for t in rng.sample(words.LEARNINGS, 2)]
    lines += ["", "## Common Operations"]
    lines += [f"{n}. {fill(t, rng, p, who)}" for n, t in enumerate(rng.sample(words.TODOS, 3), 1)]
    lines += ["", "## Critical Knowledge"]
    lines += [f"- {fill(t, rng, p, who)}" for t in rng.sample(words.LEARNINGS, 2)]
    entry = {
        "file": f"{domain}.md",
        "domain": domain,
        "summary": fill("How to work on {thing} and {thing2} in " + p.name, rng, p, who),
        "triggers": {"positive": triggers, "negative": [{**anti, "added": date.isoformat()}]},
        "confidence": confidence,
        "corrections_count": 1 if corrected else 0,
    }
    return Runbook(f"{domain}.md", "\n".join(lines) + "\n", entry)


def draft(rng: random.Random, p: Project, who: str, domain: str, day: dt.date) -> Runbook:
    """The draft the merge writes for a `create` recommendation, and its index entry."""
    triggers = _triggers(rng, p)
    triggers["path_signals"] = triggers["path_signals"][: rng.randint(0, 2)]
    anti = [_anti(rng, p, who)] if rng.random() < 0.5 else []
    keywords = rng.sample(p.tags, rng.randint(0, 3))
    knowledge = [fill(t, rng, p, who) for t in rng.sample(words.LEARNINGS, rng.randint(0, 3))]
    reason = fill("{thing} came up in {n} sessions with the same steps", rng, p, who)
    negative = "".join(
        f'\n    - signal: "{a["signal"]}"\n      reason: "{a["reason"]}"\n      added: {day}'
        for a in anti
    )
    table = "".join(f"| {path.split('/')[-1]} | `{path}` |\n" for path in sorted(set(
        triggers["path_signals"]
    )))  # fmt: skip
    text = (
        f"---\ndate: {day}\nupdated: {day}\ndomain: {domain}\n"
        f"topics: [{', '.join(keywords) if keywords else domain}]\n"
        "type: runbook\nconfidence: low\ntriggers:\n  positive:\n"
        + "".join(f"    {c}: {json.dumps(triggers[c])}\n" for c in CATEGORIES)
        + f"  negative:{negative or ' []'}\ncorrections: []\n---\n\n"
        f"# {domain.replace('-', ' ').title()} Runbook\n\n"
        "*Draft written by the subconscious merge; confidence: low.*\n"
        f"*Reason: {reason}*\n\n"
        "## Project Locations\n\n| Component | Path |\n|-----------|------|\n"
        f"{table or '| (none yet) | (later sessions) |' + chr(10)}\n"
        "## Key Architecture\n\n"
        + ("\n".join(f"- {k}" for k in knowledge) or "- (from session observations)")
        + "\n\n## Common Operations\n\n(Filled in as later sessions repeat it)\n\n"
        "## Critical Knowledge\n\n(Filled in from corrections and repeated patterns)\n"
    )
    entry = {
        "file": f"{domain}.md",
        "domain": domain,
        "summary": reason,
        "triggers": {"positive": triggers, "negative": anti},
        "confidence": "low",
        "corrections_count": 0,
    }
    return Runbook(f"{domain}.md", text, entry)


def corrected(runbook: Runbook, rng: random.Random, p: Project, who: str, day: dt.date) -> str:
    """The runbook's text after the merge applied one correction to it."""
    wrong = fill("{thing} meant the {service} one", rng, p, who)
    right = fill("it meant {thing2} in " + p.name, rng, p, who)
    impact = "add anti-signal"
    entry = (
        f'\n  - date: {day}\n    trigger: "{wrong}"\n    wrong_interpretation: "{wrong}"\n'
        f'    correct_interpretation: "{right}"\n    action: "{impact}"'
    )
    text = runbook.text.replace("corrections:", "corrections:" + entry, 1)
    if "negative:" in text:
        anti = f'\n    - signal: "{wrong}"\n      reason: "{right}"\n      added: {day}'
        text = text.replace("  negative:", "  negative:" + anti, 1)
    head, sep, rest = text.partition("updated: ")
    return head + sep + day.isoformat() + rest[10:] if sep else text


def observe(entry: dict[str, Any], rng: random.Random, p: Project) -> None:
    """Signals a later merge observed for this runbook: added to its index entry only."""
    positive = entry["triggers"]["positive"]
    for category, value in (
        ("keyword_signals", rng.choice(p.things)),
        ("path_signals", rng.choice(p.files)),
    ):
        signals = positive.setdefault(category, [])
        if value not in signals:
            signals.append(value)

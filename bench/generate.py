"""Generate a realistic memory tree of any size for benchmarks (deterministic for a given seed)."""

from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path

TOPICS = [
    "api-gateway",
    "billing",
    "ci",
    "testing",
    "python",
    "postgres",
    "terraform",
    "kafka",
    "auth",
    "routing",
    "observability",
    "docker",
    "mobile",
    "sync",
    "retries",
    "migrations",
    "packaging",
    "security",
    "performance",
    "docs",
]
TYPES = ("interaction", "learning", "decision", "technical", "quick-reference")
IMPORTANCE = ("low", "medium", "medium", "high")
AUTH_SENTENCE = "The auth token is rotated with the gateway."
"""In the body of each memory on the auth topic (about one in eight): `auth token` finds some."""
PROJECTS = ("api-gateway-refactor", "billing-export", "mobile-sync", "search-rewrite", None)
WORDS = [
    "the",
    "gateway",
    "retries",
    "upstream",
    "calls",
    "with",
    "a",
    "budget",
    "instead",
    "of",
    "a",
    "fixed",
    "count",
    "because",
    "bursts",
    "of",
    "failures",
    "used",
    "to",
    "multiply",
    "load",
    "during",
    "incidents",
    "and",
    "we",
    "measured",
    "the",
    "effect",
    "in",
    "staging",
]


def _paragraph(rng: random.Random, sentences: int) -> str:
    out = []
    for _ in range(sentences):
        words = rng.choices(WORDS, k=rng.randint(8, 20))
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def _memory(rng: random.Random, index: int, date: dt.date, kind_type: str) -> str:
    topics = rng.sample(TOPICS, rng.randint(1, 4))
    lines = [f"date: {date}", f"topics: [{', '.join(topics)}]"]
    lines.append(f"importance: {rng.choice(IMPORTANCE)}")
    lines.append(f"type: {kind_type}")
    project = rng.choice(PROJECTS)
    if project:
        lines.append(f"project: {project}")
    if rng.random() < 0.4:
        lines.append(f"reference_count: {rng.choice([0, 1, 2, 3, 5, 8, 12])}")
    if rng.random() < 0.002:
        lines.append("critical: true")
    roll = rng.random()
    if roll < 0.02:  # nested YAML the fast path cannot read
        lines.append(
            "triggers:\n  positive:\n    keyword_signals: [deploy, release]\n  negative: []"
        )
    elif roll < 0.03:  # a problem
        lines.append("importance: urgent" if roll < 0.025 else "reference_count: many")
        lines = [line for line in lines if not line.startswith("importance: ") or "urgent" in line]
    body = [f"# Note {index}: {' '.join(rng.sample(WORDS, 5))}", ""]
    if "auth" in topics:  # what the headless search benchmark looks for; draws no random number
        body.append(AUTH_SENTENCE + "\n")
    body += [_paragraph(rng, rng.randint(2, 5)) + "\n" for _ in range(rng.randint(2, 6))]
    return "---\n" + "\n".join(lines) + "\n---\n\n" + "\n".join(body)


def generate(root: Path, count: int, today: dt.date, seed: int = 7) -> Path:
    """Write `count` memories: mostly short-term, then long-term, runbooks, tasks, experience."""
    rng = random.Random(seed)
    shares = (
        ("short-term-memory", 0.70, "short"),
        ("long-term-memory", 0.22, "long"),
        ("procedural-memory", 0.03, "runbook"),
        ("current-tasks", 0.02, "task"),
        ("work-experience", 0.03, "task"),
    )
    written = 0
    for folder_name, share, shape in shares:
        folder = root / ".ai" / folder_name / ".ai"
        folder.mkdir(parents=True, exist_ok=True)
        n = count - written if folder_name == "work-experience" else int(count * share)
        for i in range(n):
            date = today - dt.timedelta(days=rng.randint(0, 720))
            if shape == "short":
                path = folder / f"{date}_note_{written + i}.md"
                text = _memory(rng, written + i, date, rng.choice(TYPES))
            elif shape == "long":
                path = folder / rng.choice(TOPICS) / f"topic_{written + i}.md"
                text = _memory(rng, written + i, date, "foundational-knowledge")
            elif shape == "runbook":
                path = folder / f"domain-{written + i}.md"
                text = _memory(rng, written + i, date, "runbook")
            else:
                path = folder / f"project-{written + i}" / "status.md"
                text = _memory(rng, written + i, date, "decision").replace(
                    "---\n\n", "status: active\n---\n\n", 1
                )
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        written += n
    return root


if __name__ == "__main__":
    target, size = Path(sys.argv[1]), int(sys.argv[2])
    generate(target, size, dt.date.today())
    print(f"{size} memories in {target}")

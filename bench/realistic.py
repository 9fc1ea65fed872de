"""A memory tree like a real one for the meaning bench (deterministic for a given seed).

bench/generate.py draws every body from the same 30 words, so every memory there is within 0.9
cosine of every other: the worst case of the duplicate and conflict pass, not a tree a person
keeps. This one recombines the bundled demo's own sentences and titles (the words and structure
of real memories) through a topic model: TOPICS topics, each a random handful of the demo's
sentences and a subject of its own; a memory takes most of its sentences from its topic and a
few from anywhere, under a demo title with its subject, every number in it drawn anew. Then a
known share of planted pairs, each a copy of a memory written just before it:

- a paraphrase (PARAPHRASES of the memories): the same sentences in another order, one left out;
- a contradiction (CONTRADICTIONS): the same memory but for one setting's value
  (`retry_budget_ratio: 10` / `25`), the kind of cue polarity.py reads.

`planted(root)` names them, for the bench to count how many the pass finds.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

TOPICS = 300
SENTENCES_PER_TOPIC = 12
PARAPHRASES = 0.005
CONTRADICTIONS = 0.005
SUBJECTS = (
    "ledger",
    "orders",
    "inventory",
    "payments",
    "search",
    "notifications",
    "checkout",
    "catalog",
    "pricing",
    "shipping",
    "accounts",
    "reports",
    "webhooks",
    "scheduler",
    "uploads",
    "invoices",
    "analytics",
    "onboarding",
    "exports",
    "sessions",
)
SETTINGS = (
    "retry_budget_ratio",
    "pool_size",
    "request_timeout_seconds",
    "max_batch_rows",
    "cache_ttl_seconds",
    "worker_count",
)
_FRONT = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def demo_parts() -> tuple[list[str], list[str]]:
    """The demo's titles and its sentences (paragraphs and bullets cut at sentence ends)."""
    from samantha_tui.demo import source

    titles: list[str] = []
    sentences: list[str] = []
    for path in sorted(source().rglob("*.md")):
        if path.name == "index.md":
            continue
        body = _FRONT.sub("", path.read_text(encoding="utf-8"))
        for line in body.splitlines():
            line = line.strip()
            if line.startswith("# "):
                titles.append(line[2:].strip())
            elif line and not line.startswith(("#", "|", "```", "---")):
                line = line.lstrip("-*0123456789. ").strip()
                sentences += [s for s in _SENTENCE.split(line) if len(s.split()) >= 5]
    return titles, sentences


def generate_realistic(root: Path, count: int, today: dt.date, seed: int = 11) -> Path:
    """Write `count` short- and long-term memories (plus the planted copies among them)."""
    rng = random.Random(seed)
    titles, sentences = demo_parts()
    topics = [
        (rng.choice(SUBJECTS), rng.sample(sentences, SENTENCES_PER_TOPIC)) for _ in range(TOPICS)
    ]
    folders = {
        "short": root / ".ai" / "short-term-memory" / ".ai",
        "long": root / ".ai" / "long-term-memory" / ".ai",
    }
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    index = 0
    while index < count:
        subject, own = topics[rng.randrange(TOPICS)]
        picked = rng.sample(own, rng.randint(3, 6)) + rng.sample(sentences, rng.randint(1, 3))
        picked = [
            _NUMBER.sub(lambda _: str(rng.choice((2, 3, 5, 10, 30, 60, 100))), s) for s in picked
        ]
        title = f"{rng.choice(titles)} ({subject})"
        setting = f"`{rng.choice(SETTINGS)}: {rng.choice((4, 8, 16))}`"
        date = today - dt.timedelta(days=rng.randint(0, 720))
        shape = "short" if rng.random() < 0.75 else "long"
        _write(folders[shape] / f"{date}_memory_{index}.md", date, subject, title, picked, setting)
        index += 1
        roll = rng.random()
        if index < count and roll < PARAPHRASES + CONTRADICTIONS:
            if roll < PARAPHRASES:
                copy = picked[:]
                rng.shuffle(copy)
                copy.pop()
                kind, copied_setting = "paraphrase", setting
            else:
                copy = picked
                kind, copied_setting = "contradiction", setting.replace(":", ": 1", 1)
            name = f"{date}_memory_{index}_{kind}_of_{index - 1}.md"
            _write(folders[shape] / name, date, subject, title, copy, copied_setting)
            index += 1
    return root


def _write(
    path: Path, date: dt.date, subject: str, title: str, picked: list[str], setting: str
) -> None:
    half = max(1, len(picked) // 2)
    body = [
        f"# {title}",
        "",
        " ".join(picked[:half]),
        "",
        f"The {subject} service sets {setting}.",
        "",
    ]
    body += [f"- {sentence}" for sentence in picked[half:]]
    front = f"---\ndate: {date}\ntopics: [{subject}]\nimportance: medium\ntype: technical\n---\n\n"
    path.write_text(front + "\n".join(body) + "\n", encoding="utf-8")


def planted(root: Path) -> dict[str, set[frozenset[str]]]:
    """The planted pairs by kind ("paraphrase", "contradiction"), as pairs of file names."""
    found: dict[str, set[frozenset[str]]] = {"paraphrase": set(), "contradiction": set()}
    for path in root.rglob("*_of_*.md"):
        stem, kind, _, original = path.stem.rsplit("_", 3)
        date = stem.split("_", 1)[0]
        found[kind].add(frozenset((path.name, f"{date}_memory_{original}.md")))
    return found

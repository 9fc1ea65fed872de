"""The local index.md patch (markdown_local.py) gives the bytes of the whole one, or says it
cannot: checked on mutated renderings, hand-written lines, counts and "None." lines included."""

from __future__ import annotations

import random

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.indexes.markdown_local import NotLocal, patch_local
from samantha_tui.core.views.indexes.markdown_merge import patch_markdown

NAMES = [f"2026-0{m}-1{d}_note_{m}{d}.md" for m in range(1, 4) for d in range(5)]
TOPICS = ["git", "python", "rust"]
ODD = [
    "A note of my own.",
    "- `not-a-memory.md` - mine",
    "None.",
    "**Total Memories**: 99",
    "### stray",
    "",
    "- see index.json",
]


def _render(rng: random.Random, lines_of: dict[str, str], critical: set[str]) -> str:
    """A short-term index.md in the shape the renderer gives, from random memberships."""
    out = [
        "# Short-Term Memory Index",
        "",
        "**Last Updated**: 2026-03-20",
        "**Total Memories**: 15",
        "",
    ]
    out += ["## ⚠️ CRITICAL - Read Every Session", ""]
    out += [lines_of[n] for n in NAMES if n in critical] or ["None."]
    out += ["", "## High Priority (Frequent References)", "", "None.", ""]
    recent = [n for n in NAMES if n > "2026-02"]
    out += ["## Recent (Last 30 Days)", "", *[lines_of[n] for n in reversed(recent)], ""]
    out += [
        "## Older (30-90 Days)",
        "",
        *[lines_of[n] for n in reversed(NAMES) if n not in recent],
        "",
    ]
    out += ["## By Topic", ""]
    for topic in TOPICS:
        group = [n for n in reversed(NAMES) if hash(n + topic) % 3 == 0 or topic == "git"]
        out += [f"### {topic}", "", *[f"- `{n}`" for n in group], ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _mutate(rng: random.Random, text: str) -> str:
    rows = text.split("\n")
    for _ in range(rng.randint(0, 3)):
        rows.insert(rng.randint(5, len(rows) - 1), rng.choice(ODD))
    return "\n".join(rows)


def test_local_patch_matches_the_whole_patch() -> None:
    rng = random.Random(31)
    local = 0
    for _ in range(400):
        name = rng.choice(NAMES)
        before = {n: f"- `{n}` - old text of {n}" for n in NAMES}
        after = dict(before)
        after[name] = f"- `{name}` - new text [importance: {rng.choice(['high', 'low'])}]"
        critical = set(rng.sample(NAMES, rng.randint(0, 4)))
        theirs = _mutate(rng, _render(rng, before, critical)).encode()
        now = set(critical) ^ ({name} if rng.random() < 0.5 else set())
        ours = _render(rng, after, now).replace(
            "2026-03-20", rng.choice(["2026-03-20", "2026-03-21"])
        )
        ours_b = ours.encode()
        in_scope = {name}.__contains__
        whole = patch_markdown(ours_b, theirs, Kind.SHORT_TERM, in_scope)
        try:
            found = patch_local(ours_b, theirs, Kind.SHORT_TERM, in_scope, name)
        except NotLocal:
            continue
        local += 1
        assert found == whole
    assert local > 100

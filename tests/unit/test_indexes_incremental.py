"""Index derivations kept between writes equal the same derivations made from scratch, over a
random sequence of changes to the tree's records (edits, new memories, deletions)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from pathlib import Path

import pytest

from samantha_tui.core.basics.model import Kind, Memory, Tree
from samantha_tui.core.views.indexes.entries import entry_key, readable
from samantha_tui.core.views.indexes.memories import ShortTermOrder, build_short_term
from samantha_tui.core.views.indexes.scope import KindScope, Scope
from samantha_tui.core.views.merge_copies import MERGE_COPY_NAME
from samantha_tui.core.writing.store import Store

from ..conftest import TODAY

TOPICS = ("api", "db", "ci", "zz")


def _changed(memory: Memory, rng: random.Random) -> Memory:
    field, value = rng.choice(
        [
            ("critical", not memory.critical),
            ("reference_count", rng.choice([0, 4, 5, 9])),
            ("date", rng.choice([None, TODAY - dt.timedelta(days=rng.randint(-3, 120))])),
            ("topics", tuple(rng.sample(TOPICS, rng.randint(0, 2)))),
            ("type", rng.choice([None, "learning", "decision"])),
            ("project", rng.choice([None, "billing", "mobile"])),
            ("importance", rng.choice([None, "low", "high"])),
        ]
    )
    # A changed record has other bytes, so another digest: entries are kept by digest.
    return dataclasses.replace(memory, digest=f"changed-{rng.random()}", **{field: value})


def _step(memories: list[Memory], rng: random.Random, number: int) -> list[Memory]:
    """A new list, as the store makes it: changed records replaced in place, the rest kept."""
    memories = list(memories)
    short = [i for i, m in enumerate(memories) if m.kind is Kind.SHORT_TERM]
    for action in range(rng.randint(1, 3)):
        index = rng.choice(short)
        roll = rng.random()
        if roll < 0.15 and len(short) > 2:
            del memories[index]
        elif roll < 0.3:
            copy = dataclasses.replace(
                # Named as samantha-llm's merge names a copy: left out while its original is
                # beside it, listed once the original is deleted.
                memories[index],
                path=memories[index].path[:-3] + f"_{20260100 + number}_{action:06d}.md",
            )
            memories.insert(index + 1, _changed(copy, rng))
        else:
            memories[index] = _changed(memories[index], rng)
        short = [i for i, m in enumerate(memories) if m.kind is Kind.SHORT_TERM]
    return memories


def _copy_beside_original(memory: Memory, paths: set[str]) -> bool:
    match = MERGE_COPY_NAME.match(memory.name)
    return match is not None and f"{memory.path.rsplit('/', 1)[0]}/{match['stem']}.md" in paths


def _newest(memories: list[Memory]) -> list[str]:
    """The plain definition: short-term files by date then path, newest first, but for
    samantha-llm's merge copies beside their original (never indexed)."""
    prefix = Kind.SHORT_TERM.folder + "/"
    paths = {m.path for m in memories}
    good = readable(
        m for m in memories if m.kind is Kind.SHORT_TERM and not _copy_beside_original(m, paths)
    )[0]
    keys = sorted((m.date or dt.date.min, m.path.removeprefix(prefix)) for m in good)
    return [path for _, path in reversed(keys)]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_kept_derivations_equal_fresh_ones(demo_root: Path, seed: int) -> None:
    store = Store(demo_root, lambda: TODAY)
    memories = list(store.scan().memories)
    rng = random.Random(seed)
    kept = ShortTermOrder()
    old = {"older": []}  # a hand-kept `older` list is kept current too
    for number in range(60):
        memories = _step(memories, rng, number)
        incremental = build_short_term(memories, old, TODAY, "stamp", order=kept)
        fresh = build_short_term(memories, old, TODAY, "stamp", order=ShortTermOrder())
        assert incremental == fresh, f"step {number}"
        assert [e["file"] for group in fresh.extra["by_topic"].values() for e in group] == [
            path
            for topic in sorted(fresh.extra["by_topic"])
            for path in _newest(memories)
            if (m := next(x for x in memories if x.path.endswith("/" + path)))
            and (m.topics[0] if m.topics else "untagged") == topic
        ]
        critical = [
            path
            for path in _newest(memories)
            if any(m.critical and m.path.endswith("/" + path) for m in memories)
        ]
        assert [e["file"] for e in fresh.data["critical"]] == critical

        tree = Tree(root=str(demo_root), memories=tuple(memories))
        scope = KindScope(Kind.SHORT_TERM, tree, Scope())
        short = [m for m in memories if m.kind is Kind.SHORT_TERM]
        assert scope.existing == {entry_key(m.kind, m) for m in short}
        assert scope.readable == {entry_key(m.kind, m) for m in readable(short)[0]}

"""The procedural index: one runbook entry per file, plus the loading strategy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...basics.model import Kind, Memory
from ...reading.triggers import DEFAULT_MINIMUM_CATEGORIES
from .entries import RUNBOOK, entry_key, readable, runbook_entry
from .merge import merge_entry, merge_root
from .sections import Built, first_by_key

DEFAULT_LOADING_STRATEGY = {
    "minimum_positive_categories": DEFAULT_MINIMUM_CATEGORIES,
    "negative_signals_are_veto": True,
}
"""The bootstrap rule samantha-llm documents: 2 positive categories, any negative vetoes."""


def build_procedural(
    memories: Sequence[Memory],
    old: Mapping[str, Any] | None,
    stamp: str,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
) -> Built:
    """Runbooks by file name; a hand-set `loading_strategy` is kept."""
    kind = Kind.PROCEDURAL
    good, bad = readable(memories)
    if previous is None:
        previous = first_by_key(kind, old)
    runbooks = [
        merge_entry(runbook_entry(m), previous.get(entry_key(kind, m)), RUNBOOK)
        for m in sorted(good, key=lambda m: entry_key(kind, m))
    ]
    strategy = (old or {}).get("loading_strategy")
    derived = {
        "last_updated": stamp,
        "total_runbooks": len(runbooks),
        "runbooks": runbooks,
        "loading_strategy": (
            strategy if isinstance(strategy, Mapping) else dict(DEFAULT_LOADING_STRATEGY)
        ),
    }
    return Built(data=merge_root(derived, old), extra={}, unindexed=tuple(bad))

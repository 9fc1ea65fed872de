"""Index files derived from the memory files: build, merge, render, drift; what changed is written
by index_writes.py."""

from __future__ import annotations

from .drift import Disagreement, DriftReport, KindDrift
from .jsonfmt import dump_json
from .plan import IndexUpdate, drift, kinds_affected, plan_updates, unindexed

__all__ = [
    "Disagreement",
    "DriftReport",
    "IndexUpdate",
    "KindDrift",
    "drift",
    "dump_json",
    "kinds_affected",
    "plan_updates",
    "unindexed",
]

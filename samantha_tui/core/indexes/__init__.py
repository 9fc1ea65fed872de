"""Index files regenerated from the memory files: build, merge, render, drift, write."""

from __future__ import annotations

from .drift import Disagreement, DriftReport, KindDrift
from .jsonfmt import dump_json
from .plan import IndexUpdate, drift, kinds_affected, plan_updates, refresh, regenerate, unindexed

__all__ = [
    "Disagreement",
    "DriftReport",
    "IndexUpdate",
    "KindDrift",
    "drift",
    "dump_json",
    "kinds_affected",
    "plan_updates",
    "refresh",
    "regenerate",
    "unindexed",
]

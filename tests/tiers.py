"""The suite's two tiers: `make test` answers in minutes, `make soak` runs the long versions.

Every property is proven in `make test`: each key-mashing run sends a short seeded burst there
and its long run is a separate test marked `soak`; each property test draws its usual number of
examples there and SOAK_FACTOR times as many under `make soak` (SAMANTHA_TUI_SOAK=1).
"""

from __future__ import annotations

import os

import pytest
from _pytest.mark import ParameterSet

SOAK = os.environ.get("SAMANTHA_TUI_SOAK") == "1"
"""This run is `make soak`."""
SOAK_FACTOR = 5
"""How many times more examples a property test draws under `make soak`."""


def key_counts(burst: int, soak: int) -> list[ParameterSet]:
    """A mashing test's `keys`: `burst` in `make test`, `soak` in `make soak` (marked so)."""
    return [
        pytest.param(burst, id=f"{burst}-keys", marks=pytest.mark.mashing),
        pytest.param(soak, id=f"{soak}-keys", marks=[pytest.mark.mashing, pytest.mark.soak]),
    ]


def examples(count: int) -> int:
    """A property test's number of examples in this tier."""
    return count * SOAK_FACTOR if SOAK else count

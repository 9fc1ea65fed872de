"""The labelled sets written apart from the rules stay well formed (their own checks, which
pytest does not collect from modules not named test_*)."""

from __future__ import annotations

from .meaning_heldout import test_meaning_heldout_is_well_formed
from .meaning_tuning_extra import test_meaning_tuning_extra_is_well_formed

__all__ = ["test_meaning_heldout_is_well_formed", "test_meaning_tuning_extra_is_well_formed"]

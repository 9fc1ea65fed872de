"""A screen that shows derived views of the tree and must follow every change to it."""

from __future__ import annotations

from textual.screen import Screen

from ...core.indexes import DriftReport
from .dismiss_once import DismissOnce


class LiveScreen(DismissOnce, Screen[None]):
    """The app calls `tree_changed` on every LiveScreen in its stack after any change lands (the
    person's own, an undo, or another program's), with the memory paths that changed."""

    def tree_changed(self, changed: tuple[str, ...]) -> None:
        """Recompute what the screen shows; the default does nothing."""

    def indexes_checked(self, report: DriftReport) -> None:
        """The indexes were compared with the files again (after a regeneration, say)."""

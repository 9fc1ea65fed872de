"""A screen that shows derived views of the tree and must follow every change to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen
from textual.worker import Worker

from .dismiss_once import DismissOnce

if TYPE_CHECKING:
    from textual import getters

    from ...core.views.indexes import DriftReport  # the indexes load after the first frame
    from ..host import Host


class LiveScreen(DismissOnce, Screen[None]):
    """The app calls `tree_changed` on every LiveScreen in its stack after any change lands (the
    person's own, an undo, or another program's), with the memory paths that changed."""

    if TYPE_CHECKING:
        # For the type checker only: the app as its screens may use it (see ui/host.py).
        app = getters.app(Host)

    def tree_changed(self, changed: tuple[str, ...]) -> None:
        """Recompute what the screen shows; the default does nothing."""

    def indexes_checked(self, report: DriftReport) -> None:
        """The indexes were compared with the files again (after a regeneration, say)."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # A worker's state reaches only the node that started it (the message does not bubble):
        # hand it to the app's one failure handler.
        handler = getattr(self.app, "on_worker_state_changed", None)
        if handler is not None:
            handler(event)

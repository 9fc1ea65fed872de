"""What ctrl+c says: that it does not quit, and which key does.

Textual's own notice is written in markup ("Press [b]ctrl+q[/b]"), and the app shows every
notice as plain text (notices name memories, whose titles must show as typed), so it reached the
screen with its brackets. The notice is built here as styled content instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.binding import ActiveBinding
from textual.content import Content

TITLE = "Do you want to quit?"
QUIT_ACTIONS = ("quit", "app.quit")


def quit_key(active: Mapping[str, ActiveBinding]) -> str | None:
    """The key that quits from where the person is: one that works over any focused widget
    (a priority binding, ctrl+q) before one a focused input would take as a letter (q)."""
    quitting = [key for key, bound in active.items() if bound.binding.action in QUIT_ACTIONS]
    preferred = [key for key in quitting if active[key].binding.priority]
    return next(iter(preferred or quitting), None)


def quit_hint(key: str) -> Content:
    """`Press ctrl+q to quit the app`, the key in bold."""
    return Content.assemble("Press ", (key, "bold"), " to quit the app")

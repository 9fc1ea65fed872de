"""Toasts one at a time per kind of event, so a burst of keys never floods the preview.

Every notice has a kind: the caller's, else its title, else the shape of its message (digits and
quoted names left out, so "3 memories" and "5 memories" are one kind). A new notice of a kind
already on screen replaces that toast and counts the repeats in its title ("(×3)"); at most
MAX_SHOWN toasts show at once, the oldest calm one giving way first. Errors a person must read
are the last to give way and stay at least ERROR_TIMEOUT seconds.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from textual.message import Message
from textual.notifications import Notification, SeverityLevel

if TYPE_CHECKING:
    from textual.app import App

MAX_SHOWN = 3
"""Toasts on screen at once."""

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")
_NUMBER = re.compile(r"\d+")
_NAMED = re.compile(r"\S+\.(?:md|json)\b")


def kind_of(message: str, title: str = "") -> str:
    """The kind of a notice without one given: its title, else its first line's shape."""
    if title:
        return title
    first = message.splitlines()[0] if message else ""
    shape = _NAMED.sub("…", _QUOTED.sub("…", first))
    return _NUMBER.sub("#", shape).split(":", 1)[0].strip()


def counted(title: str, count: int) -> str:
    """The title of a toast shown `count` times in a row: `Saved (×3)`."""
    if count < 2:
        return title
    return f"{title} (×{count})" if title else f"(×{count})"


class Notices:
    """The app's toasts by kind; runs on the UI thread (the app posts each notice to itself)."""

    def __init__(self, app: App[object]) -> None:
        self._app = app
        self._shown: dict[str, tuple[Notification, int]] = {}

    def show(self, kind: str, notification: Notification) -> Notification:
        """Put `notification` on screen in place of its kind's toast; returns what is shown."""
        app = self._app
        live = app._notifications
        count = 1
        previous = self._shown.pop(kind, None)
        if previous is not None and previous[0] in live and not previous[0].has_expired:
            count = previous[1] + 1
            app._unnotify(previous[0], refresh=False)
        if count > 1:
            notification.title = counted(notification.title, count)
        self._make_room(MAX_SHOWN - 1)
        self._shown[kind] = (notification, count)
        live.add(notification)
        app._refresh_notifications()
        return notification

    def _make_room(self, room: int) -> None:
        """Take down the oldest toasts until at most `room` remain, calm ones before errors."""
        live = list(self._app._notifications)
        surplus = len(live) - room
        if surplus <= 0:
            return
        # Stable sort: errors last, otherwise oldest first.
        for notification in sorted(live, key=lambda n: n.severity == "error")[:surplus]:
            self._app._unnotify(notification, refresh=False)
        self._shown = {
            kind: shown
            for kind, shown in self._shown.items()
            if shown[0] in self._app._notifications
        }

    def clear(self) -> None:
        """Forget the toasts on screen (the app cleared them)."""
        self._shown.clear()


ERROR_TIMEOUT = 20.0
"""Seconds an error toast stays at least: a refused write or a failure must be read."""


class Raised(Message, bubble=False):
    """A notice raised on any thread, shown on the UI thread."""

    def __init__(self, kind: str, notification: Notification) -> None:
        super().__init__()
        self.kind = kind
        self.notification = notification


def notification(message: str, title: str, severity: SeverityLevel, timeout: float) -> Notification:
    """A plain-text notification; an error's stays at least ERROR_TIMEOUT seconds."""
    if severity == "error":
        timeout = max(timeout, ERROR_TIMEOUT)
    return Notification(message, title, severity, timeout, markup=False)

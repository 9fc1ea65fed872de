"""Toasts one at a time per kind of event, so a burst of keys never floods the preview.

Every notice has a kind: the caller's, else its title with the shape of its message (digits and
quoted names left out, so "3 memories" and "5 memories" are one kind). A new notice of a kind
already on screen replaces that toast and counts the repeats in its title ("(×3)"); at most
MAX_SHOWN toasts show at once, the oldest calm one giving way first. Errors a person must read
are the last to give way and stay at least ERROR_TIMEOUT seconds.

Every notice is also kept in the session's log (`N` shows it), once: a repeat that replaces its
kind's toast counts in that toast's entry instead of adding another.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.notifications import Notification, SeverityLevel

if TYPE_CHECKING:
    from textual.app import App

MAX_SHOWN = 3
"""Toasts on screen at once."""

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")
_NUMBER = re.compile(r"\d+")
_NAMED = re.compile(r"[^\s:]+\.(?:md|json|toml)\b|[^\s:]*/[^\s:]*")
"""A file named in a notice: a memory, an index, the settings file, any path."""
_LEADING_NAME = re.compile(r"^(?:…\s*:\s*)+")
"""The file a notice begins by naming (`~/.config/…/config.toml: unknown key`): what it says
of the file is its kind."""


def kind_of(message: str, title: str = "") -> str:
    """The kind of a notice without one given: its title and its first line's shape. Two
    notices under one title that say different things (two settings errors) are two kinds:
    each is shown and kept in the log, not counted as a repeat of the other."""
    first = message.splitlines()[0] if message else ""
    shape = _LEADING_NAME.sub("", _NAMED.sub("…", _QUOTED.sub("…", first)))
    shape = _NUMBER.sub("#", shape).split(":", 1)[0].strip()
    return f"{title}\n{shape}" if title else shape


def counted(title: str, count: int) -> str:
    """The title of a toast shown `count` times in a row: `Saved (×3)`."""
    if count < 2:
        return title
    return f"{title} (×{count})" if title else f"(×{count})"


LOG_LIMIT = 500
"""Notices the session's log keeps; the oldest go first."""


@dataclass(eq=False)
class Logged:
    """One notice in the session's log; a repeat of it updates `count`, `at` and `message`."""

    at: dt.datetime
    title: str
    severity: SeverityLevel
    message: str
    """Already made visible by the app's notify: tree text's control characters escaped."""
    count: int = 1


class NoticeLog:
    """This session's notices, newest first, at most LOG_LIMIT of them."""

    def __init__(
        self, clock: Callable[[], dt.datetime] = dt.datetime.now, limit: int = LOG_LIMIT
    ) -> None:
        self.clock = clock
        self._entries: deque[Logged] = deque(maxlen=limit)
        """Oldest first, as they came."""

    def add(self, notification: Notification) -> Logged:
        """Keep a new notice."""
        entry = Logged(
            self.clock(), notification.title, notification.severity, notification.message
        )
        self._entries.append(entry)
        return entry

    def repeat(self, entry: Logged, notification: Notification, count: int) -> Logged:
        """The notice of `entry` again (a coalesced repeat): its count and newest words, and
        first in the log once more. A repeat of an entry the limit dropped is kept anew."""
        if entry in self._entries:
            self._entries.remove(entry)
        entry.at, entry.count = self.clock(), count
        entry.message, entry.severity = notification.message, notification.severity
        self._entries.append(entry)
        return entry

    def newest_first(self) -> list[Logged]:
        """Every notice kept, the newest first."""
        return list(reversed(self._entries))

    def __len__(self) -> int:
        return len(self._entries)


class Notices:
    """The app's toasts by kind; runs on the UI thread (the app posts each notice to itself)."""

    def __init__(self, app: App[Any], log: NoticeLog | None = None) -> None:
        self._app = app
        self._shown: dict[str, tuple[Notification, int]] = {}
        self.log = log if log is not None else NoticeLog()
        self._logged: dict[str, Logged] = {}
        """The log's entry of each kind's toast on screen."""

    def show(self, kind: str, notification: Notification) -> Notification:
        """Put `notification` on screen in place of its kind's toast, and keep it in the log;
        returns what is shown."""
        app = self._app
        live = app._notifications
        count = 1
        previous = self._shown.pop(kind, None)
        if previous is not None and previous[0] in live and not previous[0].has_expired:
            count = previous[1] + 1
            app._unnotify(previous[0], refresh=False)
        logged = self._logged.get(kind)
        if count > 1 and logged is not None:
            self._logged[kind] = self.log.repeat(logged, notification, count)
        else:
            self._logged[kind] = self.log.add(notification)
        if count > 1:
            notification.title = counted(notification.title, count)
        self._make_room(MAX_SHOWN - 1)
        self._shown[kind] = (notification, count)
        # Only a toast still on screen can be repeated into its entry.
        self._logged = {k: self._logged[k] for k in self._shown if k in self._logged}
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
        """Forget the toasts on screen (the app cleared them); the log keeps what they said."""
        self._shown.clear()
        self._logged.clear()


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

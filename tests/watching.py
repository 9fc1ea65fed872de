"""Know when the app's file watcher is watching: the OS watch is made (inotify and the like)
when watchfiles makes its RustNotify, and from then on every change is caught, even one made
before the watch is first asked for its changes."""

from __future__ import annotations

from typing import Any

import pytest
import watchfiles.main


def watches_made(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every RustNotify watchfiles makes from now on, appended once its OS watch is set up:
    `assert await until(pilot, lambda: made)` waits until the app's watcher is running."""
    real = watchfiles.main.RustNotify
    made: list[Any] = []

    def recorded(*args: Any, **kwargs: Any) -> Any:
        watcher = real(*args, **kwargs)
        made.append(watcher)
        return watcher

    monkeypatch.setattr(watchfiles.main, "RustNotify", recorded)
    return made

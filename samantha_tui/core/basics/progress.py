"""How far long work has got: one small protocol the core reports through, whoever listens.

Long work (a batch of hundreds of files, its undo, a recovery, the first scan, writing indexes)
calls `report(done, total, what)` as it goes, step by step. Nobody has to pass a callback down
through the store, the plan and the indexes: whoever wants to know wraps the work in
`reporting(listener)`, which holds for that thread (a context variable), so the app's change
thread and its scan thread each hear only their own work. With no listener a report costs one
context variable read.

`what` is a phrase for a person with `{count}` where the count goes ("Moving {count} to the
trash"); `words` puts `120 of 375` there.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar

Listener = Callable[[int, int, str], None]
"""Called with (done, total, what); `done` runs from 0 (or 1) to `total` for one `what`."""

_listener: ContextVar[Listener | None] = ContextVar("progress_listener", default=None)

COUNT = "{count}"


def report(done: int, total: int, what: str) -> None:
    """Say that `done` of `total` steps of `what` are done; nothing when nobody listens."""
    listener = _listener.get()
    if listener is not None:
        listener(done, total, what)


@contextlib.contextmanager
def reporting(listener: Listener) -> Iterator[None]:
    """Send the reports of the work run inside to `listener` (in this thread only)."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


def words(done: int, total: int, what: str) -> str:
    """`Moving 120 of 375 to the trash…`: a report in words for a person."""
    count = f"{done:,} of {total:,}"
    phrase = what.replace(COUNT, count) if COUNT in what else f"{what}: {count}"
    return f"{phrase}…"


class Throttle:
    """A listener that passes on at most one report per `interval` seconds of each phrase.

    The first report of a new `what` and the last one (done == total) always pass, so the
    listener sees every phase begin and end however quick it is; the core can report every step
    and the screen is still told about twenty times a second at most.
    """

    def __init__(
        self,
        listener: Listener,
        interval: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._listener = listener
        self._interval = interval
        self._clock = clock
        self._what: str | None = None
        self._total = -1
        self._last = float("-inf")

    def __call__(self, done: int, total: int, what: str) -> None:
        now = self._clock()
        fresh = what != self._what or total != self._total
        if not fresh and done < total and now - self._last < self._interval:
            return
        self._what, self._total, self._last = what, total, now
        self._listener(done, total, what)

"""Changes run off the UI thread, one at a time and in the order the person asked for them.

Separate workers per change would race for the curator's lock, so `c` then `u` pressed quickly
could undo the change before `c`. Here jobs queue up and a single thread worker drains the queue,
started when the first job arrives and ending when the queue is empty (tests can wait for it).
A job that raises is reported and the queue goes on: the next change does not depend on it.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

from .workers import background

if TYPE_CHECKING:
    from .host import Host
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

Method = TypeVar("Method", bound=Callable[..., None])


def in_order(method: Method) -> Method:
    """Calling the method queues it; it runs in the change thread after every earlier one."""

    @functools.wraps(method)
    def queue(self: OrderedWork, *args: Any, **kwargs: Any) -> None:
        self.run_in_order(functools.partial(method, self, *args, **kwargs))

    # Called as the method was (it returns None either way): mypy cannot see that of a Method.
    return queue  # type: ignore[return-value]


class OrderedWork(Host):
    """Mixed into the app: one queue of jobs, one thread draining it."""

    def init_ordered(self) -> None:
        self._jobs: deque[Callable[[], object]] = deque()
        self._jobs_lock = threading.Lock()
        self._draining = False

    def run_in_order(self, job: Callable[[], object]) -> None:
        with self._jobs_lock:
            self._jobs.append(job)
            if self._draining:
                return
            self._draining = True
        self._drain()

    @background(thread=True, group="changes")
    def _drain(self) -> None:
        while True:
            with self._jobs_lock:
                if not self._jobs:
                    self._draining = False
                    return
                job = self._jobs.popleft()
            try:
                with self.job_context():
                    job()
            except Exception as error:
                # One failed change must not stall the ones queued behind it.
                self.job_failed(error)

    def job_context(self) -> AbstractContextManager[None]:
        """What every job runs inside (the app: its progress is shown)."""
        return contextlib.nullcontext()

    def job_failed(self, error: Exception) -> None:
        """A queued job raised something the job itself did not expect; the app says so."""
        raise NotImplementedError

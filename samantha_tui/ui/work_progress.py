"""Progress of background work, as part of the app: counts from the core's reports to the bar.

Work in a worker thread runs inside `work_progress()`, which hears the core's reports (see
core/basics/progress.py), throttled to about twenty a second, and posts them as WorkProgress
messages.
On the UI thread the newest running job is shown on the active screen's ProgressPanel once it has
run for SHOW_AFTER seconds: quick work never flashes a bar. A screen opened while work runs gets a
panel of its own above its footer, so the trash or the review screen shows it too; under a panel
one reads (help, the drift report) the screen beneath it shows the bar. While a dialog waits for the
person's answer (a confirmation, a conflict: `WAITS_ON_PERSON`), no bar says the app is busy: it
waits on them. The work goes on, and its bar comes back once the dialog closes if it still runs.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Footer
from textual.worker import get_current_worker

from ..core.basics import progress
from .messages import WorkProgress, while_shown
from .widgets.progress_panel import ProgressPanel

if TYPE_CHECKING:
    from .host import Host
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

SHOW_AFTER = 0.5
"""Seconds work runs before its bar appears."""
REDRAW = 0.1
"""How often, while work runs, the active screen's panel is brought up to date (a screen just
opened gets its bar, work that reports nothing still shows once it is slow)."""


class _Stopped(Exception):
    """Raised through stoppable work from a report once its worker is cancelled."""


@dataclass(frozen=True)
class Work:
    """A running job as last heard of."""

    started: float
    done: int = 0
    total: int = 0
    what: str = ""


def waits_on_person(screen: Screen[Any]) -> bool:
    """Whether `screen` is a dialog waiting for the person's answer (it says `WAITS_ON_PERSON`)."""
    return bool(getattr(screen, "WAITS_ON_PERSON", False))


class WorkProgressing(Host):
    """Mixed into SamanthaApp: the worker side (`work_progress`) and the screen side."""

    def init_work_progress(self) -> None:
        self._works: dict[int, Work] = {}
        self._job_numbers = itertools.count(1)
        self._job_numbers_lock = threading.Lock()
        self._progress_timer: Timer | None = None

    @contextlib.contextmanager
    def work_progress(self, stoppable: bool = False) -> Iterator[None]:
        """Report the progress of the work run inside (in a worker thread) to the screen.

        `stoppable`: for work that only reads (the review, the health report). Once its worker
        is cancelled (its screen closed, newer work of its group started) it stops at its next
        report instead of running on for seconds to an answer nobody reads; the block is then
        left as if it had ended, and the caller checks `is_cancelled` before using a result."""
        with self._job_numbers_lock:
            job = next(self._job_numbers)
        started = time.monotonic()
        post = self.post_message
        worker = get_current_worker() if stoppable else None

        def tell(done: int, total: int, what: str) -> None:
            post(WorkProgress(job, started, done, total, what))

        throttled = progress.Throttle(tell)

        def hear(done: int, total: int, what: str) -> None:
            # Every report, before the throttle: a cancelled worker stops within one step.
            if worker is not None and worker.is_cancelled:
                raise _Stopped
            throttled(done, total, what)

        post(WorkProgress(job, started))
        try:
            with progress.reporting(hear):
                yield
        except _Stopped:
            pass
        finally:
            post(WorkProgress(job, started, ended=True))

    @property
    def busy(self) -> bool:
        """Whether background work that reports progress is running."""
        return bool(self._works)

    @while_shown
    def on_work_progress(self, message: WorkProgress) -> None:
        if message.ended:
            self._works.pop(message.job, None)
        elif message.what or message.job not in self._works:
            self._works[message.job] = Work(
                message.started, message.done, message.total, message.what
            )
        app: Any = self
        if self._works and self._progress_timer is None:
            self._progress_timer = app.set_interval(REDRAW, self.show_progress)
        elif not self._works and self._progress_timer is not None:
            self._progress_timer.stop()
            self._progress_timer = None
        self.show_progress()

    def show_progress(self) -> None:
        """Bring the panels up to date: the newest job on the active screen, once it is slow."""
        app: Any = self
        if not app.screen_stack:
            return
        work = self._works[max(self._works)] if self._works else None
        slow = work is not None and time.monotonic() - work.started >= SHOW_AFTER
        # A panel read over a screen (help) has no bar: the screen under it shows the work. A
        # question waiting on the person shows none: the app is waiting, not busy.
        under = next(s for s in reversed(app.screen_stack) if not isinstance(s, ModalScreen))
        asking = waits_on_person(app.screen_stack[-1])
        active = self._panel_of(under) if slow and not asking else None
        for screen in app.screen_stack:
            # A screen's panel is its child (composed there, or mounted beside its footer):
            # looking among the children only, not through every widget of every screen in the
            # stack, as this runs at each progress report and each REDRAW.
            for panel in screen.query_children(ProgressPanel):
                if panel is not active:
                    panel.hide()
        if active is not None and work is not None:
            active.show_work(work.done, work.total, work.what)

    def _panel_of(self, screen: Screen[Any]) -> ProgressPanel | None:
        """The screen's panel; a full screen with a footer gets one above it."""
        found = screen.query_children(ProgressPanel)
        if found:
            return found.first()
        footers = screen.query_children(Footer)
        if not footers:
            return None
        panel = ProgressPanel()
        screen.mount(panel, before=footers.first())
        return panel

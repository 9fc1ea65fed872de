"""Textual's pilot, waiting on the event loop rather than on the clock.

After every key and every `pilot.pause()`, Textual's pilot calls `wait_for_idle`: it sleeps in
windows of SLEEP_GRANULARITY (20 ms) until the process spent almost no CPU in one, so every key
costs at least 40 ms of sleep even when nothing is left to run. `wait_for_idle` below asks the
event loop instead: it returns once no callback is ready and no timer is due within that window,
which is exactly when the old window would have passed with nothing run. While a worker thread
(or any thread but the loop's idle pool) is alive, a loop at rest says nothing of the thread's
work, so Textual's own CPU test is kept unchanged.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import textual._wait
import textual.app
import textual.pilot
from textual._context import active_app
from textual.worker import WorkerState

_textual_wait_for_idle = textual._wait.wait_for_idle
WINDOW = textual._wait.SLEEP_GRANULARITY
"""Seconds ahead a timer counts as about to run: the window Textual's test slept for."""
_POOL_PREFIXES = ("asyncio_", "ThreadPoolExecutor")
"""Threads of an executor's pool, idle unless a worker runs on them (workers are asked apart)."""


def _threads_at_work() -> bool:
    """Whether a thread may be running code the loop will hear of: a worker thread of the app,
    or a thread that is no executor's idle pool (a test's writer, the file watcher)."""
    try:
        app: Any = active_app.get()
    except LookupError:
        return True
    if any(worker.state in (WorkerState.PENDING, WorkerState.RUNNING) for worker in app.workers):
        return True
    main = threading.main_thread()
    return any(
        thread is not main and not thread.name.startswith(_POOL_PREFIXES)
        for thread in threading.enumerate()
    )


def _paused_sleeps(app: Any) -> set[int]:
    """Ids of the sleeps of paused timers on the app and its screens (a screen's frame timer
    pauses itself after each frame): when one ends, its timer only waits to be resumed."""
    sleeps: set[int] = set()
    for node in (app, *app.screen_stack):
        for timer in node._timers:
            task = timer._task
            if task is not None and not timer._active.is_set():
                waiter = getattr(task, "_fut_waiter", None)
                if waiter is not None:
                    sleeps.add(id(waiter))
    return sleeps


def _runs_something(handle: asyncio.TimerHandle, paused: set[int]) -> bool:
    args = handle._args  # type: ignore[attr-defined]
    return not (args and id(args[0]) in paused)


def _next_run(loop: asyncio.AbstractEventLoop) -> float | None:
    """Seconds until the loop runs something within WINDOW, or None when nothing will."""
    if loop._ready:  # type: ignore[attr-defined]
        return 0.0
    now = loop.time()
    soon = [
        handle
        for handle in loop._scheduled  # type: ignore[attr-defined]
        if not handle.cancelled() and handle.when() <= now + WINDOW
    ]
    if soon:
        paused = _paused_sleeps(active_app.get())
        soon = [handle for handle in soon if _runs_something(handle, paused)]
    due = [handle.when() for handle in soon]
    return max(0.0, min(due) - now) if due else None


async def wait_for_idle(min_sleep: float = WINDOW, max_sleep: float = 1) -> None:
    """Until the event loop has nothing ready and no timer due within WINDOW (at most max_sleep
    seconds); Textual's CPU test while a thread may be at work, or when asked for a minimum
    sleep."""
    if min_sleep > 0:
        await _textual_wait_for_idle(min_sleep, max_sleep)
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max_sleep
    while loop.time() < deadline:
        if _threads_at_work():
            await _textual_wait_for_idle(0, max(deadline - loop.time(), 0.0))
            return
        await asyncio.sleep(0)
        wait = _next_run(loop)
        if wait is None:
            return
        if wait > 0:
            await asyncio.sleep(wait)


def install() -> None:
    """Textual's app (keys) and pilot (pauses) wait through wait_for_idle above."""
    textual.app.wait_for_idle = wait_for_idle  # type: ignore[attr-defined]
    textual.pilot.wait_for_idle = wait_for_idle  # type: ignore[attr-defined]

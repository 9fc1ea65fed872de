"""The one harness for tests of the real app: wait for it to settle or for a condition, and
check the indexes as samantha-llm would.

Wait on what the app is doing, never on the clock: `settle` returns once no worker, queued change,
debounce or pending body is left; `until` polls a condition and says whether it held in time."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.timer import Timer
from textual.worker import Worker, WorkerCancelled, WorkerState

from samantha_tui.cli import main
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from .conftest import ST, TODAY, make_tree

WITHIN = 60.0
"""Seconds; an app that has not settled, or met a condition, by then has hung."""
SHORT_TIMER = 1.0
"""Seconds; a one-shot timer at most this long (a debounce) is waited for, as what it calls changes
what the next key meets. Longer ones (a notice's timeout, the held-keys limit) change nothing."""
IDLE_ROUNDS = 3
"""Quiet rounds in a row that count as settled."""
NEVER_ENDS = frozenset({"watch"})
"""Worker groups that run as long as the app: the file watcher."""


def open_nodes(app: App[Any]) -> list[DOMNode]:
    """The app, every screen on its stack and every node of those screens."""
    nodes: list[DOMNode] = [app]
    for screen in app.screen_stack:
        nodes += [screen, *screen.walk_children(with_self=False)]
    return nodes


def queues_empty(app: App[Any]) -> bool:
    """No message waits on the app or on any node of any open screen. One pass of the app's queue
    is not enough: a key the focused widget does not consume bubbles up to its parents, one message
    hop at a time, and reaches the app's bindings after the pass. Left in flight when the mashing
    gate opened, it met a change's thread at a moment the clock chose (an `r` plan's question came
    up before or after the keys behind `b`, run to run)."""
    return all(node._message_queue.empty() for node in open_nodes(app))


def pending_short_timers(app: App[Any]) -> list[Timer]:
    """One-shot timers of at most SHORT_TIMER seconds not yet fired, on the app and every screen."""
    return [
        timer
        for node in open_nodes(app)
        for timer in list(node._timers)
        if is_short_one_shot(timer) and timer._task is not None and not timer._task.done()
    ]


def is_short_one_shot(timer: Timer) -> bool:
    """A timer that fires once, at most SHORT_TIMER seconds after it was set: a debounce."""
    return timer._repeat == 0 and timer._interval <= SHORT_TIMER


def _working(app: App[Any]) -> list[Worker[Any]]:
    return [
        worker
        for worker in app.workers
        if worker.group not in NEVER_ENDS
        and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
    ]


def busy(app: App[Any]) -> bool:
    """Something is left that will change what the screen shows: a worker, a queued change, a
    debounce, a preview body or a screen's plan waiting for the keys to pause."""
    preview = getattr(app, "preview", None)
    return (
        bool(_working(app))
        or bool(getattr(app, "_draining", False) or getattr(app, "_jobs", ()))
        or bool(pending_short_timers(app))
        or bool(preview is not None and preview.body_pending)
        or any(getattr(screen, "pending", False) is True for screen in app.screen_stack)
    )


async def settle(pilot: Pilot[Any]) -> None:
    """Until nothing is left to run (see busy) and the screen has handled every message that sent,
    IDLE_ROUNDS rounds in a row: a handler of one worker's message can start another (a change,
    then the drift check of the kinds it fed). The file watcher, when on, is not waited for."""
    app = pilot.app

    async def quiet() -> None:
        idle_rounds = 0
        while idle_rounds < IDLE_ROUNDS:
            # A search replaced by a newer one ends cancelled while waited for: wait again, for
            # the newer one.
            working = _working(app)
            if working:  # an empty list would mean every worker, the watcher too
                with contextlib.suppress(WorkerCancelled):
                    await app.workers.wait_for_complete(working)
            await pilot.pause()
            if busy(app):
                idle_rounds = 0
                await asyncio.sleep(0.02)
            else:
                idle_rounds += 1

    await asyncio.wait_for(quiet(), WITHIN)


async def until(
    pilot: Pilot[Any],
    condition: Callable[[], object],
    seconds: float = WITHIN,
    step: float = 0.02,
) -> bool:
    """Until condition() holds (it may return an awaitable), handing the app a turn of `step`
    seconds between tries; whether it held within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        held = condition()
        if inspect.isawaitable(held):
            held = await held
        if held:
            return True
        if time.monotonic() > deadline:
            return False
        await pilot.pause(step)


def index_check(root: Path, capsys: pytest.CaptureFixture[str]) -> int:
    """`samantha-tui index --check` on the tree: 0 when every index matches the files."""
    code = main(["index", "--check", "--tree", str(root)])
    capsys.readouterr()
    return code


def reindexed(root: Path) -> Path:
    """The tree with its indexes regenerated, so any drift afterwards is the test's doing."""
    store = Store(root, lambda: TODAY)
    store.scan()
    Curator(store).reindex()
    return root


ALPHA = f"{ST}/2026-06-10_alpha_rule.md"
BETA = f"{ST}/2026-06-09_beta_note.md"


def memory(title: str, extra: str = "") -> str:
    """A short-term memory titled `title`, dated 2026-06-01, with `extra` frontmatter lines."""
    return f"---\ndate: 2026-06-01\ntopics: [ci]\n{extra}---\n\n# {title}\n\nBody of {title}.\n"


def alpha_and_beta(tmp_path: Path) -> Path:
    """A tree of two memories (Alpha of medium importance, Beta), indexes regenerated."""
    root = make_tree(
        tmp_path / "cerebrum",
        {ALPHA: memory("Alpha rule", "importance: medium\n"), BETA: memory("Beta note")},
    )
    return reindexed(root)

"""How every test waits for the app: on what the app is doing, never on the clock or the CPU.

Textual's pilot waits for the process's CPU to go quiet: twice per key in `press`, and in every
`pause()`. On a busy machine that wait runs out (a second a key) and the app has not caught up;
on a quiet one it costs twenty milliseconds a wait. Either way what it waited for was not the
app. HarnessPilot, installed for every test by conftest, keeps the pilot's methods and waits on
events instead: the app and its screen have handled every message sent so far, no worker,
queued change, debounce, pending body or screen plan is left, and the screen has laid out and
painted what changed. A cap on any wait only catches a hang, and says what never came.

This module imports nothing of the tests' own, so conftest can install it.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState

WITHIN = 60.0
"""Seconds; an app that has not settled, or met a condition, by then has hung."""
SHORT_TIMER = 1.0
"""Seconds; a one-shot timer at most this long (a debounce) is waited for, as what it calls changes
what the next key meets. Longer ones (a notice's timeout, the held-keys limit) change nothing."""
IDLE_ROUNDS = 2
"""Rounds in a row with nothing left to do that count as settled: a handler of the last message
can post another, and that one is handled in the next round."""
POLL = 0.005
"""Seconds handed to the app between looks while it is still busy."""
NEVER_ENDS = frozenset({"watch"})
"""Worker groups that run as long as the app: the file watcher."""


class Hung(AssertionError):
    """A wait met its cap: what it waited for never came."""


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


def working(app: App[Any]) -> list[Worker[Any]]:
    """The app's workers still pending or running, but for those that run as long as it does."""
    return [
        worker
        for worker in app.workers
        if worker.group not in NEVER_ENDS
        and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
    ]


def ending(app: App[Any]) -> bool:
    """The app was told to exit, or has: nothing it has left to paint will be painted."""
    return bool(app._exit or app._closing or app._closed)


TOP_WORK = ("_layout_required", "_scroll_required", "_repaint_required", "_recompose_required")
BACKDROP_WORK = ("_layout_required", "_scroll_required", "_recompose_required")
"""A screen seen behind a dialog keeps `_repaint_required` set once it has handed its changed
regions to the top screen: that flag alone is no work left."""


def unpainted_parts(screen: Screen[Any]) -> list[str]:
    """What a screen on view has left to lay out or paint, or callbacks waiting for its next
    refresh (`call_after_refresh`): Textual does them on the screen's update timer."""
    top = screen.app.screen is screen
    said = [
        part.strip("_") for part in (TOP_WORK if top else BACKDROP_WORK) if getattr(screen, part)
    ]
    said += [f"dirty {widget!r}" for widget in screen._dirty_widgets]
    said += [f"callback {callback!r}" for callback, _ in screen._callbacks]
    return said


def screen_unpainted(screen: Screen[Any]) -> bool:
    return bool(unpainted_parts(screen))


def unpainted_said(app: App[Any]) -> str:
    """Every screen on view with work left, for a hang's message."""
    return "; ".join(
        f"{screen!r}: {', '.join(parts)}"
        for screen in shown_screens(app)
        if (parts := unpainted_parts(screen))
    )


def shown_screens(app: App[Any]) -> list[Screen[Any]]:
    """The screens on view: those seen through the top one (a dialog's backdrop), then the top."""
    return [*app._background_screens, app.screen] if app.screen_stack else []


def any_unpainted(app: App[Any]) -> bool:
    """A screen on view has layout or paint left to do (see screen_unpainted)."""
    return any(screen_unpainted(screen) for screen in shown_screens(app))


def changes_queued(app: App[Any]) -> bool:
    """The app's ordered changes: one running or more waiting."""
    return bool(getattr(app, "_draining", False) or getattr(app, "_jobs", ()))


def body_pending(app: App[Any]) -> bool:
    """The preview's body waits for held keys to pause."""
    preview = getattr(app, "preview", None)
    return bool(preview is not None and preview.body_pending)


def plan_pending(app: App[Any]) -> bool:
    """A screen's plan waits for the keys to pause."""
    return any(getattr(screen, "pending", False) is True for screen in app.screen_stack)


def busy(app: App[Any]) -> bool:
    """Something is left that will change what the screen shows: a worker, a queued change, a
    debounce, a preview body or a screen's plan waiting for the keys to pause."""
    return (
        bool(working(app))
        or changes_queued(app)
        or bool(pending_short_timers(app))
        or body_pending(app)
        or plan_pending(app)
    )


def busy_with(app: App[Any]) -> str:
    """What keeps the app busy, for a hang's message: busy()'s parts, named."""
    found = {
        "workers": ", ".join(worker.name or repr(worker) for worker in working(app)),
        "changes": changes_queued(app),
        "debounces": ", ".join(repr(timer) for timer in pending_short_timers(app)),
        "a preview body": body_pending(app),
        "a screen's plan": plan_pending(app),
        "queued messages": not queues_empty(app),
        "an unpainted screen": unpainted_said(app),
    }
    return (
        "; ".join(
            name if value is True else f"{name}: {value}" for name, value in found.items() if value
        )
        or "nothing now"
    )


async def capped(awaitable: Any, what: str | Callable[[], str], seconds: float = WITHIN) -> Any:
    """`awaitable`'s result; Hung, naming `what` (or what it returns then), when it has not come
    within `seconds`."""
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except TimeoutError:
        said = what() if callable(what) else what
        raise Hung(f"{said}: still waiting after {seconds:g} s") from None


async def handled(pilot: Pilot[Any]) -> None:
    """Until the app, and the widgets of the screen it shows, have handled every message sent so
    far (a key forwarded to a widget is handled in the widget's own queue)."""
    app = pilot.app
    taken = asyncio.Event()
    if app.call_later(taken.set):
        await capped(taken.wait(), "the app handling its messages")
    await pilot._wait_for_screen(WITHIN)


async def painted(pilot: Pilot[Any]) -> None:
    """The screen's pending layout and paint done now, as its update timer would do them, and the
    callbacks that waited for that refresh run."""
    app = pilot.app
    if not app.screen_stack or ending(app) or app._batch_count:
        return
    # Background screens first: what they paint lands on the top screen as regions to refresh.
    unpainted = [screen for screen in shown_screens(app) if screen_unpainted(screen)]
    for screen in unpainted:
        screen._on_timer_update()
    if unpainted:
        await handled(pilot)


async def settle(pilot: Pilot[Any]) -> None:
    """Until nothing is left to run (see busy), the screen has handled every message that sent and
    painted what changed, IDLE_ROUNDS rounds in a row: a handler of one worker's message can start
    another (a change, then the drift check of the kinds it fed). The file watcher, when on, is
    not waited for."""
    app = pilot.app

    async def quiet() -> None:
        idle_rounds = 0
        while idle_rounds < IDLE_ROUNDS and not ending(app):
            # A search replaced by a newer one ends cancelled while waited for: wait again, for
            # the newer one.
            running = working(app)
            if running:  # an empty list would mean every worker, the watcher too
                # A worker that fails is the app's to report (a notice): waited for, not raised.
                with contextlib.suppress(WorkerCancelled, WorkerFailed):
                    await app.workers.wait_for_complete(running)
            await handled(pilot)
            await app._animator.wait_until_complete()
            await painted(pilot)
            if ending(app):
                return
            if busy(app) or not queues_empty(app) or any_unpainted(app):
                idle_rounds = 0
                await asyncio.sleep(POLL)
            else:
                idle_rounds += 1

    await capped(quiet(), lambda: f"the app settling, busy with {busy_with(app)}")


def described(condition: Callable[[], object]) -> str:
    """The condition's source line, for a hang's message."""
    try:
        return inspect.getsource(condition).strip()
    except (OSError, TypeError):
        return repr(condition)


async def until(
    pilot: Pilot[Any],
    condition: Callable[[], object],
    seconds: float = WITHIN,
    step: float = POLL,
) -> bool:
    """Until condition() holds (it may return an awaitable), the app handling its messages between
    tries; True. Raises Hung, naming the condition, when it has not held within `seconds`: only a
    hang gets that far."""

    async def held() -> None:
        while True:
            result = condition()
            if inspect.isawaitable(result):
                result = await result
            if result:
                return
            await handled(pilot)
            await painted(pilot)
            await asyncio.sleep(step)

    await capped(held(), f"never held: {described(condition)}", seconds)
    return True


async def taken_in(pilot: Pilot[Any]) -> None:
    """Until the app has handled every message sent so far, and no key is held back behind one
    that moves focus (ui/key_burst.py replays those once its action has run: a key replayed after
    the gate opened would meet the workers at a moment the clock chose), and no message is still
    on its way (see queues_empty)."""
    app = pilot.app

    async def in_full() -> None:
        await handled(pilot)
        while getattr(app, "holding_keys", False) or not queues_empty(app):
            await asyncio.sleep(POLL)
            await handled(pilot)

    await capped(in_full(), "keys held or messages queued")


def key_event(key: str) -> events.Key:
    """The event a terminal sends for `key`, built as Textual's pilot builds it."""
    name = _character_to_key(key) if len(key) == 1 and not key.isalnum() else key
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(name, name)))
    except KeyError:
        char = name if len(name) == 1 else None
    return events.Key(name, char)


def send_key(app: App[Any], key: str) -> None:
    """The key as a terminal sends it, onto the app's queue."""
    event = key_event(key)
    event.set_sender(app)
    app._driver.send_message(event)


async def drawn(pilot: Pilot[Any]) -> None:
    """The app has handled every message sent so far and painted what they changed; nothing
    else is waited for: for a test of what shows while the app still has work to do."""
    await handled(pilot)
    await pilot.app._animator.wait_until_complete()
    await painted(pilot)


async def tap(pilot: Pilot[Any], *keys: str) -> None:
    """Each key sent and taken in, and nothing more waited for: for a test of what shows while
    the app still has work to do (the body of a row passed by a held key, hidden until the keys
    pause)."""
    for key in keys:
        send_key(pilot.app, key)
        await taken_in(pilot)
        await drawn(pilot)


async def press(pilot: Pilot[Any], *keys: str) -> None:
    """Each key sent as a terminal sends it, then the app settled: what Textual's `pilot.press`
    does, with the wait on the app and never on the process's CPU going quiet."""
    for key in keys:
        send_key(pilot.app, key)
        await taken_in(pilot)
        await settle(pilot)


class HarnessPilot(Pilot[Any]):
    """Textual's pilot, waiting on the app where Textual's waits on the CPU going quiet."""

    async def press(self, *keys: str) -> None:
        await press(self, *keys)

    async def pause(self, delay: float | None = None) -> None:
        """Without a delay: the app settled. With one: that long, then what it changed painted (a
        test that lets a clock of the app's own run, such as a notice's timeout)."""
        if delay is None:
            await settle(self)
            return
        await handled(self)
        await asyncio.sleep(delay)
        await painted(self)

    async def wait_for_animation(self) -> None:
        await self.app.animator.wait_for_idle()
        await settle(self)

    async def wait_for_scheduled_animations(self) -> None:
        await self.app.animator.wait_until_complete()
        await settle(self)

    async def exit(self, result: Any) -> None:
        await settle(self)
        self.app.exit(result)


async def no_idle_waits(*_args: object, **_kwargs: object) -> None:
    """Put in place of Textual's wait_for_idle: a test that reaches it waits on the CPU."""
    raise AssertionError(
        "a wait on the CPU going quiet: wait on the app instead (tests/waiting.py)"
    )


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pilot a test gets (from `run_test`, or the snapshot plugin's) is a HarnessPilot, and
    Textual's wait for the CPU going quiet fails the test that reaches it. `run_test` imports
    Pilot from textual.pilot when called, so the module's name is the one to replace."""
    import textual._wait
    import textual.app
    import textual.pilot

    monkeypatch.setattr(textual.pilot, "Pilot", HarnessPilot)
    for module in (textual._wait, textual.pilot, textual.app):
        if hasattr(module, "wait_for_idle"):
            monkeypatch.setattr(module, "wait_for_idle", no_idle_waits)

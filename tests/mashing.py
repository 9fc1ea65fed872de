"""Key mashing: seeded keys sent in bursts, with their timing pinned, and every byte accounted for.

The keys. A pool per screen holds every key the screen and its widgets bind, the app's own keys
(ui/keys.APP_KEYS), letters, digits and the usual navigation keys, each with a weight; a seed draws
the same sequence from it every run.

The timing. Keys are sent in bursts, as a terminal delivers a paste or a busy app's backlog:
without waiting for the app between keys, so a key can reach a screen before it is laid out, or a
list before its rows arrive. The seed alone fixed the keys but not what ran between them: a change
in the ordered queue, a scan or a search finishing in a worker thread mid-burst made each run
interleave differently. So a gate (WorkerGate) holds every worker, the app's and Textual's own,
while a burst is dispatched; it opens once the app and the widgets of its screen have taken in the
burst; then the workers run one at a time, in the order they were started, and the next burst
waits until every worker, queued change and short timer is done. The same seed then gives the same
screens and the same changes, burst after burst.

The bytes. Whatever the keys change is a change the person asked for, and every such change goes
through the curator, which keeps it in the session's undo history. So after pressing `u` until
nothing is left to undo, the tree must be as it was, file by file (see assert_every_byte_accounted):
- every memory file and every other file is byte-identical to the snapshot taken before the first
  key, and no file appeared or went;
- except under `.ai/.trash/`, where deleting and undoing leave what the trash keeps;
- and except the index files, which each change regenerates: each must be byte-identical either to
  the snapshot (never regenerated) or to what `samantha-tui index` writes over the snapshot.
Nothing may be written outside the tree: no process is started (`o` would start an editor), a
bootstrap export (`x`) is recorded instead of written, the current folder is an empty one checked
at the end, and `q` is counted rather than quitting, since ending the app is what it is meant to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import inspect
import io
import random
import string
import subprocess
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.dom import DOMNode
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker

from samantha_tui.cli import main
from samantha_tui.core.views.indexes.plan import INDEX_JSON, INDEX_MD
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.trash import TRASH_DIR
from samantha_tui.core.writing.tree_lock import LOCK_FILE
from samantha_tui.ui import folder_opener, reading
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.keys import APP_KEYS
from samantha_tui.ui.screens import bootstrap
from samantha_tui.ui.screens.button_choices import ButtonChoices
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.memory_form import DiscardQuestion

from .waiting import WITHIN, is_short_one_shot, press, send_key, settle, taken_in

MORE_KEYS = (
    "enter",
    "escape",
    "tab",
    "shift+tab",
    "up",
    "down",
    "left",
    "right",
    "pageup",
    "pagedown",
    "home",
    "end",
    "space",
    "backspace",
    "ctrl+k",
    "ctrl+p",
)
"""Keys every screen meets, bound or not."""
WAY_BACK = 60
"""Screens closed at most on the way back to the list: a healthy app has far fewer open (each
close is checked to have closed something)."""


# --- keys ----------------------------------------------------------------------------------------


def bound_keys(owners: Iterable[type[DOMNode]]) -> set[str]:
    """Every key the classes bind, their inherited bindings included."""
    found: set[str] = set()
    for owner in owners:
        merged = owner._merged_bindings
        if merged is not None:
            found.update(merged.key_to_bindings)
    return found


def app_keys() -> set[str]:
    return {key for app_key in APP_KEYS for key in app_key.keys.split(",")}


def weighted_pool(
    screen_keys: Iterable[str], *, app: int = 2, screen: int = 4, escape: int = 4
) -> dict[str, int]:
    """Letters, digits and MORE_KEYS at weight 1, the app's keys at `app`, the screen's and its
    widgets' at `screen`, Esc at `escape`; in key order, so a seed always draws the same sequence.

    Drawn evenly, most keys land in a search box, a palette or a form field: the bound keys weigh
    more. Esc closes the screen (and the test opens it again), so it weighs only a little more.
    """
    weights = dict.fromkeys([*string.ascii_letters, *string.digits, *MORE_KEYS], 1)
    for key in app_keys():
        weights[key] = max(weights.get(key, 1), app)
    for key in screen_keys:
        weights[key] = max(weights.get(key, 1), screen)
    weights["escape"] = escape
    return dict(sorted(weights.items()))


def screen_pool(live: Screen[Any], **weights: int) -> dict[str, int]:
    """The pool for a live screen: the keys of the screen and of every widget on it."""
    owners = {type(live), *(type(node) for node in live.walk_children(with_self=False))}
    return weighted_pool(sorted(bound_keys(owners)), **weights)


def draw(pool: dict[str, int], seed: int, count: int) -> list[str]:
    return random.Random(seed).choices(list(pool), list(pool.values()), k=count)


# --- timing --------------------------------------------------------------------------------------


class WorkerGate:
    """Holds every worker while closed, and every short one-shot timer of the app's own (a
    debounce); once open, lets them run one at a time, in the order they were started or fell
    due (asyncio's lock wakes its waiters first come, first served).

    Installed on Textual's Worker.run: the app's workers are decorated when their classes are
    defined, so the gate cannot be put in `ui.workers.background` from a test, and Textual's own
    workers (the command palette's search) race the keys too. And on Timer._tick: a debounce
    that fell due while a burst was dispatched (the health report's, after a dismissal; the
    bootstrap preview's) would otherwise run between two of its keys at a moment the clock
    chose. A key that restarts a held debounce cancels it, as a fast burst does.
    """

    def __init__(self) -> None:
        self._turn = asyncio.Lock()
        self.held = 0
        """Workers that had to wait for their turn (for the figures)."""
        self.debounces_held = 0
        """Debounces that fell due while the gate was closed."""

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        run = Worker.run
        gate = self

        async def gated_run(worker: Worker[Any]) -> Any:
            if gate._turn.locked():
                gate.held += 1
            try:
                async with gate._turn:
                    return await run(worker)
            finally:
                # A worker cancelled while it waited here (its widget closed in the same burst)
                # never ran its work: its coroutine is closed, as running it would have, or it
                # is dropped unawaited (an Input's suggestion, typed just before Esc).
                if inspect.iscoroutine(worker._work):
                    worker._work.close()

        monkeypatch.setattr(Worker, "run", gated_run)
        tick = Timer._tick

        async def gated_tick(timer: Timer, *, next_timer: float, count: int) -> None:
            if not _a_debounce_of_ours(timer):
                return await tick(timer, next_timer=next_timer, count=count)
            if gate._turn.locked():
                gate.debounces_held += 1
            async with gate._turn:
                return await tick(timer, next_timer=next_timer, count=count)

        monkeypatch.setattr(Timer, "_tick", gated_tick)

    async def close(self) -> None:
        await asyncio.wait_for(self._turn.acquire(), WITHIN)

    def open(self) -> None:
        self._turn.release()


def _a_debounce_of_ours(timer: Timer) -> bool:
    """A one-shot timer of at most SHORT_TIMER set by the app's own code (its callback is
    samantha_tui's): the held-keys limit (5 s) and Textual's own timers run as they are."""
    module = getattr(timer._callback, "__module__", None) or ""
    return is_short_one_shot(timer) and module.startswith("samantha_tui.")


async def mash(pilot, keys: list[str], gate: WorkerGate | None = None) -> None:
    """Send the keys as fast as a terminal would, and wait until the app has taken them in.

    With a gate, no worker runs while the keys are dispatched; the gate opens after, and this
    returns once every worker and what it started is done.
    """
    app = pilot.app
    if gate is not None:
        await gate.close()
    try:
        for key in keys:
            send_key(app, key)
        await taken_in(pilot)
    finally:
        if gate is not None:
            gate.open()
    if gate is not None:
        await settle(pilot)


# --- the way back --------------------------------------------------------------------------------


def _closed_by_type(screen: Screen[Any]) -> None:
    """Close the top screen with the answer that changes nothing; a form's "Discard your
    changes?" is the one question answered yes (its input was the keys' own, never saved)."""
    if isinstance(screen, DiscardQuestion):
        screen.dismiss(True)
    elif isinstance(screen, ConfirmScreen):
        screen.dismiss(False)
    elif isinstance(screen, ButtonChoices):
        screen.dismiss(screen.SAFE_CHOICE)
    else:
        # A form dismissed with None saves nothing; the palettes, the review screens and the
        # other dialogs close so too.
        screen.dismiss(None)


async def back_to_list(pilot) -> None:
    """Close whatever is open, by its type, until only the list is left, then focus the list."""
    app: SamanthaApp = pilot.app
    for _ in range(WAY_BACK):
        if len(app.screen_stack) == 1:
            break
        top = app.screen
        _closed_by_type(top)
        await settle(pilot)
        assert top not in app.screen_stack, f"{top!r} did not close"
    stack = [type(screen).__name__ for screen in app.screen_stack]
    assert len(app.screen_stack) == 1, f"still open after {WAY_BACK} closes: {stack}"
    if app.focused is not app.table:
        app.table.focus()
        await settle(pilot)
    assert app.focused is app.table, f"focus is on {app.focused!r}"


async def undo_everything(pilot, recorder: Recorder) -> None:
    """`u` on the list until nothing is left to undo; every change the keys made is undone."""
    app: SamanthaApp = pilot.app
    for _ in range(len(recorder.applied) + 1):
        if not app.curator.can_undo:
            break
        await press(pilot, "u")
    notices = [n.message for n in app._notifications]
    assert not app.curator.can_undo, f"an undo was refused; the last notices: {notices[-4:]}"
    assert app.return_code is None


# --- what was changed ----------------------------------------------------------------------------


class Recorder:
    """What the curator applied (a redo makes a change again) and undid during the run."""

    def __init__(self, curator: Curator) -> None:
        self.applied: list[str] = []
        self.undone: list[str] = []
        self.events: list[str] = []
        """Both, in the order they happened."""
        self.emptied: list[str] = []
        """Where the items the keys deleted for good (`E` in the trash, confirmed) came from."""
        self.dropped = 0
        """Changes that emptying took out of the history: they can no longer be undone."""
        apply, undo, redo = curator.apply, curator.undo, curator.redo
        empty = curator.empty_trash

        def recorded_empty(entry_ids):
            emptied = empty(entry_ids)
            self.emptied += [entry.path for entry in emptied.removed]
            self.dropped += emptied.no_undo
            self.events.append(emptied.message)
            return emptied

        def recorded_apply(plan, **options):
            outcome = apply(plan, **options)
            self.applied.append(plan.name)
            self.events.append(plan.name)
            return outcome

        def recorded_redo():
            outcome = redo()
            self.applied.append(outcome.message)
            self.events.append(outcome.message)
            return outcome

        def recorded_undo():
            outcome = undo()
            self.undone.append(outcome.message)
            self.events.append(outcome.message)
            return outcome

        curator.apply = recorded_apply  # type: ignore[method-assign]
        curator.undo = recorded_undo  # type: ignore[method-assign]
        curator.redo = recorded_redo  # type: ignore[method-assign]
        curator.empty_trash = recorded_empty  # type: ignore[method-assign]


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root, by its path relative to root; the lock file aside (it holds only
    who is writing)."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
        and not path.is_symlink()
        and path.relative_to(root).as_posix() != LOCK_FILE
    }


def is_index(rel: str) -> bool:
    return rel.rsplit("/", 1)[-1] in (INDEX_JSON, INDEX_MD)


def regenerated(before: dict[str, bytes], where: Path) -> dict[str, bytes]:
    """The index files `samantha-tui index` writes over a copy of the tree as it was."""
    for rel, data in before.items():
        path = where / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["index", "--tree", str(where)]) == 0
    return {rel: data for rel, data in snapshot(where).items() if is_index(rel)}


def assert_every_byte_accounted(
    before: dict[str, bytes],
    root: Path,
    scratch: Path,
    sandbox: Sandbox,
    emptied: Iterable[str] = (),
) -> None:
    """The tree as it was (the trash aside, each index old or regenerated), nothing outside;
    only a file the keys deleted for good (`emptied`: emptying the trash, confirmed) may go."""
    after = snapshot(root)
    kept = {rel for rel in before | after if not rel.startswith(f"{TRASH_DIR}/")}
    files = {rel for rel in kept if not is_index(rel)}
    gone_for_good = tuple(emptied)

    def asked_for(rel: str) -> bool:
        return any(rel == path or rel.startswith(path + "/") for path in gone_for_good)

    went = {rel for rel in files if rel not in after and not asked_for(rel)}
    assert went == set(), "files went"
    assert {rel for rel in files if rel not in before} == set(), "files appeared"
    changed = sorted(rel for rel in files if after[rel] != before[rel])
    assert changed == [], "files differ from the tree as it was"
    indexes = regenerated(before, scratch)
    for rel in sorted(kept - files):
        found = after.get(rel)
        if found in (before.get(rel), indexes.get(rel)):
            continue
        regenerated_lines = (indexes.get(rel) or b"").decode(errors="replace").splitlines()
        found_lines = (found or b"").decode(errors="replace").splitlines()
        diff = "\n".join(difflib.unified_diff(regenerated_lines, found_lines, lineterm="", n=1))
        raise AssertionError(f"{rel}: not old, not regenerated; against the regenerated:\n{diff}")
    sandbox.assert_untouched()


# --- the run -------------------------------------------------------------------------------------


@dataclass
class Sandbox:
    """An empty current folder; a started process is recorded and refused; an export and a
    folder opened (`O`, which starts the file manager by design) are recorded instead."""

    folder: Path
    processes: list[tuple[Any, ...]] = field(default_factory=list)
    exports: list[Path] = field(default_factory=list)
    folders_opened: list[Path] = field(default_factory=list)

    def assert_untouched(self) -> None:
        assert list(self.folder.iterdir()) == [], "nothing is written outside the tree"
        assert self.processes == [], f"the app started a process: {self.processes}"


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    folder = tmp_path / "cwd"
    folder.mkdir()
    monkeypatch.chdir(folder)
    box = Sandbox(folder)

    def no_process(*args: Any, **kwargs: Any) -> None:
        box.processes.append(args)
        raise AssertionError(f"the app started a process: {args}")

    monkeypatch.setattr(subprocess, "run", no_process)
    monkeypatch.setattr(subprocess, "Popen", no_process)
    monkeypatch.setattr(
        bootstrap, "save_export", lambda path, data, expected: box.exports.append(path)
    )
    monkeypatch.delenv(folder_opener.ENV_NAME, raising=False)
    monkeypatch.setattr(
        reading, "open_folder", lambda command, folder: box.folders_opened.append(folder)
    )
    return box


def counting_quits(app: SamanthaApp) -> list[None]:
    """Replace the app's quit with a counter: ending the app is what `q` is for."""
    quits: list[None] = []

    async def counted_quit() -> None:
        quits.append(None)

    app.action_quit = counted_quit  # type: ignore[method-assign]
    return quits


Opener = Callable[[Any], Awaitable[None]]
"""Brings the app from the list, focused, to the screen under test."""


@dataclass
class Run:
    """One seeded run on one screen: the keys, what each burst left, the figures."""

    keys: list[str]
    batch: int
    trace: list[tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    """After each burst: the screen stack by type, and every change applied so far."""
    reopened: int = 0
    on_screen: int = 0
    """Bursts that began on the screen under test (not on something opened over it)."""
    screens: set[str] = field(default_factory=set)

    def figures(self, recorder: Recorder, gate: WorkerGate, quits: list[None], box: Sandbox) -> str:
        bursts = -(-len(self.keys) // self.batch)
        return (
            f"{len(self.keys)} keys in {bursts} bursts, {self.on_screen} began on the screen, "
            f"reopened {self.reopened} times: {len(recorder.applied)} changes applied, "
            f"{len(recorder.undone)} undone, {gate.held} workers and {gate.debounces_held} "
            f"debounces held, {len(quits)} quits "
            f"counted, {len(box.exports)} exports and {len(box.folders_opened)} folders opened "
            f"recorded; bursts ended on "
            f"{', '.join(sorted(self.screens))}"
        )


def stack_names(app: SamanthaApp) -> tuple[str, ...]:
    return tuple(type(screen).__name__ for screen in app.screen_stack)


async def back_to(pilot, is_top: Callable[[SamanthaApp], bool]) -> None:
    """Close, by type, what was opened over the screen under test (if it is still open)."""
    app: SamanthaApp = pilot.app
    for _ in range(WAY_BACK):
        if is_top(app) or len(app.screen_stack) == 1:
            return
        top = app.screen
        _closed_by_type(top)
        await settle(pilot)
        assert top not in app.screen_stack, f"{top!r} did not close"


async def mash_on(
    pilot,
    run: Run,
    gate: WorkerGate,
    recorder: Recorder,
    is_top: Callable[[SamanthaApp], bool],
    opener: Opener | None,
) -> None:
    """Send the run's keys in bursts, each beginning on the screen under test (`is_top`): what
    the last burst opened over it is closed, and when the keys closed it, `opener` opens it
    again. Without an opener the keys roam: each burst goes on where the last one ended."""
    app: SamanthaApp = pilot.app
    for start in range(0, len(run.keys), run.batch):
        if opener is not None and not is_top(app):
            await back_to(pilot, is_top)
            if not is_top(app):
                await back_to_list(pilot)
                await opener(pilot)
                await settle(pilot)
                assert is_top(app), f"the opener did not open it: {stack_names(app)}"
                run.reopened += 1
        run.on_screen += is_top(app)
        await mash(pilot, run.keys[start : start + run.batch], gate)
        assert app.return_code is None and app.screen_stack, "the app ended"
        run.trace.append((stack_names(app), tuple(recorder.applied)))
        run.screens.add(type(app.screen).__name__)

"""The progress line in the real app: it appears with counts once work has run half a second,
never for quick work, goes when the work ends, and the list still moves meanwhile."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from samantha_tui.core.writing import edits
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.widgets.progress_panel import ProgressPanel
from samantha_tui.ui.work_progress import SHOW_AFTER

from ..conftest import ST, TODAY, make_tree
from ..pilot import memory, reindexed, settle, until
from ..waiting import tap

COUNT = 40
STEP = 0.03
"""Seconds each trashing takes in the slow tests: 40 of them are well over half a second."""


def many(tmp_path: Path) -> Path:
    files = {
        f"{ST}/2026-06-{1 + i % 28:02d}_note_{i:03d}.md": memory(f"Note {i}") for i in range(COUNT)
    }
    return reindexed(make_tree(tmp_path / "cerebrum", files))


WAIT = 60.0
"""Seconds a test waits at most for work to show or end: generous, for a loaded machine; what
is asserted about the times (never before half a second) does not depend on it."""


class Gate:
    """Once armed, the trashing halfway through a batch waits until `release` (or WAIT), so a
    test can act while the batch is surely still running, however slow the machine."""

    def __init__(self) -> None:
        self.undo: Gate | None = None
        """The same hold for the restores of an undo (set by the fixture)."""
        self.armed = False
        self.calls = 0
        self._open = threading.Event()

    def passing(self) -> None:
        self.calls += 1
        if self.armed and self.calls > COUNT // 2:
            self._open.wait(WAIT)

    def release(self) -> None:
        self._open.set()


@pytest.fixture
def slow_trash(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    real, real_restore = Store.trash, Store.restore
    gate = Gate()
    gate.undo = undo = Gate()

    def slow(self: Store, rel: str):
        time.sleep(STEP)
        gate.passing()
        return real(self, rel)

    def slow_restore(self: Store, entry_id: str):
        time.sleep(STEP)
        undo.passing()
        return real_restore(self, entry_id)

    monkeypatch.setattr(Store, "trash", slow)
    monkeypatch.setattr(Store, "restore", slow_restore)
    yield gate
    gate.release()  # never a worker left waiting after its test
    undo.release()


def panel_of(app: SamanthaApp) -> ProgressPanel:
    return app.screen.query_one(ProgressPanel)


async def seconds_until(pilot, condition, limit: float = WAIT) -> float:
    """Wait until condition() holds; the seconds it took."""
    began = time.monotonic()
    assert await until(pilot, condition, limit), "waited too long"
    return time.monotonic() - began


def counted(said: str) -> int:
    found = re.match(rf"Moving (\d+) of {COUNT} to the trash…", said)
    assert found, said
    return int(found.group(1))


async def test_a_slow_batch_shows_counts_after_half_a_second_and_the_list_still_moves(
    tmp_path: Path, slow_trash: Gate
) -> None:
    app = SamanthaApp(many(tmp_path), lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        panel = panel_of(app)
        assert not panel.shown
        slow_trash.armed = True
        app.change(lambda: edits.delete(list(app.curator.tree.memories)))
        waited = await seconds_until(pilot, lambda: panel.shown)
        assert waited >= SHOW_AFTER - 0.05  # never at once: quick work must not flash
        first = counted(panel.said)
        assert "busy" in panel.said
        # The list answers keys while the batch runs.
        before = app.table.cursor
        await tap(pilot, "down")  # not settled: the batch is held until released below
        assert app.busy and panel.shown, "the batch ended before the key was tried"
        assert app.table.cursor == before + 1
        slow_trash.release()
        # The counts move on as the steps land.
        await seconds_until(pilot, lambda: not panel.shown or counted(panel.said) > first)
        await settle(pilot)
        assert not panel.shown
        assert not app.busy
        assert app.curator.tree.memories == ()
        # Its undo is as long (held halfway as the batch was), and shows its own counts.
        assert slow_trash.undo is not None
        slow_trash.undo.armed = True
        app.action_undo()
        await seconds_until(pilot, lambda: panel.shown)
        assert re.match(rf"Restoring \d+ of {COUNT} from the trash…", panel.said), panel.said
        slow_trash.undo.release()
        await settle(pilot)
        assert not panel.shown and len(app.curator.tree.memories) == COUNT


async def test_quick_work_never_shows_the_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[tuple[int, int, str]] = []
    real = ProgressPanel.show_work

    def record(self: ProgressPanel, done: int, total: int, what: str) -> None:
        shown.append((done, total, what))
        real(self, done, total, what)

    monkeypatch.setattr(ProgressPanel, "show_work", record)
    root = many(tmp_path)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        # The first read of the tree is not quick work on a busy machine; the toggle is.
        shown.clear()
        path = app.selected_memory().path
        await pilot.press("c")
        await settle(pilot)
        await pilot.pause(SHOW_AFTER + 0.1)  # past the delay: a bar left pending would show now
        assert "critical: true" in (root / path).read_text(encoding="utf-8")
        assert shown == []
        assert not panel_of(app).shown and not app.busy


async def test_a_screen_over_the_list_shows_the_work_too(tmp_path: Path, slow_trash: Gate) -> None:
    app = SamanthaApp(many(tmp_path), lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.action_open_screen("trash")
        await settle(pilot)
        app.change(lambda: edits.delete(list(app.curator.tree.memories)))
        # Mounted above the trash screen's footer as the work became slow, drawn once composed.
        await seconds_until(
            pilot, lambda: bool(app.screen.query(ProgressPanel)) and panel_of(app).said
        )
        assert type(app.screen).__name__ == "TrashScreen"
        counted(panel_of(app).said)
        await settle(pilot)
        assert not panel_of(app).shown


async def test_under_a_dialog_the_screen_beneath_shows_the_work(tmp_path: Path) -> None:
    from samantha_tui.ui.messages import WorkProgress
    from samantha_tui.ui.screens.help import HelpScreen

    app = SamanthaApp(many(tmp_path), lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        main = app.screen
        app.action_help()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        started = time.monotonic() - 5  # a job that has run for a while already
        app.post_message(WorkProgress(7, started, 3, 9, "Restoring {count} from the trash"))
        await seconds_until(pilot, lambda: main.query_one(ProgressPanel).shown)
        assert main.query_one(ProgressPanel).said.startswith("Restoring 3 of 9 from the trash…")
        assert not app.screen.query(ProgressPanel)  # the dialog got none of its own
        app.post_message(WorkProgress(7, started, ended=True))
        await seconds_until(pilot, lambda: not main.query_one(ProgressPanel).shown)
        assert not app.busy


async def test_a_slow_first_scan_shows_files_read_of_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from samantha_tui.core.reading.catalog import Catalog

    real = Catalog.read

    def slow(self, *args, **kwargs):
        time.sleep(STEP)
        return real(self, *args, **kwargs)

    root = many(tmp_path)
    monkeypatch.setattr(Catalog, "read", slow)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        panel = app.query_one(ProgressPanel)
        await seconds_until(pilot, lambda: panel.said.startswith("Reading"))
        assert re.match(rf"Reading \d+ of {COUNT} memory files…", panel.said), panel.said
        await settle(pilot)
        assert app.memory_tree is not None and len(app.memory_tree.memories) == COUNT
        assert not panel.shown


async def test_a_report_while_the_panel_is_taken_down_is_dropped_not_raised() -> None:
    """A worker's count can land while the panel's screen is being taken down (seen once, under
    load, at the end of a headless run): its line is gone, and the report has nowhere to go."""
    from textual.app import App, ComposeResult

    class Holder(App[None]):
        def compose(self) -> ComposeResult:
            yield ProgressPanel()

    app = Holder()
    async with app.run_test() as pilot:
        panel = app.query_one(ProgressPanel)
        panel.show_work(1, 4, "Reading {count} memories")
        await pilot.pause()
        assert "1" in panel.said
        await panel.query_one("#progress-words").remove()
        panel.show_work(2, 4, "Reading {count} memories")  # no NoMatches
        await pilot.pause()
        assert panel.shown


async def test_a_cancelled_report_stops_at_its_next_count_and_fails_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The health report only reads: once its worker is cancelled (newer work of its group, its
    screen closed) it stops at its next count rather than running on to an answer nobody reads,
    and no failure is reported."""
    from textual.worker import WorkerState

    from samantha_tui.core.basics import progress
    from samantha_tui.ui import health

    counted = threading.Event()
    reports = {"n": 0}

    def endless(*args, **kwargs):
        # Reports until stopped; the cap only catches a hang (the stop comes within one count).
        cap = 10_000_000
        while reports["n"] < cap:
            reports["n"] += 1
            progress.report(reports["n"], cap, "Reading {count} memories")
            counted.set()
        raise AssertionError("the report was never stopped")

    monkeypatch.setattr(health, "report_of", endless)
    notices: list[str] = []
    app = SamanthaApp(many(tmp_path), lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(app, "notify", lambda message, **_: notices.append(str(message)))
        worker = app.check_health(None)
        await until(pilot, counted.is_set)
        worker.cancel()
        await until(pilot, lambda: worker.is_finished)
        await pilot.pause()
        assert worker.state is WorkerState.CANCELLED
        stopped_at = reports["n"]
        await settle(pilot)
        assert reports["n"] == stopped_at, "nothing ran on after the stop"
        assert not app.busy, "its bar went with it"
    assert not any("failed" in n for n in notices), notices


async def test_no_busy_bar_while_a_dialog_waits_for_the_person(tmp_path: Path) -> None:
    """The conflict dialog waits for an answer: the bar of work running meanwhile goes while it
    asks, and comes back once it is answered only if that work still runs."""
    from samantha_tui.ui.messages import WorkProgress
    from samantha_tui.ui.screens.conflict import ConflictScreen

    app = SamanthaApp(many(tmp_path), lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main = app.screen
        panel = main.query_one(ProgressPanel)
        started = time.monotonic() - 5  # a job that has run for a while already
        app.post_message(WorkProgress(8, started, 3, 9, "Restoring {count} from the trash"))
        await seconds_until(pilot, lambda: panel.shown)
        path = app.selected_memory().path
        app.push_screen(ConflictScreen(path))
        await seconds_until(pilot, lambda: isinstance(app.screen, ConflictScreen))
        await seconds_until(pilot, lambda: not panel.shown)
        assert app.busy  # the work goes on; only the bar saying so waits
        await pilot.press("escape")
        await seconds_until(pilot, lambda: panel.shown)  # the work really still runs
        app.push_screen(ConflictScreen(path))
        await seconds_until(pilot, lambda: not panel.shown)
        app.post_message(WorkProgress(8, started, ended=True))
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ConflictScreen)
        assert not panel.shown and not app.busy  # nothing came back: the work had ended

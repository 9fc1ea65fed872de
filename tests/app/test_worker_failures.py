"""A failure nobody expected inside background work never closes the app: one handler says what
failed, the tree is left as it was, and the change queue goes on with the next change."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.core.views.search import SearchIndex
from samantha_tui.core.writing import door, edits
from samantha_tui.ui.app import SamanthaApp

from ..conftest import TODAY
from ..faults import record_notices, snapshot
from ..pilot import ALPHA, BETA, alpha_and_beta, index_check, settle

FAILED = "Something went wrong"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return alpha_and_beta(tmp_path)


def failures(notices: list[tuple[str, str]]) -> list[str]:
    return [message for title, message in notices if title == FAILED]


async def test_a_change_that_raises_is_reported_and_the_next_change_still_runs(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = edits.toggle_critical
    calls = {"n": 0}

    def broken_once(memory):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("a bug in the plan maker")
        return real(memory)

    monkeypatch.setattr(edits, "toggle_critical", broken_once)
    app = SamanthaApp(root, lambda: TODAY)
    notices = record_notices(app)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        before = snapshot(root)
        # Both presses at once: the second is queued behind the one that fails.
        await pilot.press("c", "c")
        await settle(pilot)
        assert app.is_running
        said = failures(notices)
        assert len(said) == 1, notices
        assert "A change failed: RuntimeError: a bug in the plan maker" in said[0]
        assert calls["n"] == 2
        after = snapshot(root)
        changed = sorted(rel for rel in after if after[rel] != before.get(rel))
        selected = app.selected_memory().path
        assert selected in changed and b"critical: true" in (root / selected).read_bytes()
    assert index_check(root, capsys) == 0


async def test_a_batch_that_raises_part_way_is_undone_whole_and_reported(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = door.run_operation
    seen = {"n": 0}

    def breaks_on_the_second(store, op):
        seen["n"] += 1
        if seen["n"] == 2:
            raise KeyError("unexpected")
        return real(store, op)

    app = SamanthaApp(root, lambda: TODAY)
    notices = record_notices(app)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        before = snapshot(root)
        monkeypatch.setattr(door, "run_operation", breaks_on_the_second)
        memories = [app.curator.get(ALPHA), app.curator.get(BETA)]
        app.change(lambda: edits.delete(memories))
        await settle(pilot)
        assert app.is_running
        assert seen["n"] >= 3, "the first step ran, the second raised, the first was undone"
        said = failures(notices)
        assert len(said) == 1 and "KeyError" in said[0], notices
        assert snapshot(root) == before
        assert not (root / ".ai/.journal").exists()
        monkeypatch.setattr(door, "run_operation", real)
        app.change(lambda: edits.delete([app.curator.get(ALPHA)]))
        await settle(pilot)
        assert not (root / ALPHA).exists() and (root / BETA).exists()


async def test_a_search_worker_that_raises_is_reported_and_the_app_stays(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self, query, *args, **kwargs):
        raise ValueError("search broke")

    app = SamanthaApp(root, lambda: TODAY)
    notices = record_notices(app)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(SearchIndex, "search_split", broken)
        await pilot.press("slash", "a", "l")
        await settle(pilot)
        assert app.is_running
        said = failures(notices)
        assert said and all("The search failed: ValueError: search broke" in s for s in said)
        # The rest of the app still answers keys.
        await pilot.press("escape")
        await settle(pilot)
        assert app.is_running


async def test_a_screens_worker_that_raises_is_reported_and_the_app_stays(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from samantha_tui.ui.screens import stats as stats_screen

    def broken(*args, **kwargs):
        raise ZeroDivisionError("no numbers")

    monkeypatch.setattr(stats_screen, "stats", broken)
    app = SamanthaApp(root, lambda: TODAY)
    notices = record_notices(app)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        app.action_open_screen("stats")
        await settle(pilot)
        assert app.is_running
        said = failures(notices)
        assert len(said) == 1 and "The statistics failed: ZeroDivisionError" in said[0], notices


class _Unprintable:
    """An argument whose repr counts itself: as a tree of 10,000 memories, costly to write out."""

    def __init__(self) -> None:
        self.written = 0

    def __repr__(self) -> str:
        self.written += 1
        return "unprintable"


async def test_starting_background_work_never_writes_its_arguments_out() -> None:
    from textual.app import App

    from samantha_tui.ui.workers import background

    class Small(App[None]):
        @background(thread=True, group="probe")
        def work_on(self, argument: _Unprintable) -> None:
            pass

    argument = _Unprintable()
    app = Small()
    async with app.run_test() as pilot:
        worker = app.work_on(argument)
        await worker.wait()
        await pilot.pause()
    assert argument.written == 0
    assert worker.description == "work_on"

"""Progress of long work: the core's reports (counts only go up and end at the total) for a batch,
its undo, recovery, the scan and the indexes; the throttle that keeps the screen's share small."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.core.basics import plans, progress
from samantha_tui.core.reading.scan import READING
from samantha_tui.core.views.indexes.plan import CHECKING, UPDATING, WRITING
from samantha_tui.core.writing import door, edits
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.recovery import FINISH, FINISHING, ROLLBACK, ROLLING_BACK, recover
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY, make_tree
from ..pilot import memory

TRASHING = "Moving {count} to the trash"
RESTORING = "Restoring {count} from the trash"

Report = tuple[int, int, str]


def many(tmp_path: Path, count: int) -> Path:
    files = {
        f"{ST}/2026-06-{1 + i % 28:02d}_note_{i:03d}.md": memory(f"Note {i}") for i in range(count)
    }
    return make_tree(tmp_path / "cerebrum", files)


def store_of(root: Path) -> Store:
    store = Store(root, lambda: TODAY)
    store.scan()
    return store


def heard(reports: list[Report], what: str) -> list[tuple[int, int]]:
    return [(done, total) for done, total, said in reports if said == what]


def assert_counts_up_to_total(counts: list[tuple[int, int]], total: int) -> None:
    assert counts, "no report was made"
    assert {t for _, t in counts} == {total}
    dones = [done for done, _ in counts]
    assert dones == sorted(dones), f"counts went back: {dones}"
    assert dones[0] == 0 and dones[-1] == total


# --- the protocol ------------------------------------------------------------------------------


def test_words_put_the_count_where_the_phrase_says() -> None:
    assert progress.words(120, 375, TRASHING) == "Moving 120 of 375 to the trash…"
    assert progress.words(1500, 2000, READING) == "Reading 1,500 of 2,000 memory files…"
    assert progress.words(2, 5, "Sorting") == "Sorting: 2 of 5…"


def test_reports_reach_only_the_listener_of_the_work_they_come_from() -> None:
    outer: list[Report] = []
    inner: list[Report] = []
    progress.report(1, 2, "nobody listens")  # no listener: nothing happens, nothing raises
    with progress.reporting(lambda *r: outer.append(r)):
        progress.report(0, 2, "a")
        with progress.reporting(lambda *r: inner.append(r)):
            progress.report(1, 2, "b")
        progress.report(2, 2, "a")
    progress.report(2, 2, "after")
    assert outer == [(0, 2, "a"), (2, 2, "a")]
    assert inner == [(1, 2, "b")]


def test_the_throttle_passes_each_phase_s_start_and_end_and_a_few_between() -> None:
    now = [0.0]
    passed: list[Report] = []
    throttle = progress.Throttle(lambda *r: passed.append(r), interval=0.05, clock=lambda: now[0])
    for done in range(1001):  # 1,000 steps over one second
        throttle(done, 1000, "a")
        now[0] += 0.001
    throttle(0, 3, "b")  # a new phase passes at once, however soon
    throttle(1, 3, "b")
    throttle(3, 3, "b")  # and so does its end
    counts = heard(passed, "a")
    assert counts[0] == (0, 1000) and counts[-1] == (1000, 1000)
    assert 15 <= len(counts) <= 25, len(counts)  # about twenty a second
    assert heard(passed, "b") == [(0, 3), (3, 3)]


# --- the core's reports -------------------------------------------------------------------------


def test_a_batch_and_its_undo_report_every_step(tmp_path: Path) -> None:
    store = store_of(many(tmp_path, 30))
    curator = Curator(store)
    curator.load()
    reports: list[Report] = []
    with progress.reporting(lambda *r: reports.append(r)):
        curator.apply(edits.delete(store.tree.memories))
    assert_counts_up_to_total(heard(reports, TRASHING), 30)
    assert len(heard(reports, TRASHING)) == 31  # the core reports every step; the UI throttles
    assert heard(reports, WRITING)[-1][0] == heard(reports, WRITING)[-1][1] > 0

    reports.clear()
    with progress.reporting(lambda *r: reports.append(r)):
        curator.undo()
    assert_counts_up_to_total(heard(reports, RESTORING), 30)
    assert len(store.tree.memories) == 30


def test_a_failed_batch_reports_the_undoing_of_its_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_of(many(tmp_path, 6))
    real, calls = door.run_operation, [0]

    def fails_fifth(store: Store, op: plans.Operation) -> plans.Operation:
        calls[0] += 1
        if calls[0] == 5:
            raise OSError(28, "No space left on device", op.path)
        return real(store, op)

    monkeypatch.setattr(door, "run_operation", fails_fifth)
    reports: list[Report] = []
    with (
        progress.reporting(lambda *r: reports.append(r)),
        pytest.raises(StoreError, match="nothing was changed"),
    ):
        door.apply(store, edits.delete(store.tree.memories))
    assert_counts_up_to_total(heard(reports, door.UNDOING), 4)


class Crash(BaseException):
    """The process dying part way: nothing catches it, the journal stays."""


def interrupted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int, at: int) -> Path:
    """A tree whose delete of `count` memories died as step `at` began."""
    root = many(tmp_path, count)
    store = store_of(root)
    real, calls = door.run_operation, [0]

    def dies(store: Store, op: plans.Operation) -> plans.Operation:
        calls[0] += 1
        if calls[0] > at:
            raise Crash
        return real(store, op)

    with monkeypatch.context() as patch:
        patch.setattr(door, "run_operation", dies)
        with pytest.raises(Crash):
            door.apply(store, edits.delete(store.tree.memories))
    return root


@pytest.mark.parametrize("mode", [FINISH, ROLLBACK])
def test_recovery_reports_its_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    root = interrupted(tmp_path, monkeypatch, 12, 5)
    reports: list[Report] = []
    with progress.reporting(lambda *r: reports.append(r)):
        done = recover(Store(root, lambda: TODAY), mode)
    if mode == FINISH:
        assert_counts_up_to_total(heard(reports, FINISHING), 12)
        assert done.steps == 7
        assert_counts_up_to_total(heard(reports, UPDATING), 1)
    else:
        # Five steps ran and the sixth was recorded as it began: six are judged and undone.
        assert_counts_up_to_total(heard(reports, ROLLING_BACK), 6)
        assert done.steps == 5
    # It reads the tree first, and says so: the seven memories the crash left in place.
    assert_counts_up_to_total(heard(reports, READING), 7)


def test_the_scan_reports_files_read_of_all_listed(tmp_path: Path) -> None:
    root = many(tmp_path, 40)
    reports: list[Report] = []
    with progress.reporting(lambda *r: reports.append(r)):
        tree = Store(root, lambda: TODAY).scan()
    assert len(tree.memories) == 40
    assert_counts_up_to_total(heard(reports, READING), 40)


def test_regenerating_every_index_reports_kinds_and_files(tmp_path: Path) -> None:
    store = store_of(many(tmp_path, 5))
    reports: list[Report] = []
    with progress.reporting(lambda *r: reports.append(r)):
        written = Curator(store).reindex()
    assert_counts_up_to_total(heard(reports, UPDATING), 5)
    assert_counts_up_to_total(heard(reports, WRITING), len(written))
    assert written


def test_the_drift_check_reports_the_kinds_it_compares(tmp_path: Path) -> None:
    store = store_of(many(tmp_path, 5))
    reports: list[Report] = []
    with progress.reporting(lambda *r: reports.append(r)):
        report = Curator(store).drift()
    assert len(report.kinds) == 5
    assert_counts_up_to_total(heard(reports, CHECKING), 5)

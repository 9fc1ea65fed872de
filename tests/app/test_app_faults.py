"""The app under faults while writing: `c`, a form save (`e`) and a delete (`d`) each meet the
faults they can (see faults.py); each time a notice says what happened and what to do, the app
keeps running, the tree is unchanged, and once the fault is gone the same keys make the change,
with the indexes clean. A refused form save brings the form back with the person's input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Select

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.memory_form import MemoryForm

from ..conftest import ST, TODAY
from ..faults import FAULTS, READ_ONLY_FILE, Faults, record_notices, snapshot, temporary_files
from ..pilot import ALPHA, BETA, alpha_and_beta, index_check, settle

A, B = ALPHA, BETA
EDITS = ["disk full on write", "disk full on fsync", "read-only folder", "permission denied"]
EDITS += ["rename fails", READ_ONLY_FILE]
# A deletion is one rename into the trash: there is no unlink to fail.
DELETES = [name for name in EDITS if name != READ_ONLY_FILE]
FORM_SAVES = ["disk full on fsync", "permission denied", READ_ONLY_FILE]
"""A form save is the same core edit as `c` (which meets every fault); opening a form costs about
a second on a loaded machine, so the form's own part (the input kept for a retry) takes three."""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return alpha_and_beta(tmp_path)


def refusals(notices: list[tuple[str, str]]) -> list[str]:
    return [message for title, message in notices if title == "Nothing was written"]


def arm(faults: Faults, root: Path, name: str) -> None:
    # An unlink failing is the second half of a move: out of the memory's own folder.
    scope = (ST,) if name == "unlink fails" else ("",)
    faults.arm(FAULTS[name], file=root / A, scope=scope)


def assert_refused(app: SamanthaApp, notices: list, name: str, before: dict) -> None:
    said = refusals(notices)
    assert len(said) == 1, f"{name}: {said}"
    assert "2026-06-10_alpha_rule.md" in said[-1] and FAULTS[name].advice in said[-1], said[-1]
    assert app.is_running
    assert snapshot(app.store.root) == before, name
    assert temporary_files(app.store.root) == []


async def test_c_under_every_fault_says_so_and_works_once_the_fault_is_gone(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    faults = Faults(monkeypatch, root)
    app = SamanthaApp(root, lambda: TODAY)
    notices = record_notices(app)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        for name in EDITS:
            before = snapshot(root)
            notices.clear()
            arm(faults, root, name)
            await pilot.press("c")
            await settle(pilot)
            faults.clear()
            assert_refused(app, notices, name, before)

            critical = app.selected_memory().critical
            await pilot.press("c")
            await settle(pilot)
            assert app.selected_memory().critical is not critical, name
            assert (b"critical: true" in (root / A).read_bytes()) is not critical
            assert index_check(root, capsys) == 0, name


async def test_a_form_save_under_faults_keeps_the_input_for_a_retry(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    faults = Faults(monkeypatch, root)
    app = SamanthaApp(root, lambda: TODAY)
    notices = record_notices(app)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        for name, wanted in zip(FORM_SAVES, ["high", "low", "high"], strict=True):
            before = snapshot(root)
            notices.clear()
            await pilot.press("e")
            await pilot.pause()
            app.screen.query_one("#field-importance", Select).value = wanted
            await pilot.pause()
            arm(faults, root, name)
            await pilot.press("ctrl+s")
            await settle(pilot)
            faults.clear()
            assert_refused(app, notices, name, before)
            form = app.screen
            assert isinstance(form, MemoryForm), f"{name}: the form did not come back"
            assert form.query_one("#field-importance", Select).value == wanted

            await pilot.press("ctrl+s")
            await settle(pilot)
            assert not isinstance(app.screen, MemoryForm)
            assert f"importance: {wanted}\n".encode() in (root / A).read_bytes(), name
            assert index_check(root, capsys) == 0, name


async def test_d_under_every_fault_trashes_nothing_and_works_once_the_fault_is_gone(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    faults = Faults(monkeypatch, root)
    app = SamanthaApp(root, lambda: TODAY)
    notices = record_notices(app)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        for name in DELETES:
            before = snapshot(root)
            notices.clear()
            assert app.table.selected_key == A
            await pilot.press("d")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            arm(faults, root, name)
            await pilot.press("y")
            await settle(pilot)
            faults.clear()
            assert_refused(app, notices, name, before)
            assert app.store.trash_entries() == []
            assert app.curator.get(A) is not None

            await pilot.press("d")
            await pilot.pause()
            await pilot.press("y")
            await settle(pilot)
            assert not (root / A).exists() and len(app.store.trash_entries()) == 1, name
            assert index_check(root, capsys) == 0, name
            await pilot.press("u")  # back for the next fault
            await settle(pilot)
            assert (root / A).exists() and app.store.trash_entries() == []
            await pilot.press("home")
            await settle(pilot)

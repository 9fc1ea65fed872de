"""One writer at a time per tree, with the app: a batch still running in another process is
reported as in progress, never as interrupted (by `recover`, `check` and the app's start-up), and
the app's changes and undo hold the tree's lock while they write."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.model import Severity
from samantha_tui.core.writing import journal, tree_lock
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.recover import RecoverScreen

from ..child_batches import (
    KEEP,
    OLD_LOW,
    _short_wait,
    files,
    root,
    start_batch,
    trash_ops,
    wait_for,
)
from ..conftest import TODAY
from ..pilot import settle
from ..store_spy import Change, on_change

__all__ = ["_short_wait", "root"]  # the fixtures, from child_batches.py


# --- a live batch is never reported as interrupted ---------------------------------------------


async def test_a_live_batch_is_in_progress_for_recover_check_and_the_app(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    process, paused, release = start_batch(root, tmp_path, trash_ops(), pause_at=2)
    try:
        wait_for(paused, process)
        assert (root / journal.JOURNAL_DIR / journal.PLAN_FILE).is_file()
        journal_files = sorted(os.listdir(root / journal.JOURNAL_DIR))
        during = files(root)

        assert main(["recover", str(root)]) == 0
        said = capsys.readouterr()
        assert f"a change is in progress in another process (pid {process.pid}" in said.out
        assert "interrupted: prune" not in said.out and "--finish" not in said.out + said.err

        assert main(["check", str(root)]) == 0  # a warning: the tree has nothing wrong
        said = capsys.readouterr()
        assert f"in progress in another process (pid {process.pid}, `prune --yes`" in said.out
        assert "was interrupted" not in said.out
        (problem,) = journal.problems(root)
        assert problem.severity is Severity.WARNING

        for mode in ("--finish", "--rollback"):
            assert main(["recover", mode, str(root)]) == 1
            err = capsys.readouterr().err
            assert f"in progress in another process (pid {process.pid}" in err
            assert "nothing was finished or rolled back" in err

        with pytest.raises(tree_lock.TreeBusy, match="in progress in another process"):
            journal.refuse_if_pending(root)

        app = SamanthaApp(root, lambda: TODAY)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            assert not isinstance(app.screen, RecoverScreen)
            notices = [n.message for n in app._notifications]
            assert any(f"in progress in another process (pid {process.pid}" in n for n in notices)

        # Looking changed nothing: the live batch's journal and files are as it left them.
        assert sorted(os.listdir(root / journal.JOURNAL_DIR)) == journal_files
        assert files(root) == during
    finally:
        release.write_text("go")
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0 and "done" in out, err
    # The batch ended whole, its journal gone; nothing is waiting any more.
    assert not (root / journal.JOURNAL_DIR).exists()
    assert all(not (root / rel).exists() for rel in OLD_LOW)
    assert "importance: high" in (root / KEEP[0]).read_text()
    assert main(["recover", str(root)]) == 0
    assert "nothing was interrupted" in capsys.readouterr().out


# --- within one process: re-entrant and thread-safe --------------------------------------------


async def test_the_apps_changes_and_undo_hold_the_tree(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    held_at_write: list[tuple[str, bool]] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)

        def listen(change: Change) -> None:
            # Called in the change thread, at each write it makes.
            held_at_write.append((change.action, tree_lock.holds(root)))

        on_change(app.store, listen)
        app.toggle_critical_of(KEEP[0])
        await settle(pilot)
        assert "critical: true" in (root / KEEP[0]).read_text()
        await pilot.press("u")
        await settle(pilot)
        assert "critical: true" not in (root / KEEP[0]).read_text()
        # Between changes the app holds nothing: another process may write.
        with tree_lock.hold(root, wait=0):
            pass
    assert held_at_write and all(held for _action, held in held_at_write), held_at_write

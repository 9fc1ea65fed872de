"""The real app, headless, in a child process that dies (os._exit, as a kill -9 leaves things) right
after the first step of a change is written to its journal: a bulk delete of three marked
memories, the undo of that delete, or the review screen's prune batch.

Run as `python -m tests.killed_app ROOT SCENARIO SNAPSHOT KILL`: SNAPSHOT is a folder the child
copies the tree to just before the change that may die (the "before" of that change); KILL is
`kill` or `run` (the uninterrupted reference run). Deterministic: the kill is a hook on the
journal's own "step done" record, never a timer.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import textual.constants

from samantha_tui.core.writing import journal
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.review import ReviewScreen

from . import waiting
from .conftest import HEALTH_AFTER, TODAY

KILLED = 137
SCENARIOS = ("bulk-delete", "undo", "review-batch")


class Killer:
    """Ends the process once the journal records its first finished step, when armed."""

    def __init__(self, kill: bool) -> None:
        self.kill = kill
        self.armed = False
        real = journal.Writer.done

        def done(writer: journal.Writer, index: int, record: journal.Done) -> None:
            real(writer, index, record)
            if self.armed and self.kill:
                os._exit(KILLED)

        journal.Writer.done = done  # type: ignore[method-assign]  # the hook, in this child only

    def arm(self, root: Path, snapshot: Path) -> None:
        shutil.copytree(root, snapshot, symlinks=True)
        self.armed = True


async def confirm(pilot: Any, key: str) -> None:
    """Press `key`, which must ask, and answer yes."""
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, ConfirmScreen), f"{key} asked nothing"
    await pilot.press("y")
    await waiting.settle(pilot)


async def run(root: Path, scenario: str, snapshot: Path, killer: Killer) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await waiting.settle(pilot)
        if scenario == "review-batch":
            app.push_screen(ReviewScreen())
            await waiting.settle(pilot)
            await pilot.press("a")  # every prune candidate
            killer.arm(root, snapshot)
            await confirm(pilot, "enter")
            return
        await pilot.press("space", "space", "space")
        await waiting.settle(pilot)
        assert len(app.table.marked_keys) == 3, app.table.marked_keys
        if scenario == "bulk-delete":
            killer.arm(root, snapshot)
        await confirm(pilot, "d")
        if scenario == "undo":
            killer.arm(root, snapshot)
            await pilot.press("u")
            await waiting.settle(pilot)


def main(argv: list[str]) -> int:
    root, scenario, snapshot, mode = Path(argv[0]), argv[1], Path(argv[2]), argv[3]
    assert scenario in SCENARIOS and mode in ("kill", "run")
    killer = Killer(mode == "kill")
    with pytest.MonkeyPatch.context() as patch:
        waiting.install(patch)
        # As conftest has every app test: the health report's short wait, no animations.
        patch.setattr("samantha_tui.ui.health.HEALTH_AFTER", HEALTH_AFTER)
        patch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")
        asyncio.run(run(root, scenario, snapshot, killer))
    assert killer.armed, "the change never started"
    # Reached only when nothing killed the process: the change ran whole.
    print("ran whole")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The app's batches act only on what their plan saw: a file another program changed after the
review's plan was made keeps its change, its step is skipped and said, the rest of the batch goes
on, and undo follows the skipped step."""

from __future__ import annotations

from pathlib import Path

from samantha_tui.core.writing import trash
from samantha_tui.core.writing.atomic import digest_bytes
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen

from ..conftest import TODAY
from ..other_program_edits import marked_critical, replace_atomically, trash_digests
from ..pilot import reindexed, settle
from .test_review_screen import PRUNE, open_review

# --- the app ------------------------------------------------------------------------------------


async def test_the_review_batch_skips_a_file_changed_after_the_plan(demo_root: Path) -> None:
    root = reindexed(demo_root)
    seen = {p: (root / p).read_bytes() for p in PRUNE}
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        assert screen.table().rows.keys == list(PRUNE)
        await pilot.press("a")  # the whole section
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        # The plan is made; another program marks one candidate critical before "yes".
        replace_atomically(root / PRUNE[1], marked_critical(seen[PRUNE[1]]))
        changed = (root / PRUNE[1]).read_bytes()
        assert changed != seen[PRUNE[1]]
        await pilot.press("y")
        await settle(pilot)
        assert (root / PRUNE[1]).read_bytes() == changed
        others = [p for p in PRUNE if p != PRUNE[1]]
        assert trash_digests(root) == {p: digest_bytes(seen[p]) for p in others}
        notices = [n.message for n in app._notifications]
        assert any("skipped 1 changed since the plan was made" in n for n in notices), notices
        assert app.curator.get(PRUNE[1]).critical, "the list shows the file as it is now"

        await pilot.press("u")
        await settle(pilot)
        assert {p: (root / p).read_bytes() for p in PRUNE} == {**seen, PRUNE[1]: changed}
        assert trash.entries(root) == []

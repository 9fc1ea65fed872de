"""2,000 seeded keys on the bootstrap preview: the app ends alive and every byte of the tree is
as it was.

The keys are the screen's navigation keys (Tab, Shift+Tab, the arrows, PgUp/PgDn, Home/End,
Enter, Esc, Space), the letters the screen and its plan table bind (critical, importance,
export, j/k/g/G), and `b`, which opens the screen again when Esc has closed it. They are sent in
fixed batches without waiting between keys (as a terminal delivers a burst), and the test waits
for the app only between batches: no clock decides anything. In the Project dropdown that is how
a page key reaches the list before it is laid out, which ended the app with Textual's Select.

What the keys change (critical, importance) goes through the curator's undo history; the test
undoes it all at the end, so the tree must be byte-identical to before: the indexes were
regenerated first, so each change's index patch and its undo land on the same bytes.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.binding import Binding

from samantha_tui.core.trash import TRASH_DIR
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens import bootstrap
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.widgets import safe_select
from samantha_tui.ui.widgets.memory_table import MemoryTable

from .conftest import TODAY
from .pilot import reindexed, settle

# `sandbox`: the main mashing test's empty current folder, where no process may start.
from .test_key_mashing import Recorder, mash, sandbox, snapshot  # noqa: F401 (a fixture)

KEYS = 2_000
BATCH = 40
SEED = 20260616
NAVIGATION = {
    "tab": 12,
    "shift+tab": 12,
    "up": 24,
    "down": 24,
    "pageup": 32,
    "pagedown": 32,
    "home": 16,
    "end": 16,
    "enter": 12,
    "space": 12,
    "escape": 6,
    "b": 4,
}
"""Weights against 1 for each bound letter: the keys that change a memory (c, +, -) come about
once in 80 keys, so the run stays about navigating, and its changes stay few enough to undo."""


def key_pool() -> dict[str, int]:
    """The navigation keys with their weights, then every letter or sign the screen and its
    table bind (weight 1); in key order, so a seed always draws the same sequence."""
    weights = dict(NAVIGATION)
    for owner in (BootstrapScreen, MemoryTable):
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding)
            for key in binding.key.split(","):
                weights.setdefault(key.strip(), 1)
    return dict(sorted(weights.items()))


def test_the_pool_holds_the_screen_keys() -> None:
    pool = key_pool()
    assert {"c", "plus", "minus", "x", "j", "k", "g", "G", "pageup", "pagedown"} <= set(pool)
    assert "q" not in pool and "e" not in pool, "only this screen's keys"


async def test_2000_keys_on_the_bootstrap_preview_crash_nothing_and_change_nothing(
    demo_root: Path,
    sandbox: Path,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = reindexed(demo_root)
    before = snapshot(root)
    exports: list[Path] = []
    monkeypatch.setattr(bootstrap, "save_export", lambda path, data, expected: exports.append(path))
    pages: list[int] = []
    move_page = safe_select._SafeOverlay._move_page

    def counted_move_page(self, direction):
        pages.append(direction)
        move_page(self, direction)

    monkeypatch.setattr(safe_select._SafeOverlay, "_move_page", counted_move_page)
    rng = random.Random(SEED)
    pool = key_pool()
    keys = rng.choices(list(pool), list(pool.values()), k=KEYS)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        recorder = Recorder(app.curator)
        await pilot.press("b")
        await settle(pilot)
        assert isinstance(app.screen, BootstrapScreen)
        on_screen = 0
        for start in range(0, KEYS, BATCH):
            if len(app.screen_stack) == 1:
                app.table.focus()
                await mash(pilot, ["b"])  # Esc closed the preview: open it again
            on_screen += isinstance(app.screen, BootstrapScreen)
            await mash(pilot, keys[start : start + BATCH])
            await pilot.pause()
        await settle(pilot)
        assert app.return_code is None and app.screen_stack, "the app ended"
        assert app.is_running

        # Back to the list: Esc closes every screen (the export, a dialog, the preview; a
        # focused input or open list takes one more).
        for _ in range(4 * len(app.screen_stack) + 5):
            if len(app.screen_stack) == 1:
                break
            await pilot.press("escape")
            await settle(pilot)
        assert len(app.screen_stack) == 1
        app.table.focus()
        for _ in range(len(recorder.applied) + 1):
            if not app.curator.can_undo:
                break
            await pilot.press("u")
            await settle(pilot)
        assert not app.curator.can_undo, [n.message for n in app._notifications][-4:]
        assert app.return_code is None

    print(
        f"\n{KEYS} keys, {on_screen} of {KEYS // BATCH} batches began on the preview: "
        f"{len(pages)} page keys reached an open list, {len(recorder.applied)} changes applied "
        f"and undone, {len(exports)} exports recorded"
    )
    assert on_screen >= KEYS // BATCH // 2, "most keys went to the preview"
    assert pages, "the keys reached the open Project list"
    after = snapshot(root)
    kept = {rel for rel in before | after if not rel.startswith(f"{TRASH_DIR}/")}
    assert {rel for rel in kept if before.get(rel) != after.get(rel)} == set()
    assert list(sandbox.iterdir()) == [], "nothing is written outside the tree"

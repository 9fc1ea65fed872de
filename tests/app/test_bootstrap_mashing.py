"""2,000 seeded keys on the bootstrap preview: the app ends alive and every byte of the tree is
as it was.

The keys are the screen's navigation keys (Tab, Shift+Tab, the arrows, PgUp/PgDn, Home/End,
Enter, Esc, Space), the letters the screen and its plan table bind (critical, importance,
export, j/k/g/G), and `b`, which opens the screen again when Esc has closed it. They are sent in
fixed batches without waiting between keys (as a terminal delivers a burst), with no worker
running meanwhile (tests/mashing.py), and the test waits for the app only between batches: no
clock decides anything. In the Project dropdown that is how
a page key reaches the list before it is laid out, which ended the app with Textual's Select.

What the keys change (critical, importance) goes through the curator's undo history; the test
undoes it all at the end, so the tree must be byte-identical to before: the indexes were
regenerated first, so each change's index patch and its undo land on the same bytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding

from samantha_tui.core.writing.trash import TRASH_DIR
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.widgets import safe_select
from samantha_tui.ui.widgets.memory_table import MemoryTable

from ..conftest import TODAY
from ..mashing import (
    Recorder,
    Run,
    Sandbox,
    WorkerGate,
    assert_every_byte_accounted,
    back_to_list,
    draw,
    mash_on,
    press,
    sandbox,  # noqa: F401 (a fixture)
    snapshot,
    undo_everything,
)
from ..pilot import reindexed, settle
from ..tiers import key_counts

KEYS = key_counts(burst=240, soak=2_000)
"""Keys in each tier (tests/tiers.py): a burst in `make test`, the long run in `make soak`."""
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


@pytest.mark.parametrize("keys", KEYS)
async def test_seeded_keys_on_the_bootstrap_preview_crash_nothing_and_change_nothing(
    keys: int,
    demo_root: Path,
    sandbox: Sandbox,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = reindexed(demo_root)
    before = snapshot(root)
    pages: list[int] = []
    move_page = safe_select._SafeOverlay._move_page

    def counted_move_page(self, direction):
        pages.append(direction)
        move_page(self, direction)

    monkeypatch.setattr(safe_select._SafeOverlay, "_move_page", counted_move_page)
    gate = WorkerGate()
    gate.install(monkeypatch)
    run = Run(draw(key_pool(), SEED, keys), BATCH)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        recorder = Recorder(app.curator)

        async def open_preview(pilot) -> None:
            await press(pilot, "b")

        await mash_on(
            pilot,
            run,
            gate,
            recorder,
            lambda app: isinstance(app.screen, BootstrapScreen),
            open_preview,
        )
        assert app.is_running
        await back_to_list(pilot)
        await undo_everything(pilot, recorder)

    print(
        f"\nthe bootstrap preview: {run.figures(recorder, gate, [], sandbox)}, "
        f"{len(pages)} page keys reached an open list"
    )
    assert run.on_screen >= keys // BATCH // 2, "most keys went to the preview"
    assert pages, "the keys reached the open Project list"
    # The indexes were regenerated first: each change's index patch and its undo land on the
    # same bytes, so every file, index or not, is as it was.
    after = snapshot(root)
    kept = {rel for rel in before | after if not rel.startswith(f"{TRASH_DIR}/")}
    assert {rel for rel in kept if before.get(rel) != after.get(rel)} == set()
    assert_every_byte_accounted(before, root, tmp_path / "expected", sandbox)

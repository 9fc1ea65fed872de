"""2,000 seeded keys on the main list: the app ends alive and no byte is lost or made up.

Every key the app binds (its own, its widgets' and every screen's), letters, digits and the usual
navigation keys are drawn (seeded, weighted: see key_pool) and sent in bursts, with no worker
running while a burst is dispatched (tests/mashing.py has the model: the gate, the way back, and
why after undoing everything the tree must be byte-identical, each index old or regenerated).
The keys roam: whatever screen they open, the next burst goes to it. Then every screen is closed,
`u` undoes every change, and the tree is checked file by file; nothing may be written outside it,
no process started (`o`), and `q` is counted rather than quitting.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.keys import APP_KEYS
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.bulk_form import BulkForm
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.drift import DriftScreen
from samantha_tui.ui.screens.export import ExportScreen
from samantha_tui.ui.screens.help import HelpPage, HelpScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.notices import NoticesScreen
from samantha_tui.ui.screens.reader import ReaderScreen
from samantha_tui.ui.screens.review import ReviewScreen
from samantha_tui.ui.screens.stats import StatsScreen
from samantha_tui.ui.screens.trash import TrashScreen
from samantha_tui.ui.sort_menu import SortMenu
from samantha_tui.ui.widgets.memory_table import MemoryTable
from samantha_tui.ui.widgets.search_bar import SearchBar

from ..conftest import TODAY
from ..mashing import (
    Recorder,
    Run,
    Sandbox,
    WorkerGate,
    assert_every_byte_accounted,
    back_to_list,
    bound_keys,
    counting_quits,
    draw,
    mash,
    mash_on,
    sandbox,  # noqa: F401 (a fixture)
    snapshot,
    undo_everything,
    weighted_pool,
)
from ..pilot import settle
from ..tiers import key_counts

KEYS = key_counts(burst=600, soak=2_000)
"""Keys in each tier (tests/tiers.py): a burst in `make test`, the long run in `make soak`."""
BATCH = 25
"""Keys sent at once, before the test waits for the app to have taken them in."""
SEED = 20260615
BOUND = (
    SamanthaApp,
    MemoryTable,
    SearchBar,
    ConfirmScreen,
    ConflictScreen,
    MemoryForm,
    BootstrapScreen,
    ExportScreen,
    ReviewScreen,
    TrashScreen,
    StatsScreen,
    HelpScreen,
    ReaderScreen,
    NoticesScreen,
    BulkForm,
    DriftScreen,
    SortMenu,
)


def key_pool() -> dict[str, int]:
    """Every key the app and its screens bind (weight 2), the app's own keys (4), Esc (8, the
    way back to the list), letters, digits and the usual keys (1).

    Drawn evenly, most keys land in a search box, a palette or a form field, and 2,000 of them
    made one change: the app's own keys weigh more, Esc most.
    """
    return weighted_pool(bound_keys(BOUND), app=4, screen=2, escape=8)


def test_the_pool_holds_every_key_the_app_binds() -> None:
    pool = key_pool()
    assert {key for app_key in APP_KEYS for key in app_key.keys.split(",")} <= set(pool)
    assert pool["escape"] == 8 and pool["c"] == 4 and pool["z"] == 1
    assert {"ctrl+s", "pagedown", "space", "x"} <= set(pool), "the screens' and widgets' keys"


@pytest.mark.parametrize("keys", KEYS)
async def test_seeded_random_keys_leave_the_app_alive_and_every_byte_accounted_for(
    keys: int,
    demo_root: Path,
    sandbox: Sandbox,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = snapshot(demo_root)
    gate = WorkerGate()
    gate.install(monkeypatch)
    run = Run(draw(key_pool(), SEED, keys), BATCH)
    app = SamanthaApp(demo_root, lambda: TODAY)
    quits = counting_quits(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        recorder = Recorder(app.curator)
        await mash_on(pilot, run, gate, recorder, lambda app: len(app.screen_stack) == 1, None)
        await back_to_list(pilot)
        await undo_everything(pilot, recorder)

    with capsys.disabled():
        print(f"\nthe main list: {run.figures(recorder, gate, quits, sandbox)}")
    assert_every_byte_accounted(before, demo_root, tmp_path / "expected", sandbox)
    assert len(recorder.undone) == len(recorder.applied)
    assert recorder.applied, "the keys made changes, and each was undone"


# --- crashes the mashing found, pinned -----------------------------------------------------------


@pytest.mark.parametrize("opener", ["ctrl+k", "ctrl+p"])
async def test_a_page_key_right_after_a_palette_opens_does_nothing(
    demo_root: Path, opener: str
) -> None:
    # Textual 8.2.8 looked up a line of the palette's list before laying it out: KeyError.
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await mash(pilot, [opener, "pagedown", "pageup"])
        await settle(pilot)
        assert app.return_code is None
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.screen_stack) == 1


async def test_a_dialog_dismissed_twice_closes_once(demo_root: Path) -> None:
    """`y` and a queued Enter on a button each dismissed a confirmation: the second dismiss popped
    the screen under it (with only the list below, the app closed)."""
    app = SamanthaApp(demo_root, lambda: TODAY)
    answers: list[bool | None] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(HelpScreen(HelpPage("Keys", "", [])))
        dialog = ConfirmScreen("Sure?")
        app.push_screen(dialog, answers.append)
        await settle(pilot)
        dialog.query_one("#cancel", Button).press()  # queued, as a key's press would be
        dialog.action_confirm()
        await settle(pilot)
        assert answers == [True]
        assert isinstance(app.screen, HelpScreen), "the screen under the dialog stays"
        dialog.dismiss(False)
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen) and answers == [True]


async def test_undoing_a_runbook_change_leaves_no_index_file_it_created(
    demo_root: Path,
    tmp_path: Path,
    sandbox: Sandbox,  # noqa: F811 (the fixture imported above)
) -> None:
    """Found by test_mashing_screens.py's list-tasks run (seed 20260620: marks on a runbook
    among others, then `+`); smallest keys: `5` (the runbooks), `+` on python-testing.md, `u`."""
    index_md = demo_root / ".ai/procedural-memory/.ai/index.md"
    assert not index_md.exists(), "the demo has no procedural index.md"
    before = snapshot(demo_root)
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        assert app.table.select_key(".ai/procedural-memory/.ai/python-testing.md")
        await pilot.press("plus")
        await settle(pilot)
        assert index_md.exists(), "the change wrote the index it patched"
        await pilot.press("u")
        await settle(pilot)
        assert not app.curator.can_undo
        assert not index_md.exists(), "the index file the change created went with its undo"
    assert_every_byte_accounted(before, demo_root, tmp_path / "expected", sandbox)

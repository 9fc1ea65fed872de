"""Seeded keys on the two start-up dialogs about a journal left in the tree.

While a change is interrupted (the recovery dialog) or its journal is refused (the refusal), no
change can be made: every key either asks for one, which is refused, or moves around. So the
model is stricter than the other screens': every file and folder of the tree, the journal and the
trash included, and of the folder beside it, is as it was, with nothing to undo. The recovery
dialog's run leaves out the keys that choose Finish or Roll back (`f`, `r`, and Enter or Space on
a focused button), which write by design; test_journal_recovery.py pins what each of those
writes. When the keys close a dialog (Later, Close), the next burst opens it again, as the
start-up does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.recovery_offer import offer_recovery
from samantha_tui.ui.screens.recover import RecoverScreen
from samantha_tui.ui.screens.refused_journal import RefusedJournalScreen

from ..conftest import TODAY
from ..crafted_journals import CASES, tree, world  # noqa: F401 (a fixture)
from ..interrupted_batch import batch, crash_after, everything, root, store_of  # noqa: F401 (a fixture)
from ..mashing import (
    Recorder,
    Run,
    Sandbox,
    WorkerGate,
    back_to_list,
    counting_quits,
    draw,
    mash_on,
    sandbox,  # noqa: F401 (a fixture)
    screen_pool,
)
from ..pilot import settle
from ..tiers import key_counts

KEYS = key_counts(burst=50, soak=250)
"""Keys per dialog in each tier (tests/tiers.py): two bursts in `make test`, ten in `make soak`."""
BATCH = 25
SEED = 20260622
CHOOSING = ("f", "r", "enter", "space")
"""The recovery dialog's keys that finish or roll back the change: they write, by design."""


async def reopen(pilot) -> None:
    offer_recovery(pilot.app)


async def mash_dialog(
    where: Path,
    dialog: type,
    leave_out: tuple[str, ...],
    keys: int,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Run, Recorder, WorkerGate, list[None]]:
    gate = WorkerGate()
    gate.install(monkeypatch)
    app = SamanthaApp(where, lambda: TODAY)
    quits = counting_quits(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, dialog)
        recorder = Recorder(app.curator)
        pool = screen_pool(app.screen)
        for key in leave_out:
            pool.pop(key, None)
        run = Run(draw(pool, SEED, keys), BATCH)

        def on_top(app: SamanthaApp) -> bool:
            return isinstance(app.screen, dialog)

        await mash_on(pilot, run, gate, recorder, on_top, reopen)
        assert app.is_running and app.return_code is None
        await back_to_list(pilot)
        assert not app.curator.can_undo, "a change was made while the journal waits"
    return run, recorder, gate, quits


@pytest.mark.parametrize("keys", KEYS)
async def test_seeded_keys_on_the_recovery_dialog_change_nothing(
    keys: int,
    root: Path,  # noqa: F811 (the fixture imported above)
    sandbox: Sandbox,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = store_of(root)
    crash_after(monkeypatch, store, batch(store), 3)
    untouched = everything(root)
    run, recorder, gate, quits = await mash_dialog(root, RecoverScreen, CHOOSING, keys, monkeypatch)
    with capsys.disabled():
        print(f"\nthe recovery dialog: {run.figures(recorder, gate, quits, sandbox)}")
    assert everything(root) == untouched
    assert recorder.applied == []
    sandbox.assert_untouched()


@pytest.mark.parametrize("keys", KEYS)
async def test_seeded_keys_on_the_refused_journal_change_nothing(
    keys: int,
    tree: Path,  # noqa: F811 (the fixture imported above)
    sandbox: Sandbox,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    CASES["rollback of an edit writes .git/config"][0](tree)
    untouched = world(tree)
    run, recorder, gate, quits = await mash_dialog(
        tree, RefusedJournalScreen, (), keys, monkeypatch
    )
    with capsys.disabled():
        print(f"\nthe refused journal: {run.figures(recorder, gate, quits, sandbox)}")
    assert world(tree) == untouched
    assert recorder.applied == []
    sandbox.assert_untouched()

"""The harness's timing is the seed's: the same keys give the same screens and changes every run.

Without the gate a change in the ordered queue, the scan or a search could finish in a worker
thread while a burst was being dispatched, at a moment the clock chose, so one run in several
ended elsewhere. Here the same 300 seeded keys run twice, each on a fresh copy of the demo, and
after every burst the screen stack and every change applied so far must be the same both times.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.demo import write_demo
from samantha_tui.ui.app import SamanthaApp

from ..conftest import TODAY
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
    undo_everything,
)
from ..pilot import settle
from ..tiers import key_counts
from .test_key_mashing import key_pool

KEYS = key_counts(burst=100, soak=300)
"""Keys in each tier (tests/tiers.py): a burst in `make test`, the long run in `make soak`."""
BATCH = 25
SEED = 20260621


async def one_run(root: Path, keys: int, monkeypatch: pytest.MonkeyPatch) -> Run:
    with monkeypatch.context() as patched:
        gate = WorkerGate()
        gate.install(patched)
        run = Run(draw(key_pool(), SEED, keys), BATCH)
        app = SamanthaApp(root, lambda: TODAY)
        counting_quits(app)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            recorder = Recorder(app.curator)
            await mash_on(pilot, run, gate, recorder, lambda app: len(app.screen_stack) == 1, None)
            await back_to_list(pilot)
            await undo_everything(pilot, recorder)
    return run


@pytest.mark.parametrize("keys", KEYS)
async def test_the_same_seed_gives_the_same_screens_and_changes_after_every_burst(
    keys: int,
    tmp_path: Path,
    sandbox: Sandbox,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = await one_run(write_demo(tmp_path / "first", TODAY), keys, monkeypatch)
    second = await one_run(write_demo(tmp_path / "second", TODAY), keys, monkeypatch)
    assert len(first.trace) == keys // BATCH
    for burst, (one, other) in enumerate(zip(first.trace, second.trace, strict=True)):
        assert one == other, f"burst {burst} ended differently:\nfirst  {one}\nsecond {other}"
    # A comparison worth making: the keys went to more than the list, and changed something.
    assert len({stack for stack, _ in first.trace}) > 1, first.trace
    assert first.trace[-1][1], "no change was applied"
    sandbox.assert_untouched()

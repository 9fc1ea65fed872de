"""A change shows on the list once its files are written; its index patch finishes after, and
the notice saying the index was updated comes with it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from samantha_tui.core.writing.curator import Curator
from samantha_tui.ui.app import SamanthaApp

from ..conftest import TODAY
from ..mashing import mash
from ..pilot import ALPHA, alpha_and_beta, settle
from ..waiting import until

HANG = 60.0
"""Seconds the held patch waits at most: only a hang gets that far."""


async def test_a_toggle_shows_before_its_index_patch_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = alpha_and_beta(tmp_path)
    patching, release = threading.Event(), threading.Event()
    real = Curator._patch

    def held(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        patching.set()
        release.wait(HANG)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Curator, "_patch", held)
    notices: list[str] = []
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(app, "notify", lambda message, **_: notices.append(str(message)))
        assert app.table.select_key(ALPHA)
        await mash(pilot, ["c"])  # as a terminal sends it: pilot.press would wait for the patch
        await until(pilot, patching.is_set)
        # The patch is held: the file is written and the list already shows the mark.
        await until(
            pilot, lambda: app.memory_tree is not None and app.memory_tree is app.curator.tree
        )
        memory = app.curator.get(ALPHA)
        assert memory is not None and memory.critical
        assert b"critical: true" in (root / ALPHA).read_bytes()
        shown = app.memory_tree
        assert shown is not None and next(m for m in shown.memories if m.path == ALPHA).critical
        assert not any("index updated" in n for n in notices), "the patch has not ended"
        release.set()
        await settle(pilot)
        assert any("marked critical" in n and "index updated" in n for n in notices), notices
        # And the whole change is one undo, as before.
        await pilot.press("u")
        await settle(pilot)
        assert b"critical: true" not in (root / ALPHA).read_bytes()

"""The app on a tree holding every odd class at once: a 100 MB memory, YAML alias bombs, deep
nesting, a body that is not UTF-8, and file names with a newline, a carriage return, ESC, the
byte 0xff and 235 bytes. It starts, previews and reads each one, deletes the 100 MB memory and
undoes that, and no file's bytes change but the ones it was asked to change."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.reader import ReaderScreen

from ..conftest import ST, TODAY, make_tree
from ..pilot import reindexed, settle
from ..unit.test_odd_classes_cli import HOSTILE, HUGE, MB, ODD_NAMES, PLAIN, memory_text, odd_rel


def every_file(root: Path) -> dict[str, str]:
    """Each file's sha256 (the 100 MB one read a piece at a time), outside the trash and journal."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith((".ai/.trash", ".ai/.journal", ".ai/.lock")):
            summed = hashlib.sha256()
            with path.open("rb") as handle:
                while piece := handle.read(MB):
                    summed.update(piece)
            found[rel] = summed.hexdigest()
    return found


@pytest.fixture
def odd_tree(tmp_path: Path) -> Path:
    root = make_tree(tmp_path / "cerebrum", {PLAIN: memory_text(date="2026-06-01"), **HOSTILE})
    with (root / HUGE).open("wb") as handle:
        handle.write(memory_text(date="2026-06-02", topics="[odd]", importance="high").encode())
        handle.truncate(100 * MB)
    folder = os.fsencode(root / odd_rel(b"x")).rsplit(b"/", 1)[0]
    for number, raw in enumerate(ODD_NAMES.values()):
        text = memory_text(date="2026-06-08", topics="[odd]", importance="high")
        with open(os.path.join(folder, raw), "wb") as handle:
            handle.write(text.replace("Body text.", f"Odd name {number}.").encode())
    return reindexed(root)


async def test_the_app_deletes_a_100_mb_memory_and_undo_puts_it_back(odd_tree: Path) -> None:
    """Its record never held its bytes (over the read limit), so it has no digest: the delete
    used to compare that empty digest with the file's, call the file changed since the plan,
    skip it and still say "moved to the trash"."""
    before = every_file(odd_tree)
    app = SamanthaApp(odd_tree, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.table.cursor = list(app.table.rows.keys).index(HUGE)
        await settle(pilot)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        said = [n.message for n in app._notifications]
        assert not (odd_tree / HUGE).exists(), said
        assert not any("skipped" in message for message in said), said
        await pilot.press("u")
        await settle(pilot)
        assert every_file(odd_tree) == before


@pytest.mark.soak
async def test_the_app_previews_and_reads_every_odd_class(odd_tree: Path) -> None:
    """A soak test: a preview and a reader for each of fifteen memories take about 15 s."""
    before = every_file(odd_tree)
    app = SamanthaApp(odd_tree, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        keys = list(app.table.rows.keys)
        hostile = {rel for rel in HOSTILE if rel.startswith(ST)}  # the runbook has its own tab
        wanted = {HUGE, *hostile, *(odd_rel(raw) for raw in ODD_NAMES.values())}
        assert wanted <= set(keys), sorted(wanted - set(keys))
        for row, key in enumerate(keys):
            app.table.cursor = row
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, ReaderScreen), (key, app.screen)
            await pilot.press("escape")
            await settle(pilot)
    assert every_file(odd_tree) == before, "reading wrote"

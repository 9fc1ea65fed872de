"""2,000 random keys on the demo tree: the app ends alive and no byte is lost or made up.

The model. Every key the app binds (its own, its widgets' and every screen's), letters, digits and
the usual navigation keys are drawn (seeded, weighted: see key_pool) and sent in batches, without
waiting for the app between keys. Whatever those keys change is a change the person asked
for, and every such change goes through the curator, which keeps it in the session's undo
history. So the intended end state after pressing `u` until nothing is left to undo is the tree
as it was, and the test asserts exactly that, file by file:
- every memory file and every other file of the tree is byte-identical to the snapshot taken
  before the first key, and no file appeared or went;
- except under `.ai/.trash/`, where deleting and undoing leave what the trash keeps;
- and except the index files, which each change regenerates: each must be byte-identical either to
  the snapshot (never regenerated) or to what `samantha-tui index` writes over the snapshot.
Nothing may be written outside the tree: no editor is started (`o`; there is no $EDITOR, and
starting a process fails the test), a bootstrap export (`x`) is recorded instead of written, the
current folder is an empty one checked at the end, and `q` is counted rather than quitting, since
ending the app is the one thing that key is meant to do.
"""

from __future__ import annotations

import asyncio
import random
import string
import unicodedata
from pathlib import Path

import pytest
from textual import events
from textual.binding import Binding
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.widgets import Button

from samantha_tui.cli import main
from samantha_tui.core.curator import Curator
from samantha_tui.core.indexes.plan import INDEX_JSON, INDEX_MD
from samantha_tui.core.trash import TRASH_DIR
from samantha_tui.core.tree_lock import LOCK_FILE
from samantha_tui.ui import editing
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.keys import APP_KEYS
from samantha_tui.ui.screens import bootstrap
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.bulk_form import BulkForm
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.export import ExportScreen
from samantha_tui.ui.screens.help import HelpPage, HelpScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.review import ReviewScreen
from samantha_tui.ui.screens.stats import StatsScreen
from samantha_tui.ui.screens.trash import TrashScreen
from samantha_tui.ui.widgets.memory_table import MemoryTable
from samantha_tui.ui.widgets.search_bar import SearchBar

from .conftest import TODAY
from .pilot import settle

KEYS = 2_000
BATCH = 25
"""Keys sent at once, before the test waits for the app to have taken them in."""
ANSWER_WITHIN = 60.0
"""Seconds; an app that takes longer to take in a batch of keys has hung."""
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
)
MORE_KEYS = ("enter", "escape", "tab", "up", "down", "left", "right", "space", "ctrl+k", "ctrl+p")


def key_pool() -> dict[str, int]:
    """Every key the app and its screens bind, letters, digits and the usual keys, each with a
    weight; in key order, so a seed always draws the same sequence.

    Drawn evenly, most keys land in a search box, a palette or a form field, and 2,000 of them
    made one change: the app's own keys weigh more, Esc (the way back to the list) most.
    """
    weights = dict.fromkeys([*string.ascii_letters, *string.digits, *MORE_KEYS], 1)
    for owner in BOUND:
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding)
            for key in binding.key.split(","):
                weights[key.strip()] = max(weights.get(key.strip(), 1), 2)
    for app_key in APP_KEYS:
        for key in app_key.keys.split(","):
            weights[key] = 4
    weights["escape"] = 8
    return dict(sorted(weights.items()))


def key_event(key: str) -> events.Key:
    """The event a terminal sends for `key`, built as Pilot.press builds it."""
    name = _character_to_key(key) if len(key) == 1 and not key.isalnum() else key
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(name, name)))
    except KeyError:
        char = name if len(name) == 1 else None
    return events.Key(name, char)


async def mash(pilot, keys: list[str]) -> None:
    """Send the keys as fast as a terminal would, then wait until the app has taken them in.

    Pilot.press waits for the process to go idle after every key: at least 40 ms a key, up to a
    second while a worker thread runs. Here the app only has to have dispatched them all: the
    screens and widgets they went to work through them while the next batch comes.
    """
    app = pilot.app
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app._driver.send_message(event)
    taken = asyncio.Event()
    app.call_later(taken.set)
    await asyncio.wait_for(taken.wait(), ANSWER_WITHIN)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root, by its path relative to root; the lock file aside (it holds only
    who is writing)."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
        and not path.is_symlink()
        and path.relative_to(root).as_posix() != LOCK_FILE
    }


def is_index(rel: str) -> bool:
    return rel.rsplit("/", 1)[-1] in (INDEX_JSON, INDEX_MD)


def regenerated(before: dict[str, bytes], where: Path) -> dict[str, bytes]:
    """The index files `samantha-tui index` writes over a copy of the tree as it was."""
    for rel, data in before.items():
        path = where / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    assert main(["index", "--tree", str(where)]) == 0
    return {rel: data for rel, data in snapshot(where).items() if is_index(rel)}


class Recorder:
    """What the curator applied (a redo makes a change again) and undid during the run, for the
    test's figures."""

    def __init__(self, curator: Curator) -> None:
        self.applied: list[str] = []
        self.undone: list[str] = []
        apply, undo, redo = curator.apply, curator.undo, curator.redo

        def recorded_apply(plan):
            outcome = apply(plan)
            self.applied.append(plan.name)
            return outcome

        def recorded_redo():
            outcome = redo()
            self.applied.append(outcome.message)
            return outcome

        def recorded_undo():
            outcome = undo()
            self.undone.append(outcome.message)
            return outcome

        curator.apply = recorded_apply  # type: ignore[method-assign]
        curator.undo = recorded_undo  # type: ignore[method-assign]
        curator.redo = recorded_redo  # type: ignore[method-assign]


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty current folder; an editor or a write outside the tree fails the test."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    monkeypatch.chdir(folder)

    def no_process(*args, **kwargs):
        raise AssertionError(f"the app started a process: {args}")

    monkeypatch.setattr(editing.subprocess, "run", no_process)
    return folder


async def test_2000_random_keys_leave_the_app_alive_and_every_byte_accounted_for(
    demo_root: Path,
    sandbox: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = snapshot(demo_root)
    exports: list[Path] = []
    monkeypatch.setattr(bootstrap, "save_export", lambda path, data, expected: exports.append(path))
    rng = random.Random(SEED)
    pool = key_pool()
    keys = rng.choices(list(pool), list(pool.values()), k=KEYS)
    app = SamanthaApp(demo_root, lambda: TODAY)
    quits: list[None] = []

    async def counted_quit() -> None:
        quits.append(None)

    app.action_quit = counted_quit  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        recorder = Recorder(app.curator)
        for start in range(0, KEYS, BATCH):
            await mash(pilot, keys[start : start + BATCH])
        await settle(pilot)
        assert app.return_code is None and app.screen_stack, "the app ended"

        # Back to the list: close every screen, discarding a form's input when it asks (a
        # screen whose input has focus takes two: one to leave the input, one to close).
        for _ in range(3 * len(app.screen_stack) + 5):
            if len(app.screen_stack) == 1:
                break
            # Only the form's "Discard your changes?" is confirmed; anything else is cancelled.
            discarding = isinstance(app.screen_stack[-2], (MemoryForm, BulkForm))
            key = "y" if isinstance(app.screen, ConfirmScreen) and discarding else "escape"
            await pilot.press(key)
            await settle(pilot)
        assert len(app.screen_stack) == 1
        # Leave the search box if the keys ended in it (there `u` is a letter typed): Esc clears
        # the search and goes back to the list.
        for _ in range(3):
            if app.focused is app.table:
                break
            await pilot.press("escape")
            await settle(pilot)
        assert app.focused is app.table, f"focus is on {app.focused!r}"
        # Then undo everything the keys did.
        for _ in range(len(recorder.applied) + 1):
            if not app.curator.can_undo:
                break
            await pilot.press("u")
            await settle(pilot)
        notices = [n.message for n in app._notifications]
        assert not app.curator.can_undo, f"an undo was refused; the last notices: {notices[-4:]}"
        assert app.return_code is None

    with capsys.disabled():
        print(
            f"\n{KEYS} keys: {len(recorder.applied)} changes applied, {len(recorder.undone)} "
            f"undone, {len(quits)} quits counted, {len(exports)} exports recorded"
        )
    after = snapshot(demo_root)
    kept = {rel for rel in before | after if not rel.startswith(f"{TRASH_DIR}/")}
    files = {rel for rel in kept if not is_index(rel)}
    assert {rel for rel in files if rel not in after} == set(), "files went"
    assert {rel for rel in files if rel not in before} == set(), "files appeared"
    changed = sorted(rel for rel in files if after[rel] != before[rel])
    assert changed == [], "files differ from the tree as it was"
    indexes = regenerated(before, tmp_path / "expected")
    for rel in sorted(kept - files):
        assert after.get(rel) in (before.get(rel), indexes.get(rel)), (
            f"{rel}: not old, not regenerated"
        )
    assert list(sandbox.iterdir()) == [], "nothing is written outside the tree"
    assert len(recorder.undone) == len(recorder.applied)


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

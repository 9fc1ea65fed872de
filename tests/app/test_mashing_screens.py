"""Seeded keys on each screen of the app, each run starting on its screen.

Each run opens its screen, draws its keys from that screen's pool (every key the screen and its
widgets bind weighs most, then the app's keys, then letters, digits and the usual keys: see
tests/mashing.py), and sends them in bursts with no worker running while a burst is dispatched.
When the keys close the screen, the next burst opens it again; what the keys open over it gets
the next burst. At the end every screen is closed, `u` undoes every change the keys made, and:
the app still runs, the tree is byte-identical to before (each index old or regenerated), nothing
was written outside it and no process started. The main list's first tab is test_key_mashing.py;
the bootstrap preview is test_bootstrap_mashing.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.screen import Screen

from samantha_tui.core.writing import edits
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.messages import Conflicted
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.bulk_form import BulkForm
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.drift import DriftScreen
from samantha_tui.ui.screens.export import ExportScreen
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.screens.main import MainScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.notices import NoticesScreen
from samantha_tui.ui.screens.reader import ReaderScreen
from samantha_tui.ui.screens.recover import RecoverScreen
from samantha_tui.ui.screens.refused_journal import RefusedJournalScreen
from samantha_tui.ui.screens.review import ReviewScreen
from samantha_tui.ui.screens.stats import StatsScreen
from samantha_tui.ui.screens.trash import TrashScreen
from samantha_tui.ui.sort_menu import SortMenu
from samantha_tui.ui.tabs import TABS

from ..conftest import ST, TODAY
from ..mashing import (
    Opener,
    Recorder,
    Run,
    Sandbox,
    WorkerGate,
    assert_every_byte_accounted,
    back_to_list,
    counting_quits,
    draw,
    mash_on,
    press,
    sandbox,  # noqa: F401 (a fixture)
    screen_pool,
    snapshot,
    stack_names,
    undo_everything,
)
from ..pilot import settle
from ..tiers import key_counts

KEYS = key_counts(burst=50, soak=250)
"""Keys per screen in each tier (tests/tiers.py): two bursts in `make test`, ten in `make soak`."""
BATCH = 25
SEED = 20260620
SIZE = (100, 30)
LOUD = f"{ST}/{TODAY.isoformat()}_loud_importance.md"
LOUD_TEXT = (
    f"---\ndate: {TODAY.isoformat()}\ntopics: [ci]\nimportance: Medium\n---\n\n# Loud\n\nBody.\n"
)
"""A memory whose problem has a fix to confirm (`Medium` written `medium`): the demo has none."""
FIX_UNDOS = 20
"""Changes taken back at most to find a fix to confirm again."""


def pressing(*keys: str) -> Opener:
    async def opener(pilot) -> None:
        await press(pilot, *keys)

    return opener


def on_clean_list(*keys: str) -> Opener:
    """`keys` pressed on the list with no search and no marks: marks the keys left make `e` open
    the bulk form, and a search they left may hide the memory the keys expect."""

    async def opener(pilot) -> None:
        app: SamanthaApp = pilot.app
        if app.search_bar.display:
            app.action_clear_search()
        app.table.clear_marks()
        await settle(pilot)
        await pressing(*keys)(pilot)

    return opener


async def open_drift(pilot) -> None:
    """`i` opens the drift panel while the indexes differ from the memory files. When the keys
    brought every index in step (`r`), `u` takes changes back until they differ again, as the
    test does with all of them at the end."""
    app: SamanthaApp = pilot.app
    for _ in range(FIX_UNDOS):
        await pressing("i")(pilot)
        if isinstance(app.screen, DriftScreen):
            return
        assert app.curator.can_undo, "the indexes match and no change is left to undo"
        await pressing("u")(pilot)
    raise AssertionError(f"no drift after {FIX_UNDOS} undos")


async def open_fix_plan(pilot) -> None:
    """The problems tab, then `f` on the first problem whose fix is a plan to confirm (on the
    others `f` says why there is none, or opens the form at the field), LOUD's problems tried
    first: the tree was given LOUD for its fix, and each other problem tried before it opens and
    closes a form. When the keys wrote every such fix, `u` takes the last change back, as the
    test does with all of them at the end."""
    app: SamanthaApp = pilot.app
    for _ in range(FIX_UNDOS):
        await pressing("7")(pilot)
        for key in sorted(app.table._keys, key=lambda key: not key.startswith(f"{LOUD}#")):
            if app.current_tab != "problems":
                await pressing("7")(pilot)  # closing a form opened by `f` showed its memory
            assert app.table.select_key(key)
            await pressing("f")(pilot)
            if isinstance(app.screen, ConfirmScreen):
                return
            await back_to_list(pilot)
        assert app.curator.can_undo, "no problem of the tree has a fix to confirm"
        await pressing("u")(pilot)
    raise AssertionError(f"no fix to confirm after {FIX_UNDOS} undos")


async def open_conflict(pilot) -> None:
    """The dialog a change refused by a file changed on disk brings up; its plan (marking the
    selected memory critical) is the app's own, so "overwrite" is a change undone like any."""
    app: SamanthaApp = pilot.app
    memory = app.selected_memory()
    assert memory is not None
    app.post_message(Conflicted(edits.toggle_critical(memory), memory.path))
    await settle(pilot)


def top_is(*types: type) -> Callable[[SamanthaApp], bool]:
    return lambda app: isinstance(app.screen, types)


def palette_on_top(named: str | None) -> Callable[[SamanthaApp], bool]:
    return lambda app: isinstance(app.screen, CommandPalette) and app.screen.id == named


def list_at(tab: str) -> Callable[[SamanthaApp], bool]:
    return lambda app: len(app.screen_stack) == 1 and app.current_tab == tab


@dataclass(frozen=True)
class Case:
    name: str
    opener: Opener
    is_top: Callable[[SamanthaApp], bool]
    extra: tuple[tuple[str, str], ...] = ()
    """Files added to the demo tree first (path relative to the root, text)."""


def tab_case(number: int, tab: str) -> Case:
    return Case(f"list-{tab}", pressing(str(number)), list_at(tab))


CASES = [
    # The first tab is test_key_mashing.py's.
    *(tab_case(number, spec.id) for number, spec in enumerate(TABS, 1) if number > 1),
    Case("review", pressing("p"), top_is(ReviewScreen)),
    Case("trash", pressing("d", "y", "t"), top_is(TrashScreen)),
    Case("stats", pressing("s"), top_is(StatsScreen)),
    Case("help", pressing("question_mark"), top_is(HelpScreen)),
    Case("form-new", pressing("n"), top_is(MemoryForm)),
    Case("form-edit", on_clean_list("1", "e"), top_is(MemoryForm)),
    Case(
        "bulk-form",
        on_clean_list("1", "home", "space", "down", "space", "e"),
        top_is(BulkForm),
    ),
    Case("confirm-delete", pressing("1", "d"), top_is(ConfirmScreen)),
    Case("fix-plan", open_fix_plan, top_is(ConfirmScreen), ((LOUD, LOUD_TEXT),)),
    Case("conflict", open_conflict, top_is(ConflictScreen)),
    Case("export", pressing("b", "x"), top_is(ExportScreen)),
    Case("jump-palette", pressing("ctrl+k"), palette_on_top(None)),
    Case(
        "command-palette",
        pressing("ctrl+p"),
        palette_on_top("--command-palette"),
    ),
    Case("reader", pressing("1", "enter"), top_is(ReaderScreen)),
    Case("notices", pressing("c", "N"), top_is(NoticesScreen)),
    Case("sort-menu", pressing("1", "S"), top_is(SortMenu)),  # Problems has no sort: a tab that has
    Case("drift", open_drift, top_is(DriftScreen)),
]


def test_every_screen_of_the_app_has_a_run() -> None:
    """A screen added to ui/screens/ without a mashing run fails here."""
    import samantha_tui.ui.screens as screens_package

    covered = {
        ReviewScreen,
        TrashScreen,
        StatsScreen,
        HelpScreen,
        MemoryForm,
        BulkForm,
        ConfirmScreen,
        ConflictScreen,
        ExportScreen,
        DriftScreen,
        ReaderScreen,
        NoticesScreen,
        MainScreen,  # the list-* runs
        BootstrapScreen,  # test_bootstrap_mashing.py
        RecoverScreen,  # test_mashing_journal.py
        RefusedJournalScreen,  # test_mashing_journal.py
    }
    folder = Path(screens_package.__file__).parent
    modules = sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")
    without_run = []
    for module in modules:
        loaded = __import__(f"samantha_tui.ui.screens.{module}", fromlist=["*"])
        for value in vars(loaded).values():
            if (
                isinstance(value, type)
                and value.__module__ == loaded.__name__
                and issubclass(value, Screen)
                and not value.__name__.startswith("_")
                and not any(issubclass(value, done) for done in covered)
                and value.__name__ not in NOT_ON_THEIR_OWN
            ):
                without_run.append(value.__name__)
    assert without_run == []


NOT_ON_THEIR_OWN = {
    # Bases mixed into the screens above, not screens a person opens.
    "LiveScreen",
}


@pytest.mark.parametrize("keys", KEYS)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_seeded_keys_on_each_screen_crash_nothing_and_change_only_what_they_ask(
    case: Case,
    keys: int,
    demo_root: Path,
    sandbox: Sandbox,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.monotonic()
    for rel, text in case.extra:
        (demo_root / rel).write_text(text, encoding="utf-8")
    before = snapshot(demo_root)
    gate = WorkerGate()
    gate.install(monkeypatch)
    app = SamanthaApp(demo_root, lambda: TODAY)
    quits = counting_quits(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        recorder = Recorder(app.curator)
        await case.opener(pilot)
        await settle(pilot)
        assert case.is_top(app), f"{case.name} did not open: {stack_names(app)}"
        # On the list, as in test_key_mashing.py: the app's keys weigh most, Esc more.
        on_list = case.name.startswith("list-")
        pool = (
            screen_pool(app.screen, app=4, screen=2, escape=8)
            if on_list
            else screen_pool(app.screen)
        )
        run = Run(draw(pool, SEED, keys), BATCH)
        await mash_on(pilot, run, gate, recorder, case.is_top, case.opener)
        assert app.is_running and app.return_code is None
        await back_to_list(pilot)
        await undo_everything(pilot, recorder)

    took = time.monotonic() - started
    with capsys.disabled():
        print(f"\n{case.name} ({took:.0f} s): {run.figures(recorder, gate, quits, sandbox)}")
        print(f"changes and undos in order: {recorder.events}")
    assert_every_byte_accounted(before, demo_root, tmp_path / "expected", sandbox, recorder.emptied)
    assert len(recorder.undone) + recorder.dropped == len(recorder.applied)
    assert run.on_screen == -(-keys // BATCH), "every burst began on the screen"

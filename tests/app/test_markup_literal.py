"""Markup in titles, topics, project names, file names and bodies shows literally everywhere.

A tree whose every piece of user text is `[bold]x[/bold] [/] [@click=app.quit]q[/] [red \\[ :smile:`
(or, in file and folder names, which cannot hold `/`, the same without the closing tags) is opened
in the real app and walked through every place that shows it: each tab's list, the preview, the
search bar, the form, notices, the delete confirmation, the conflict dialog, both palettes and the
bootstrap, review, trash, stats and help screens. What is rendered on screen must hold the text as
typed — rendered as markup, `[bold]` would vanish, `[/]` would raise, `[@click=app.quit]` would
make `q` a link that quits — and clicking on it must leave the app running.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Input, Select, Tabs

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.review import ReviewScreen
from samantha_tui.ui.screens.stats import StatsScreen
from samantha_tui.ui.screens.trash import TrashScreen

from ..conftest import LT, ST, TASKS, TODAY, make_tree
from ..pilot import settle

MARKUP = "[bold]x[/bold] [/] [@click=app.quit]q[/] [red \\[ :smile:"
NAME = "[bold]x [@click=app.quit]q [red \\[ :smile:"
"""The same, for file and folder names (which cannot hold the `/` of a closing tag)."""
BODY = MARKUP.replace("\\[", "[")
"""The body as Markdown shows it: `\\[` is Markdown's escape for `[` (CommonMark), not markup."""
TOPICS = ("[bold]x[/bold]", "[/]", "[@click=app.quit]q[/]", "[red", "\\[", ":smile:")
CLICKABLE = "[@click=app.quit]q"
WE = ".ai/work-experience/.ai"
PROC = ".ai/procedural-memory/.ai"

RECENT = f"{ST}/2026-06-10_{NAME}.md"
OLD = f"{ST}/2026-04-01_old {NAME}.md"
BAD = f"{ST}/2026-06-11_bad {NAME}.md"
CRITICAL = f"{LT}/2026-01-10_{NAME}.md"
TASK = f"{TASKS}/{NAME}/status.md"
DONE = f"{TASKS}/done {NAME}/status.md"
FINISHED = f"{WE}/we {NAME}/status.md"
RUNBOOK = f"{PROC}/{NAME}.md"
UPDATE = f"{TASKS}/pending-updates/20260614_171502_{NAME}.json"
SIZE = (200, 50)
"""Wide enough that no title or path is cut short; a dialog's lines wrap, which `shown` allows."""


def quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def memory(title: str, date: str = "2026-06-10", extra: str = "") -> str:
    topics = ", ".join(quoted(topic) for topic in TOPICS)
    return (
        f"---\ndate: {date}\ntopics: [{topics}]\nproject: {quoted(NAME)}\n{extra}---\n\n"
        f"# {title}\n\n{MARKUP}\n\nline two {MARKUP}\n"
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    update = {
        "session_id": "20260614_165930",
        "session_date": "2026-06-14",
        "project_name": NAME,
        "confidence": 0.5,
        "proposed_changes": {"status": MARKUP, "recent_progress": MARKUP},
        "reasoning": f"because {MARKUP}",
        "evidence": [MARKUP],
    }
    return make_tree(
        tmp_path / f"root {NAME}",
        {
            RECENT: memory(f"st {MARKUP}", extra="importance: medium\n"),
            OLD: memory(f"old {MARKUP}", "2026-04-01", "importance: low\n"),
            BAD: memory(f"bad {MARKUP}", extra=f"importance: {quoted(MARKUP)}\n"),
            CRITICAL: memory(f"lt {MARKUP}", "2026-01-10", "critical: true\nimportance: high\n"),
            TASK: memory(f"task {MARKUP}", extra="status: active\n"),
            DONE: memory(f"done {MARKUP}", extra="status: completed\n"),
            FINISHED: memory(f"we {MARKUP}", extra="status: completed\ncompleted: 2026-05-01\n"),
            RUNBOOK: memory(f"proc {MARKUP}", extra=f"domain: {quoted(NAME)}\ntype: runbook\n"),
            UPDATE: json.dumps(update, indent=2),
        },
    )


# --- reading the screen --------------------------------------------------------------------------


def _squeezed(text: str) -> str:
    return "".join(text.split())


def shown(app: SamanthaApp) -> list[str]:
    """The text each visible widget of the top screen paints, whitespace removed.

    Read back from the cells the compositor renders (so it is what a person sees), per widget so
    that panes side by side do not interleave; without whitespace so a line that wraps still
    matches.
    """
    compositor = app.screen._compositor
    strips = compositor.render_strips()
    texts = []
    for widget, (_region, clip) in compositor.visible_widgets.items():
        area = widget.content_region.intersection(clip)  # inside borders, which would split lines
        lines = [strips[y].crop(area.x, area.right).text for y in range(area.y, area.bottom)]
        texts.append(_squeezed("".join(lines)))
    return texts


def assert_shows(app: SamanthaApp, *needles: str) -> None:
    texts = shown(app)
    for needle in needles:
        assert any(_squeezed(needle) in text for text in texts), (
            f"{needle!r} is not on screen ({type(app.screen).__name__})"
        )


async def click_on(pilot, text: str = CLICKABLE) -> None:
    """Click the last character of `text` where the screen shows it; the app must not react."""
    app = pilot.app
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    found = [(y, line.index(text)) for y, line in enumerate(lines) if text in line]
    assert found, f"{text!r} is not on one line of the screen"
    y, x = found[0]
    await pilot.click(offset=(cell_len(lines[y][: x + len(text) - 1]), y))
    await settle(pilot)
    assert_alive(app)


def assert_alive(app: SamanthaApp) -> None:
    assert app.return_code is None and app.screen_stack, "the app quit"


def start(root: Path) -> SamanthaApp:
    return SamanthaApp(root, lambda: TODAY)


async def select(pilot, path: str) -> None:
    assert pilot.app.table.select_key(path), path
    await settle(pilot)


# --- the main screen -----------------------------------------------------------------------------

TABS = {
    "1": (f"st {MARKUP}", f"old {MARKUP}"),
    "2": (f"lt {MARKUP}",),
    "3": (f"task {MARKUP}", f"done {MARKUP}"),
    "4": (f"we {MARKUP}",),
    "5": (f"proc {MARKUP}",),
    "6": (f"lt {MARKUP}",),
}


async def test_every_list_and_the_preview_show_markup_as_typed(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert_shows(app, str(root))  # the status line names the root folder
        for key, titles in TABS.items():
            await pilot.press(key)
            await settle(pilot)
            assert_shows(app, *titles)
            # The preview of the selected memory: title, path, fields and body.
            memory = app.selected_memory()
            assert memory is not None
            assert_shows(app, memory.title, memory.path, ", ".join(TOPICS), NAME, BODY)
        await click_on(pilot)
        await pilot.press("7")  # problems: the file's name and the message quoting the value
        await settle(pilot)
        assert_shows(app, BAD.rsplit("/", 1)[1], "expected low, medium or high")
        assert any("[bold]x[/bold][/][@click=app.quit]q[/][red" in t for t in shown(app))
        await click_on(pilot)


async def test_the_search_bar_highlights_matches_and_quotes_a_bad_query(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"smile")
        await settle(pilot)
        assert app.table.selected_key is not None
        assert_shows(app, f"st {MARKUP}", f"old {MARKUP}", "3 of 3")
        await click_on(pilot)
        app.search_bar.input.value = '"[/] [bold]'
        await settle(pilot)
        assert_shows(app, '"[/] [bold]', "unbalanced quote in '\"[/] [bold]'")
        assert_alive(app)


async def test_the_form_shows_title_path_topics_and_project_as_typed(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(pilot, RECENT)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemoryForm)
        assert form.query_one("#field-project", Select).value == NAME
        assert_shows(app, f"st {MARKUP}", RECENT, ", ".join(TOPICS), NAME)
        await click_on(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, MemoryForm)


async def test_notices_name_the_memory_as_typed(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await select(pilot, RECENT)
        await pilot.press("c")
        await settle(pilot)
        assert b"critical: true\n" in (root / RECENT).read_bytes()
        assert_shows(app, f"{RECENT.rsplit('/', 1)[1]}: marked critical")
        app.clear_notifications()
        await select(pilot, BAD)
        await pilot.press("plus")  # refused: the notice quotes the importance it cannot step
        await settle(pilot)
        assert_shows(app, "Nothing was written", f"{BAD} has importance '{MARKUP}'")
        app.clear_notifications()
        await pilot.press("i")  # the drift notice lists the memory paths missing from the indexes
        await settle(pilot)
        assert_shows(app, "Index drift", CRITICAL.rsplit("/", 1)[1])
        await click_on(pilot)


async def test_the_delete_confirmation_and_the_trash_name_the_file_as_typed(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(pilot, RECENT)
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert_shows(app, f"short-term/{RECENT.rsplit('/', 1)[1]}")
        await click_on(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert not (root / RECENT).exists()
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, TrashScreen)
        assert_shows(app, RECENT.rsplit("/", 1)[1], f"st {MARKUP}", BODY)
        await click_on(pilot)


async def test_the_conflict_dialog_and_its_notice_name_the_file_as_typed(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await select(pilot, RECENT)
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#field-reference_count", Input).value = "3"
        path = root / RECENT
        path.write_bytes(path.read_bytes() + b"\nAdded by another program.\n")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        name = RECENT.rsplit("/", 1)[1]
        assert_shows(app, f"Changed on disk: {RECENT}", f"Your change: {name}: fields edited")
        await click_on(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert_shows(app, f"{RECENT} reloaded; your change was dropped")
        assert b"Added by another program." in path.read_bytes()


async def test_the_jump_and_command_palettes_show_titles_and_queries_as_typed(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+k")
        await settle(pilot)
        assert_shows(app, f"lt {MARKUP}", f"Long-term · critical · {CRITICAL}")
        await pilot.press(*"old")
        await settle(pilot)  # the palette gathers hits in batches, in a worker
        assert_shows(app, f"old {MARKUP}", OLD)
        await click_on(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+p", *"[/] [@click=app.quit]q")
        await settle(pilot)
        assert_shows(app, "[/] [@click=app.quit]q")
        await click_on(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert_alive(app)


# --- the screens over the list -------------------------------------------------------------------


async def test_bootstrap_review_stats_and_help_show_markup_as_typed(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BootstrapScreen)
        screen.query_one("#bootstrap-project", Select).value = NAME
        await settle(pilot)  # the plan is asked for after a debounce, a short timer
        assert_shows(app, f"lt {MARKUP}", f"project {NAME}", BODY)
        # The plan's Title column shares the width with Why and may cut a long title: its
        # opening, markup and all, is what must show as typed.
        assert_shows(app, f"task {MARKUP}"[:40])
        # The first place the markup shows is the project picker, which names the project the
        # plan takes: the click opens it, and the first Esc closes it, the second the screen.
        await click_on(pilot)
        for _ in range(2):
            if isinstance(app.screen, BootstrapScreen):
                await pilot.press("escape")
                await settle(pilot)

        await pilot.press("p")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert_shows(app, f"old {MARKUP}", BODY)
        await click_on(pilot)
        for section, needles in (
            ("complete", (f"done {NAME}", f"done {MARKUP}")),
            ("updates", (NAME, f"because {MARKUP}")),
        ):
            review.query_one("#review-tabs", Tabs).active = f"review-tab-{section}"
            await settle(pilot)
            assert_shows(app, *needles)
            await click_on(pilot)
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        assert_shows(app, *TOPICS, NAME.rsplit(" ", 1)[0])  # the label is cut to fit
        await click_on(pilot)
        await pilot.press("escape", "question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert_shows(app, "Keys", "Edit fields", "Bootstrap preview")
        await pilot.press("escape")
        await settle(pilot)
        assert_alive(app)

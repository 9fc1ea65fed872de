"""The notices log (`N`): every notice of the session once, newest first, plain text, at most
LOG_LIMIT kept; a coalesced repeat counts in its entry."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

from rich.console import Console
from textual.notifications import Notification
from textual.widgets import Static

from samantha_tui.ui import keys, notices
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.screens.notices import EMPTY, NoticesScreen

from ..conftest import TODAY
from ..pilot import settle

SIZE = (120, 36)


def note(message: str, title: str = "", severity: str = "information") -> Notification:
    return Notification(message, title, severity, 5, markup=False)  # type: ignore[arg-type]


def test_the_log_keeps_the_newest_first_and_at_most_its_limit() -> None:
    ticks = iter(range(10))
    log = notices.NoticeLog(lambda: dt.datetime(2026, 6, 15, 9, 0, next(ticks)), limit=3)
    for number in range(4):
        log.add(note(f"notice {number}"))
    entries = log.newest_first()
    assert [e.message for e in entries] == ["notice 3", "notice 2", "notice 1"]
    assert entries[0].at == dt.datetime(2026, 6, 15, 9, 0, 3)
    assert len(log) == 3
    assert notices.LOG_LIMIT == 500


def test_a_repeat_updates_its_entry_and_brings_it_first() -> None:
    log = notices.NoticeLog()
    first = log.add(note("3 memories marked"))
    log.add(note("other"))
    again = log.repeat(first, note("5 memories marked"), 2)
    assert again is first
    assert [(e.message, e.count) for e in log.newest_first()] == [
        ("5 memories marked", 2),
        ("other", 1),
    ]


def plain(screen: NoticesScreen) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    for static in screen.query(Static):
        console.print(static.content)
    return console.export_text()


async def test_n_lists_every_notice_once_and_a_repeat_counts(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = len(app.notices.log)
        for _ in range(4):
            app.notify("marked critical", kind="toggle")
        app.notify("it broke: [bold]x[/].md", title="Nothing was written", severity="error")
        await pilot.pause()
        entries = app.notices.log.newest_first()
        assert len(app.notices.log) == before + 2
        assert (entries[0].title, entries[0].severity) == ("Nothing was written", "error")
        assert entries[0].message == "it broke: [bold]x[/].md"
        assert (entries[1].message, entries[1].count) == ("marked critical", 4)

        await pilot.press("N")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NoticesScreen)
        text = plain(screen)
        assert "it broke: [bold]x[/].md" in text  # literal, never markup
        assert "error" in text and "(×4)" in text
        assert text.index("it broke") < text.index("marked critical")  # newest first

        # Two notices under one title that say different things are both kept.
        app.notify("theme 'x' in config.toml is not a theme", title="Settings")
        app.notify("config.toml: no action has the id nope", title="Settings")
        await pilot.pause()
        said = [e.message for e in app.notices.log.newest_first()[:2]]
        assert said == [
            "config.toml: no action has the id nope",
            "theme 'x' in config.toml is not a theme",
        ]

        app.notify("while open", kind="later")
        await pilot.pause()
        assert "while open" in plain(screen)

        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.page.title == "Keys · Notices"
        assert app.screen.page.purpose == NoticesScreen.HELP_PURPOSE
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, NoticesScreen)


async def test_an_empty_log_says_so(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.notices.log = notices.NoticeLog()
        app.push_screen(NoticesScreen(app.notices.log))
        await pilot.pause()
        assert EMPTY in plain(app.screen)


def test_the_key_is_an_app_key_with_its_palette_name_and_aliases() -> None:
    (key,) = [k for k in keys.APP_KEYS if k.id == "view.notices"]
    assert (key.keys, key.palette) == ("N", "view: notices")
    assert {"log", "messages", "history"} <= set(key.aliases)

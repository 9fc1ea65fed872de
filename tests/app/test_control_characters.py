"""Control characters in a tree never reach the terminal from the app: its screens, dialogs,
notices and form show them as escapes (`\\x1b`).

The tree's titles, topics, project names, bodies and file names hold an OSC 0 title change, an
OSC 52 clipboard write, a clear screen, BEL, C1 CSI (U+009B), DEL and a right-to-left override.
On screen, the text each widget paints is read back from the compositor's strips (what would be
written to the terminal, after the app's line filters), and must hold none of them.
"""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList
from textual.widgets import Input, Tabs

from samantha_tui.core.basics.visible import visible
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.review import ReviewScreen
from samantha_tui.ui.screens.stats import StatsScreen
from samantha_tui.ui.screens.trash import TrashScreen

from ..conftest import TODAY
from ..control_characters import EVIL, NAME, RECENT, TITLE, assert_clean, root
from ..pilot import settle

__all__ = ["root"]  # the fixture, from control_characters.py

SIZE = (200, 50)


# --- the app -------------------------------------------------------------------------------------


def painted(app: SamanthaApp) -> str:
    """Every segment of every strip the top screen paints (after the app's line filters)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def painted_in(app: SamanthaApp, selector: str) -> str:
    """What the top screen paints inside one widget's region, line by line: text the widget
    wraps reads on as it does on screen, without the panes beside it."""
    region = app.screen.query_one(selector).region
    strips = app.screen._compositor.render_strips()[region.y : region.bottom]
    return "\n".join(strip.crop(region.x, region.right).text for strip in strips)


def assert_screen_clean(app: SamanthaApp) -> None:
    assert_clean(painted(app))
    assert app.title == "samantha-tui"
    assert_clean(app.sub_title)
    assert_clean(app.screen.title or "")
    assert_clean(app.screen.sub_title or "")


def squeezed(text: str) -> str:
    return "".join(text.split())


def assert_shows(app: SamanthaApp, *needles: str) -> None:
    screen = squeezed(painted(app))
    for needle in needles:
        assert squeezed(needle) in screen, f"{needle!r} not on {type(app.screen).__name__}"


def start(root: Path) -> SamanthaApp:
    return SamanthaApp(root, lambda: TODAY)


async def test_every_tab_and_the_preview_show_escapes(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key in "1234567":
            await pilot.press(key)
            await settle(pilot)
            assert_screen_clean(app)
        await pilot.press("1")
        await settle(pilot)
        assert app.table.select_key(RECENT)
        await settle(pilot)
        assert_shows(app, visible(TITLE), visible(f"t{EVIL}"))
        # The body wraps in its pane: read there, it runs on from line to line.
        assert squeezed(visible(f"body {EVIL}")) in squeezed(painted_in(app, "#preview-body"))
        # The list row too, BEL included (a rich Text made from the raw title would drop it).
        row = app.table.render_line(1 + app.table.cursor).text
        assert visible("st \x1b]0;pwned\x07") in row
        assert_screen_clean(app)


async def test_the_form_holds_a_field_with_control_characters_as_it_was(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert app.table.select_key(RECENT)
        await settle(pilot)
        before = (root / RECENT).read_bytes()
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemoryForm)
        assert_screen_clean(app)
        topics = form.query_one("#field-topics", Input)
        assert topics.disabled and topics.value == visible(f"t{EVIL}") + ", ci"
        assert form.raw()["topics"] == f"t{EVIL}, ci"
        assert_shows(app, "holds control characters")
        form.query_one("#field-reference_count", Input).value = "3"
        await pilot.press("ctrl+s")
        await settle(pilot)
        after = (root / RECENT).read_bytes()
        assert after != before and b"reference_count: 3" in after
        assert (
            after.split(b"topics:")[1].split(b"\n")[0]
            == before.split(b"topics:")[1].split(b"\n")[0]
        )
        assert_screen_clean(app)


async def test_notices_dialogs_and_screens_hold_no_control_character(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert app.table.select_key(RECENT)
        await settle(pilot)
        await pilot.press("c")  # a notice naming the file
        await settle(pilot)
        assert_shows(app, visible(RECENT.rsplit("/", 1)[1]))
        assert_screen_clean(app)
        app.clear_notifications()
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert_shows(app, visible(NAME))
        assert_screen_clean(app)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, TrashScreen)
        assert_shows(app, visible(NAME))
        assert_screen_clean(app)
        await pilot.press("escape", "b")
        await settle(pilot)
        assert isinstance(app.screen, BootstrapScreen)
        assert_screen_clean(app)
        await pilot.press("escape", "p")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert_screen_clean(app)
        for section in ("complete", "promote", "escalate"):
            review.query_one("#review-tabs", Tabs).active = f"review-tab-{section}"
            await settle(pilot)
            assert_screen_clean(app)
        await pilot.press("escape", "s")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        assert_shows(app, visible(f"t{EVIL}")[:10])
        assert_screen_clean(app)
        await pilot.press("escape", "ctrl+k")
        await settle(pilot)
        await pilot.press(*"lt")
        await settle(pilot)  # the palette gathers hits in a worker
        assert app.screen.query_one(CommandList).option_count  # its hits are listed
        assert_screen_clean(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.return_code is None

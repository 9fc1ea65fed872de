"""The app on small terminals and under rapid resizes: it lays out, paints and stays usable.

Each size is painted for real (every visible widget renders its lines), every screen is opened
on it, and afterwards a key must still move the list's cursor.
"""

from __future__ import annotations

import random
from pathlib import Path

from textual.events import Resize
from textual.geometry import Size

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.help import HelpScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.review import ReviewScreen
from samantha_tui.ui.screens.stats import StatsScreen
from samantha_tui.ui.screens.trash import TrashScreen

from ..conftest import TODAY
from ..pilot import settle

SMALLEST = (40, 12)
LARGEST = (200, 60)
SCREENS = (
    ("e", MemoryForm),
    ("b", BootstrapScreen),
    ("p", ReviewScreen),
    ("t", TrashScreen),
    ("s", StatsScreen),
    ("question_mark", HelpScreen),
)
RESIZES = 20
"""In all, spread over the screens open while they come."""


def paint(app: SamanthaApp) -> list[str]:
    """Render the whole screen as a terminal of this size would show it; its lines of text."""
    strips = app.screen._compositor.render_strips()
    assert len(strips) == app.size.height
    return [strip.text for strip in strips]


async def assert_list_usable(pilot) -> None:
    """Back on the list, a key moves the cursor (down, or up from the last row)."""
    app = pilot.app
    assert app.return_code is None and len(app.screen_stack) == 1
    app.table.focus()
    before = app.table.cursor
    key = "k" if before == len(app.table.rows) - 1 else "j"
    await pilot.press(key)
    await settle(pilot)
    assert app.table.cursor == before + (1 if key == "j" else -1)
    assert app.preview.shown is app.selected_memory(), "the preview follows the cursor"


async def close(pilot) -> None:
    # The bootstrap screen takes a first Esc to leave a field; a form with no change just closes.
    while len(pilot.app.screen_stack) > 1:
        await pilot.press("escape")
        await settle(pilot)


async def test_40x12_50x15_and_80x24_lay_out_every_list_and_screen(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=SMALLEST) as pilot:
        await settle(pilot)
        for tab in "3671":  # each kind of list: projects, critical, problems, dated notes
            await pilot.press(tab)
            await settle(pilot)
            assert all(len(line) == SMALLEST[0] for line in paint(app))
        for key, screen_class in SCREENS:
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, screen_class)
            paint(app)
            await close(pilot)
        await assert_list_usable(pilot)
        # A little larger: the two screens with the most panes.
        for size in ((50, 15), (80, 24)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert app.size == Size(*size)
            paint(app)
            for key, screen_class in SCREENS[1:3]:
                await pilot.press(key)
                await settle(pilot)
                assert isinstance(app.screen, screen_class)
                paint(app)
                await close(pilot)
            await assert_list_usable(pilot)


async def resize_rapidly(pilot, sizes: list[tuple[int, int]]) -> None:
    """Each size posted without waiting for the last one's layout, as a terminal being dragged
    sends them; then the smallest, waited for."""
    app = pilot.app
    for number, (width, height) in enumerate(sizes):
        size = Size(width, height)
        app._driver._size = size  # the headless driver's terminal, as pilot.resize_terminal does
        app.post_message(Resize(size, size))
        if number % 3 == 2:
            await pilot.pause()
    await pilot.resize_terminal(*SMALLEST)
    await settle(pilot)


async def test_rapid_resizes_with_a_screen_open_leave_the_app_usable(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        rng = random.Random(7)
        sizes = [SMALLEST, LARGEST] + [
            (rng.randint(SMALLEST[0], LARGEST[0]), rng.randint(SMALLEST[1], LARGEST[1]))
            for _ in range(RESIZES - 2)
        ]
        for number, (key, screen_class) in enumerate(SCREENS[:3]):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, screen_class)
            await resize_rapidly(pilot, sizes[number::3])
            assert isinstance(app.screen, screen_class)
            assert app.size == Size(*SMALLEST)
            paint(app)
            await close(pilot)
        await pilot.resize_terminal(*LARGEST)
        await settle(pilot)
        paint(app)
        await assert_list_usable(pilot)

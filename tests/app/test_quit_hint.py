"""ctrl+c says which key quits, as the person should read it: no markup shown as text."""

from __future__ import annotations

from pathlib import Path

from textual.binding import ActiveBinding, Binding
from textual.content import Content
from textual.widgets._toast import Toast

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.quit_hint import quit_hint, quit_key
from samantha_tui.ui.screens.bootstrap import BootstrapScreen

from ..conftest import TODAY
from ..pilot import settle


def shown_toasts(app: SamanthaApp) -> list[Content]:
    """What every notice on screen paints: its title and message."""
    return [toast.render() for toast in app.screen.query(Toast)]


async def test_ctrl_c_shows_the_quit_key_in_bold_and_no_markup(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert app.return_code is None, "ctrl+c does not quit"
        [painted] = shown_toasts(app)
        assert painted.plain == "Do you want to quit?\nPress ctrl+q to quit the app"
        start = painted.plain.index("ctrl+q")
        assert any(
            span.start == start and span.end == start + len("ctrl+q") and "bold" in str(span.style)
            for span in painted.spans
        ), painted.spans


async def test_ctrl_c_on_a_screen_names_the_key_that_quits_from_there(demo_root: Path) -> None:
    """On the bootstrap preview `q` is an app key too, but only ctrl+q quits whatever has focus."""
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot)
        await app.push_screen(BootstrapScreen())
        await settle(pilot)
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert [toast.plain for toast in shown_toasts(app)] == [
            "Do you want to quit?\nPress ctrl+q to quit the app"
        ]


def active(*bindings: Binding) -> dict[str, ActiveBinding]:
    return {b.key: ActiveBinding(None, b, True) for b in bindings}  # type: ignore[arg-type]


def test_the_key_that_works_over_any_focus_is_named_first() -> None:
    plain_q = Binding("q", "quit")
    ctrl_q = Binding("ctrl+q", "quit", priority=True)
    assert quit_key(active(plain_q, ctrl_q)) == "ctrl+q"
    assert quit_key(active(plain_q)) == "q"
    assert quit_key(active(Binding("ctrl+x", "app.quit"), Binding("x", "export"))) == "ctrl+x"
    assert quit_key(active(Binding("x", "export"))) is None


def test_a_key_name_with_brackets_shows_as_typed() -> None:
    hint = quit_hint("[b]")
    assert Content.from_markup(hint.markup).plain == "Press [b] to quit the app"

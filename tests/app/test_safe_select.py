"""SafeSelect: every Select of the app, safe under any key at any moment.

Each scenario is one a person can cause: a key that comes before the app has laid the list out,
a choice made while the options are being replaced. Textual's own Select ends the app on the
first two (the tests marked "Textual's Select" show it still does; when one of them fails,
Textual fixed that case and SafeSelect's guard for it can go).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.widgets import Select, Static
from textual.widgets._select import SelectCurrent, SelectOverlay

import samantha_tui.ui
from samantha_tui.ui.widgets.safe_select import SafeSelect

OPTIONS = [(Text("low"), "low"), (Text("medium"), "medium"), (Text("high"), "high")]
UI = Path(samantha_tui.ui.__file__).parent


class Harness(App[None]):
    """One Select, of the class under test, and every value it reports."""

    def __init__(self, kind: type[Select]) -> None:
        super().__init__()
        self.kind = kind
        self.changes: list[object] = []

    def compose(self) -> ComposeResult:
        yield self.kind(OPTIONS, prompt="none", id="pick")

    @on(Select.Changed)
    def _changed(self, event: Select.Changed) -> None:
        self.changes.append(event.value)

    @property
    def select(self) -> Select:
        return self.query_one("#pick", Select)

    @property
    def overlay(self) -> SelectOverlay:
        return self.select.query_one(SelectOverlay)


# --- a page key before the list is laid out -------------------------------------------------------


def open_and_page_down(app: Harness) -> None:
    """Open the list and page in it before the app has had a moment to lay it out: what Enter
    then PgDn do when they arrive together."""
    app.select.action_show_overlay()
    app.overlay.action_page_down()


async def test_a_page_key_right_after_the_list_opens_does_nothing() -> None:
    app = Harness(SafeSelect)
    async with app.run_test() as pilot:
        app.select.focus()
        await pilot.pause()
        open_and_page_down(app)
        app.overlay.action_page_up()
        await pilot.pause()
        assert app.is_running
        assert app.select.expanded and app.overlay.highlighted == 0
        # Once laid out, the page keys work as Textual's do.
        await pilot.press("pagedown")
        assert app.overlay.highlighted == len(OPTIONS)
        await pilot.press("enter")
        assert app.select.value == "high"
        assert not app.select.expanded


async def test_a_page_key_after_the_list_was_closed_and_opened_again_does_nothing() -> None:
    app = Harness(SafeSelect)
    async with app.run_test() as pilot:
        app.select.focus()
        await pilot.press("enter", "down", "escape")
        await pilot.pause()
        open_and_page_down(app)
        await pilot.pause()
        assert app.is_running and app.select.expanded


async def test_textual_select_still_ends_the_app_on_a_page_key_before_layout() -> None:
    app = Harness(Select)
    async with app.run_test() as pilot:
        app.select.focus()
        await pilot.pause()
        with pytest.raises(KeyError):
            open_and_page_down(app)


# --- a choice taken in after the options changed -------------------------------------------------


async def choose_last_then_replace(pilot, app: Harness, options: list[tuple[Text, str]]) -> None:
    """Enter on the last option, and the options replaced before the choice is taken in (the
    bootstrap screen offers the active projects anew whenever the tree changes)."""
    app.select.focus()
    await pilot.press("enter", "end")
    app.overlay.action_select()
    app.select.set_options(options)
    await pilot.pause()


@pytest.mark.parametrize(
    "new_options",
    [
        pytest.param([(Text("ops"), "ops")], id="fewer options"),
        pytest.param([(Text(name), name) for name in ("a", "b", "c")], id="as many options"),
    ],
)
async def test_a_choice_no_longer_offered_is_ignored(new_options: list[tuple[Text, str]]) -> None:
    app = Harness(SafeSelect)
    async with app.run_test() as pilot:
        await choose_last_then_replace(pilot, app, new_options)
        assert app.is_running
        assert app.select.value is Select.NULL, "nothing the person saw is chosen"
        assert "high" not in app.changes and new_options[-1][1] not in app.changes
        assert app.select.expanded, "the list stays open, showing what is offered now"
        # A choice among the new options is taken.
        await pilot.press("home", "down", "enter")
        assert app.select.value == new_options[0][1]
        assert app.changes[-1] == new_options[0][1]


async def test_textual_select_takes_a_choice_by_its_old_position() -> None:
    app = Harness(Select)
    as_many = [(Text(name), name) for name in ("a", "b", "c")]
    async with app.run_test() as pilot:
        await choose_last_then_replace(pilot, app, as_many)
        assert app.select.value == "c", "an option the person never saw highlighted"


async def test_an_ordinary_choice_is_taken_once() -> None:
    app = Harness(SafeSelect)
    async with app.run_test() as pilot:
        app.select.focus()
        await pilot.press("enter", "down", "down", "enter")
        assert app.select.value == "medium"
        assert app.changes.count("medium") == 1
        assert not app.select.expanded and app.focused is app.select
        await pilot.press("space", "h")  # type to search, as Textual's list does
        await pilot.press("enter")
        assert app.select.value == "high"


async def test_safe_select_takes_a_value_type() -> None:
    """`SafeSelect[str](...)` as the screens write it, like Textual's `Select[str](...)`."""
    app = Harness(SafeSelect[str])
    async with app.run_test():
        assert isinstance(app.select, SafeSelect)


async def test_the_prompt_is_drawn_as_written() -> None:
    """A prompt may name user text (the bootstrap picker names a project): never markup."""
    app = Harness(SafeSelect)
    async with app.run_test() as pilot:
        label = app.select.query_one(SelectCurrent).query_one("#label", Static)
        assert str(label.render()) == "none"
        app.select.prompt = "[bold]x[/bold] [/]"
        await pilot.pause()
        assert str(label.render()) == "[bold]x[/bold] [/]"
        app.select.value = "low"
        await pilot.pause()
        assert str(label.render()) == "low"
        app.select.clear()
        await pilot.pause()
        assert str(label.render()) == "[bold]x[/bold] [/]"


# --- every Select of the app ---------------------------------------------------------------------


def selects_made(source: str) -> list[int]:
    """The lines of `source` that make a Textual Select: `Select(...)`, `Select[T](...)` or
    `Select.from_values(...)`."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        if isinstance(called, ast.Attribute) and called.attr == "from_values":
            called = called.value
        if isinstance(called, ast.Subscript):
            called = called.value
        name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
        if name == "Select":
            lines.append(node.lineno)
    return lines


def test_the_scan_finds_both_spellings() -> None:
    source = (
        "a = Select([])\nb = Select[str]([])\nc = widgets.Select([])\n"
        "d = Select.from_values([])\ne = SafeSelect([])\nf = SafeSelect.from_values([])\n"
        "g = Select.NULL\n"
    )
    assert selects_made(source) == [1, 2, 3, 4]


def test_every_select_in_the_app_is_a_safe_select() -> None:
    made = {
        path.relative_to(UI).as_posix(): lines
        for path in sorted(UI.rglob("*.py"))
        if (lines := selects_made(path.read_text(encoding="utf-8")))
    }
    assert made == {}, "make a SafeSelect (ui/widgets/safe_select.py) instead"

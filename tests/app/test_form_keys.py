"""The keys inside an open memory form: the app's one-letter keys belong to the form's fields,
no screen opens over it, nothing quits past unsaved input without asking, and a file the form
could not save is refused before the form opens."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Select

from samantha_tui.core.writing.edits import why_fields_cannot_be_saved
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.focus_keys import APP_ACTIONS, is_typed, typed_actions
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.memory_form import DiscardQuestion, MemoryForm

from ..conftest import ST, TODAY, make_tree
from ..mashing import press
from ..pilot import ALPHA, BETA, memory, reindexed, settle

SIZE = (120, 34)
BARE = f"{ST}/2026-06-11_bare_note.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    tree = make_tree(
        tmp_path / "cerebrum",
        {ALPHA: memory("Alpha rule", "importance: medium\n"), BETA: memory("Beta note")},
    )
    return reindexed(tree)


def files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


async def open_changed_form(pilot) -> MemoryForm:
    """`e` on the selected memory, then a field changed (unsaved), the importance list focused."""
    await press(pilot, "e")
    form = pilot.app.screen
    assert isinstance(form, MemoryForm)
    form.query_one("#field-topics", Input).value = "ci, changed"
    importance = form.query_one("#field-importance", Select)
    importance.focus()
    await pilot.pause()
    assert form.dirty and pilot.app.focused is importance
    return form


# --- the app's keys inside the form ------------------------------------------------------------


# F1 is left out: the form binds it to its own help page (see test_contextual_help.py).
@pytest.mark.parametrize("key", ["u", "b", "p", "t", "s", "r", "R", "i", "question_mark"])
async def test_an_app_key_on_a_dropdown_of_the_form_changes_nothing_and_opens_nothing(
    root: Path, key: str
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "c")  # a change `u` could undo: it must not, while the form is open
        assert app.curator.can_undo
        before = files(root)
        form = await open_changed_form(pilot)
        await press(pilot, key)
        assert app.screen is form, f"{key} opened {app.screen!r} over the form"
        assert len(app.screen_stack) == 2
        assert files(root) == before, f"{key} wrote a file"
        assert form.query_one("#field-topics", Input).value == "ci, changed"
        assert app.curator.can_undo, "the change before the form was undone"


@pytest.mark.parametrize(("key", "typed"), [("u", "u"), ("question_mark", "?"), ("b", "b")])
async def test_an_app_key_in_a_text_field_of_the_form_types_there(
    root: Path, key: str, typed: str
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = files(root)
        await press(pilot, "e")
        form = app.screen
        date = form.query_one("#field-date", Input)
        date.focus()
        date.value = ""
        await press(pilot, key)
        assert date.value == typed
        assert app.screen is form and files(root) == before


async def test_the_forms_footer_offers_only_keys_that_act_there(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = await open_changed_form(pilot)
        offered = {
            active.binding.action
            for active in form.active_bindings.values()
            if active.binding.show or active.binding.action == "command_palette"
        }
        # F1 is the form's own help (`?` types in its fields).
        assert offered == {"save", "cancel", "show_help", "quit"}, offered
        form.query_one("#field-date", Input).focus()
        await pilot.pause()
        # In a text field `q` types, so Quit is not offered (ctrl+q still asks).
        shown = {a.binding.action for a in form.active_bindings.values() if a.binding.show}
        assert shown == {"save", "cancel", "show_help"}, shown


async def test_no_action_runs_from_the_palette_or_a_binding_while_a_form_is_open(
    root: Path,
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = await open_changed_form(pilot)
        for action in ("open_screen('review')", "undo", "help", "command_palette", "jump"):
            assert await app.run_action(action) is False, action
        await press(pilot, "ctrl+p", "ctrl+k")
        assert app.screen is form and len(app.screen_stack) == 2


async def test_after_the_form_closes_the_app_keys_act_again(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await open_changed_form(pilot)
        await press(pilot, "escape", "y")
        assert len(app.screen_stack) == 1
        await press(pilot, "b")
        assert isinstance(app.screen, BootstrapScreen)


async def test_an_app_key_on_another_screens_dropdown_does_nothing(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        screen = app.screen
        assert isinstance(screen, BootstrapScreen)
        screen.query_one("#bootstrap-project", Select).focus()
        await pilot.pause()
        await press(pilot, "p", "question_mark", "u")
        assert app.screen is screen and len(app.screen_stack) == 2


# --- quitting ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_quitting_with_unsaved_input_asks_the_question_esc_asks(root: Path, key: str) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = files(root)
        form = await open_changed_form(pilot)
        await press(pilot, key)
        assert isinstance(app.screen, DiscardQuestion), "quit without asking"
        assert app.return_code is None
        await press(pilot, key)  # asked already: a second press does not stack another question
        assert len(app.screen_stack) == 3 and app.return_code is None
        await press(pilot, "escape")  # no: back to the form, input kept
        assert app.screen is form and app.return_code is None
        assert form.query_one("#field-topics", Input).value == "ci, changed"
        await pilot.press(key, "y")
        await settle(pilot)
        assert app.return_code == 0
    assert files(root) == before


async def test_ctrl_q_in_a_text_field_asks_too(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = await open_changed_form(pilot)
        form.query_one("#field-date", Input).focus()
        await press(pilot, "q")  # a letter typed into the date
        assert app.screen is form and form.query_one("#field-date", Input).value.endswith("q")
        await press(pilot, "ctrl+q")
        assert isinstance(app.screen, DiscardQuestion) and app.return_code is None


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_quitting_from_an_unchanged_form_quits_at_once(root: Path, key: str) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "e")
        form = app.screen
        assert isinstance(form, MemoryForm) and not form.dirty
        form.query_one("#field-importance", Select).focus()
        await pilot.press(key)
        await settle(pilot)
        assert app.return_code == 0


# --- files the form could not save -------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"# Bare note\n\nNo frontmatter at all.\n", "no frontmatter"),
        (b"---\n- 2026-06-11\n- ci\n---\n\n# Bare note\n", "frontmatter is a list"),
        (b"---\ndate: 2026-06-11\n---\n\n# Bare \xff note\n", "not UTF-8"),
    ],
    ids=["no-frontmatter", "unreadable-frontmatter", "not-utf8"],
)
async def test_a_file_the_form_could_not_save_gets_a_notice_and_no_form(
    tmp_path: Path, content: bytes, said: str
) -> None:
    root = make_tree(tmp_path / "cerebrum", {BARE: content, BETA: memory("Beta note")})
    before = files(root)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.table.select_key(BARE)
        await press(pilot, "e")
        assert len(app.screen_stack) == 1, "a form opened on a file it cannot save"
        notices = [n.message for n in app._notifications]
        assert any(BARE in n and said in n and "o to open it" in n for n in notices), notices
        assert app.table.select_key(BETA)
        await press(pilot, "e")  # a file with frontmatter still opens
        assert isinstance(app.screen, MemoryForm)
    assert files(root) == before


def test_why_fields_cannot_be_saved_names_the_reason_or_none() -> None:
    assert why_fields_cannot_be_saved(b"---\ndate: 2026-06-01\n---\nbody\n") is None
    assert why_fields_cannot_be_saved(b"---\n---\nbody\n") is None  # empty, but there
    assert "no frontmatter" in (why_fields_cannot_be_saved(b"just text\n") or "")
    assert why_fields_cannot_be_saved(b"---\ndate: x\n") is not None  # never closed
    assert why_fields_cannot_be_saved(b"\xff\xfe") == "it is not UTF-8 text"


def test_typed_keys_and_the_actions_they_run() -> None:
    assert all(is_typed(key) for key in ("u", "R", "question_mark", "plus", "slash", "minus"))
    assert not any(is_typed(key) for key in ("f1", "ctrl+r", "escape", "delete", "tab"))
    typed = typed_actions({})
    assert {"undo", "open_screen", "help", "delete"} <= typed
    assert not {"reload", "jump", "quit"} & typed
    # A key moved in the settings to a ctrl chord no longer counts as typed.
    assert "undo" not in typed_actions({"memory.undo": "ctrl+z"})
    assert "quit" not in APP_ACTIONS

"""Pilot tests of the frontmatter form, pushed alone by a small harness app."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Input, Label, Select, Static, Switch
from textual.widgets._select import SelectOverlay

import samantha_tui.ui
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.reading.fields import build_vocabulary
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.memory_form import FormResult, MemoryForm
from samantha_tui.ui.widgets.safe_select import SafeSelect

from ..conftest import ST, TASKS, TODAY, memory_text

STYLESHEET = Path(samantha_tui.ui.__file__).parent / "app.tcss"
UNSET = object()
REL = f"{ST}/2026-06-01_rate_limits.md"
TEXT = (
    "---\n"
    "date: 2026-06-01\n"
    "topics: [api, testing]\n"
    "importance: high\n"
    "type: postmortem\n"
    "project: gateway\n"
    "reference_count: 3\n"
    "critical: true\n"
    "reviewed_by: dana\n"
    "---\n\n# [bold]Rate limits[/]\n\nBody.\n"
)


class Harness(App[None]):
    """Pushes one form and keeps what it dismissed with."""

    CSS_PATH = STYLESHEET

    def __init__(self, form: MemoryForm) -> None:
        super().__init__()
        self.form = form
        self.result: object = UNSET

    def on_mount(self) -> None:
        self.push_screen(self.form, self._record)

    def _record(self, result: FormResult | None) -> None:
        self.result = result


def plain(renderable: object) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text().strip()


def edit_form(tree, extra: dict[str, str] | None = None) -> tuple[MemoryForm, object]:
    store = tree(
        {
            REL: TEXT,
            f"{ST}/2026-06-02_other.md": memory_text(
                date="2026-06-02", topics="[testing, tooling]"
            ),
            f"{TASKS}/billing-export/status.md": memory_text(
                date="2026-05-01", topics="[billing]", status="active"
            ),
            **(extra or {}),
        }
    )
    memory = store.get(REL)
    return MemoryForm(memory.kind, memory, build_vocabulary(store.tree), TODAY), store


def error_text(form: MemoryForm, key: str) -> str:
    label = form.query_one(f"#error-{key}", Label)
    return plain(label.content) if label.display else ""


async def test_a_bad_date_shows_its_error_and_save_is_refused(tree) -> None:
    form, store = edit_form(tree)
    before = (store.root / REL).read_bytes()
    app = Harness(form)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert form.query_one("#form-head").region.y == 0
        date = form.query_one("#field-date", Input)
        date.value = "2026-02-3"
        date.focus()
        await pilot.pause()
        assert error_text(form, "date") == "2026-02-3 is not a date as YYYY-MM-DD"
        await pilot.press("end", "0")
        assert date.value == "2026-02-30"
        assert error_text(form, "date") == "2026-02-30 is not a date"
        assert date.has_class("-invalid")
        form.query_one("#field-topics", Input).focus()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.result is UNSET
        assert app.screen is form
        assert app.focused is date
        assert any("2026-02-30 is not a date" in str(n.message) for n in app._notifications)
        date.value = "2026-06-01"
        await pilot.pause()
        assert error_text(form, "date") == ""
        assert not date.has_class("-invalid")
        switch = form.query_one("#field-critical", Switch)
        switch.focus()
        await pilot.pause()
        assert switch.region.bottom < 24, "the last field is scrolled into view"
        await pilot.press("ctrl+s")  # the date is back as it was: nothing to save
        await pilot.pause()
    assert app.result is None
    assert (store.root / REL).read_bytes() == before


async def test_changing_only_importance_returns_only_importance(tree) -> None:
    form, store = edit_form(tree)
    memory = store.get(REL)
    app = Harness(form)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        importance = form.query_one("#field-importance", Select)
        importance.focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("up", "enter")
        await pilot.pause()
        assert importance.value == "medium"
        await pilot.press("ctrl+s")
        await pilot.pause()
    result = app.result
    assert isinstance(result, FormResult)
    assert result.path == REL
    assert dict(result.set_values) == {"importance": "medium"}
    assert result.unset == ()
    assert result.digest == memory.digest
    assert result.new_memory is None
    assert result.draft["importance"] == "medium"
    assert result.draft["topics"] == "api, testing"
    assert result.draft["date"] == "2026-06-01"


async def test_switching_critical_off_unsets_it(tree) -> None:
    form, _ = edit_form(tree)
    app = Harness(form)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        switch = form.query_one("#field-critical", Switch)
        assert switch.value is True
        switch.focus()
        await pilot.press("space", "ctrl+s")
        await pilot.pause()
    assert isinstance(app.result, FormResult)
    assert dict(app.result.set_values) == {}
    assert app.result.unset == ("critical",)


async def test_unknown_type_kept_other_keys_shown_title_literal_and_topic_completion(
    tree,
) -> None:
    form, _ = edit_form(tree)
    app = Harness(form)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert plain(form.query_one("#form-other", Static).content) == "reviewed_by: dana"
        head = plain(form.query_one("#form-head", Static).content)
        assert head == f"[bold]Rate limits[/]\n{REL}"
        kind = form.query_one("#field-type", Select)
        assert kind.value == "postmortem"
        offered = [value for _, value in kind._options]
        assert "decision" in offered and "postmortem" in offered
        form.query_one("#field-reference_count", Input).value = "4"
        topics = form.query_one("#field-topics", Input)
        topics.focus()
        await pilot.press("end", ",", "space", "t", "o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("right")
        assert topics.value == "api, testing, tooling"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert dict(app.result.set_values) == {
        "reference_count": 4,
        "topics": ["api", "testing", "tooling"],
    }
    assert app.result.unset == ()


async def test_escape_on_a_dirty_form_asks_and_cancel_keeps_the_form(tree) -> None:
    form, _ = edit_form(tree)
    app = Harness(form)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert not form.dirty
        topics = form.query_one("#field-topics", Input)
        topics.focus()
        await pilot.press("end", "x", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")  # the focused, safe choice: Cancel
        await pilot.pause()
        assert app.screen is form
        assert topics.value == "api, testingx"
        assert app.result is UNSET
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.result is None


async def test_new_project_name_and_a_file_changed_on_disk(tree) -> None:
    form, store = edit_form(tree)
    app = Harness(form)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        project = form.query_one("#field-project", Select)
        offered = [value for _, value in project._options]
        assert "gateway" in offered and "billing-export" in offered
        name = form.query_one("#field-project-new", Input)
        assert not name.display
        project.value = offered[-1]
        await pilot.pause()
        assert name.display and app.focused is name
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.result is UNSET
        assert error_text(form, "project") == "type the new project's name"
        banner = form.query_one("#form-banner", Static)
        assert not banner.display
        form.file_changed(store.get(REL))
        await pilot.pause()
        assert banner.display and "changed on disk" in plain(banner.content)
        form.file_changed(None)
        await pilot.pause()
        assert "deleted" in plain(banner.content)
        await pilot.press("s", "2", "ctrl+s")
        await pilot.pause()
    assert dict(app.result.set_values) == {"project": "s2"}
    assert app.result.draft["project"] == "s2"
    assert app.result.digest == store.get(REL).digest


async def test_a_new_memory_returns_its_file_and_a_taken_name_is_refused(tree) -> None:
    taken = f"{ST}/2026-06-15_same.md"
    store = tree({taken: memory_text(date="2026-06-15", topics="[ci]")})
    form = MemoryForm(Kind.SHORT_TERM, None, build_vocabulary(store.tree), TODAY)
    app = Harness(form)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = form.query_one("#field-title", Input)
        assert app.focused is title
        assert form.query_one("#field-date", Input).value == "2026-06-15"
        await pilot.press("S", "a", "m", "e")
        form.query_one("#field-topics", Input).value = "ci, retries"
        form.query_one("#field-importance", Select).value = "high"
        await pilot.pause()
        assert error_text(form, "title") == f"{taken} already exists; choose another title"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.result is UNSET and app.focused is title
        title.value = "Retry budget: upstream calls"
        await pilot.pause()
        shown = plain(form.query_one("#form-file", Static).content)
        assert shown == f"File: {ST}/2026-06-15_retry_budget_upstream_calls.md"
        await pilot.press("ctrl+s")
        await pilot.pause()
    result = app.result
    assert isinstance(result, FormResult) and result.new_memory is not None
    assert result.path == result.new_memory.rel == f"{ST}/2026-06-15_retry_budget_upstream_calls.md"
    assert dict(result.new_memory.mapping) == {
        "date": TODAY,
        "topics": ["ci", "retries"],
        "importance": "high",
    }
    assert result.new_memory.body.startswith("\n# Retry budget: upstream calls\n\n## Context\n")
    assert result.digest is None and result.draft["title"] == "Retry budget: upstream calls"
    created = store.create(result.new_memory.rel, result.new_memory.mapping, result.new_memory.body)
    assert created.problems == ()


async def test_a_draft_reopens_a_new_task_that_takes_its_folder_from_the_project(tree) -> None:
    store = tree({})
    draft = {"title": "Phase one", "project": "Search V2", "topics": "search"}
    form = MemoryForm(Kind.CURRENT_TASKS, None, build_vocabulary(store.tree), TODAY, draft)
    app = Harness(form)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert form.dirty
        assert form.query_one("#field-title", Input).value == "Phase one"
        assert form.query_one("#field-status", Select).value == "active"
        await pilot.press("ctrl+s")
        await pilot.pause()
    new = app.result.new_memory
    assert new.rel == f"{TASKS}/search-v2/status.md"
    assert new.mapping["project"] == "search-v2" and new.mapping["status"] == "active"


async def test_a_new_runbook_names_its_file_after_the_domain(tree) -> None:
    taken = ".ai/procedural-memory/.ai/python-testing.md"
    store = tree({taken: memory_text(date="2026-01-01", topics="[pytest]")})
    form = MemoryForm(Kind.PROCEDURAL, None, build_vocabulary(store.tree), TODAY)
    app = Harness(form)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert [spec.key for spec in form._specs][:2] == ["title", "domain"]
        assert form.query_one("#field-type", Select).value == "runbook"
        form.query_one("#field-title", Input).value = "How we test"
        form.query_one("#field-domain", Input).value = "Python testing"
        form.query_one("#field-topics", Input).value = "pytest"
        await pilot.pause()
        assert error_text(form, "domain") == f"{taken} already exists; choose another domain"
        assert error_text(form, "title") == ""
        form.query_one("#field-domain", Input).value = "python-testing-2"
        await pilot.press("ctrl+s")
        await pilot.pause()
    new = app.result.new_memory
    assert new.rel == ".ai/procedural-memory/.ai/python-testing-2.md"
    assert new.mapping["domain"] == "python-testing-2"
    assert new.mapping["confidence"] == "low"


async def test_a_page_key_before_an_open_select_is_laid_out_is_ignored() -> None:
    """Key mashing found it: Textual's list moved a page from a line it had not made yet."""

    class Harness(App[None]):
        def compose(self) -> ComposeResult:
            yield SafeSelect([(Text("low"), "low"), (Text("high"), "high")], id="pick")

    app = Harness()
    async with app.run_test() as pilot:
        overlay = app.query_one(SelectOverlay)
        overlay.highlighted = 0
        overlay._index_to_line.clear()  # the moment after opening, before the list is laid out
        overlay.action_page_down()
        overlay.action_page_up()
        await pilot.pause()
        assert app.is_running


async def test_a_new_memory_starts_at_medium_importance_which_can_be_cleared(tree) -> None:
    """samantha-llm reads a memory without importance as medium: the form says so before the
    save, instead of writing none; the person may still choose another or none."""
    store = tree({})
    form = MemoryForm(Kind.SHORT_TERM, None, build_vocabulary(store.tree), TODAY)
    app = Harness(form)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        importance = form.query_one("#field-importance", Select)
        assert importance.value == "medium" and not form.dirty
        form.query_one("#field-title", Input).value = "Retry budget"
        form.query_one("#field-topics", Input).value = "ci"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.result.new_memory.mapping["importance"] == "medium"

    cleared = MemoryForm(Kind.LONG_TERM, None, build_vocabulary(store.tree), TODAY)
    app = Harness(cleared)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        cleared.query_one("#field-importance", Select).clear()
        cleared.query_one("#field-title", Input).value = "Retry budget"
        cleared.query_one("#field-topics", Input).value = "ci"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert "importance" not in app.result.new_memory.mapping


async def test_a_new_task_starts_with_no_importance(tree) -> None:
    store = tree({})
    form = MemoryForm(Kind.CURRENT_TASKS, None, build_vocabulary(store.tree), TODAY)
    app = Harness(form)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert form.query_one("#field-importance", Select).is_blank()


FORMATS = {"YYYY-MM-DD", "0 or more", "from the title", "new project name", "a project name"}
"""Placeholders that say what to type; any other names an example after `e.g.`, so that no
empty field looks filled in."""


def _reads_as_a_hint(placeholder: str) -> bool:
    return (
        not placeholder
        or placeholder.startswith("e.g. ")
        or placeholder in FORMATS
        or placeholder.startswith("YYYY-MM-DD, e.g. ")
        or placeholder == "replaces every memory's topics"
    )


async def test_no_empty_field_of_a_new_memory_looks_filled_in(tree) -> None:
    store = tree({})
    for kind in Kind:
        form = MemoryForm(kind, None, build_vocabulary(store.tree), TODAY)
        app = Harness(form)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            placeholders = {i.id: i.placeholder for i in form.query(Input)}
            assert placeholders["field-topics"] == "e.g. testing, ci"
            odd = {key: text for key, text in placeholders.items() if not _reads_as_a_hint(text)}
            assert not odd, kind


async def test_no_field_of_the_bulk_form_looks_filled_in(tree) -> None:
    from samantha_tui.ui.screens.bulk_form import LEAVE, BulkForm

    store = tree({REL: TEXT, ".ai/procedural-memory/.ai/deploys.md": TEXT})

    class BulkHarness(App[None]):
        CSS_PATH = STYLESHEET

        def on_mount(self) -> None:
            self.push_screen(BulkForm(store.tree.memories, build_vocabulary(store.tree), TODAY))

    app = BulkHarness()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        placeholders = {i.id: i.placeholder for i in app.screen.query(Input)}
        assert placeholders["bulk-topics-add"] == f"{LEAVE}: e.g. release, ci"
        hints = {key: text.removeprefix(f"{LEAVE}: ") for key, text in placeholders.items()}
        assert all(_reads_as_a_hint(text) for text in hints.values()), hints

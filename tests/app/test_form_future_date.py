"""The memory form refuses a `date` after today as `set` does, beside the field, with the same
words; a file already dated ahead can still have its other fields saved."""

from __future__ import annotations

import datetime as dt

from textual.widgets import Input

from samantha_tui.core.basics import schema
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.reading.fields import build_vocabulary
from samantha_tui.ui.screens.memory_form import FormResult, MemoryForm

from ..conftest import ST, TODAY
from .test_memory_form import REL, TEXT, UNSET, Harness, edit_form, error_text

TOMORROW = TODAY + dt.timedelta(days=1)


async def test_a_future_date_is_refused_beside_the_field(tree) -> None:
    form, store = edit_form(tree)
    before = (store.root / REL).read_bytes()
    app = Harness(form)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        date = form.query_one("#field-date", Input)
        date.value = TOMORROW.isoformat()
        await pilot.pause()
        shown = error_text(form, "date")
        assert f"`date` {TOMORROW} {schema.FUTURE_DATE}" in shown
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.result is UNSET and app.screen is form
        assert any(schema.FUTURE_DATE in str(n.message) for n in app._notifications)
        date.value = TODAY.isoformat()
        await pilot.pause()
        assert error_text(form, "date") == ""
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert isinstance(app.result, FormResult)
    assert dict(app.result.set_values) == {"date": TODAY}
    assert (store.root / REL).read_bytes() == before  # the harness only collects the result


async def test_a_file_dated_ahead_keeps_its_date_and_saves_other_fields(tree) -> None:
    ahead = TEXT.replace("date: 2026-06-01", f"date: {TOMORROW}")
    form, _store = edit_form(tree, {REL: ahead})
    app = Harness(form)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert error_text(form, "date") == ""
        form.query_one("#field-reference_count", Input).value = "4"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert isinstance(app.result, FormResult)
    assert dict(app.result.set_values) == {"reference_count": 4}


async def test_a_new_memory_dated_ahead_is_refused_on_its_date(tree) -> None:
    store = tree({f"{ST}/2026-06-02_other.md": TEXT})
    form = MemoryForm(Kind.SHORT_TERM, None, build_vocabulary(store.tree), TODAY)
    app = Harness(form)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        form.query_one("#field-title", Input).value = "Later"
        form.query_one("#field-topics", Input).value = "a"
        form.query_one("#field-date", Input).value = TOMORROW.isoformat()
        await pilot.pause()
        assert schema.FUTURE_DATE in error_text(form, "date")
        assert error_text(form, "title") == ""
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.result is UNSET

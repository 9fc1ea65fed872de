"""Held keys cost a frame as little as they can: the preview's head and fields repaint in place
when they fill as many lines as before, or fewer while the keys are held."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widgets import Static

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.widgets import preview

from ..conftest import ST, TODAY, make_tree
from ..pilot import settle
from ..waiting import drawn
from .test_app_held_keys import SIZE


def painted(widget: Static) -> str:
    """The text of the widget's lines as the screen shows them."""
    lines = widget.render_lines(Region(0, 0, *widget.outer_size))
    return "\n".join(strip.text for strip in lines)


def notes_with_fields(root: Path) -> Path:
    """Three notes: the first two have the same fields, the third two more lines of them."""
    same = "date: 2026-05-0{n}\ntopics: [t]\nimportance: low\n"
    files = {
        f"{ST}/2026-05-03_a.md": "---\n" + same.format(n=3) + "---\n\n# A\n\nBody a.\n",
        f"{ST}/2026-05-02_b.md": "---\n" + same.format(n=2) + "---\n\n# B\n\nBody b.\n",
        f"{ST}/2026-05-01_c.md": (
            "---\n" + same.format(n=1) + "critical: true\nreferences: 2\n---\n\n# C\n\nBody c.\n"
        ),
    }
    return make_tree(root, files)


async def test_fields_of_as_many_lines_repaint_without_a_layout_and_more_lines_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(preview, "BODY_PAUSE", 0.05)
    app = SamanthaApp(notes_with_fields(tmp_path / "t"), lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        fields = app.query_one("#preview-fields", Static)
        head = app.query_one("#preview-head", Static)
        assert app.selected_memory().title == "A"
        three = fields.size.height
        assert three == 3

        b = app.memory_for(app.table.rows[1].key)
        app.preview.show_memory(b, held=True)
        assert not fields._layout_required and not head._layout_required
        await settle(pilot)
        assert "2026-05-02" in painted(fields)  # the new fields, not the old ones
        assert fields.size.height == three

        c = app.memory_for(app.table.rows[2].key)
        app.preview.show_memory(c, held=True)
        assert fields._layout_required
        await settle(pilot)
        assert fields.size.height == three + 2


async def test_held_fields_keep_the_taller_box_until_the_keys_pause_then_fit_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(preview, "BODY_PAUSE", 0.5)
    app = SamanthaApp(notes_with_fields(tmp_path / "t"), lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        fields = app.query_one("#preview-fields", Static)
        a, b, c = (app.memory_for(row.key) for row in app.table.rows)
        app.preview.show_memory(c)
        await settle(pilot)
        assert fields.size.height == 5

        app.preview.show_memory(b, held=True)
        assert not fields._layout_required  # shorter: shown in the box of five lines
        await drawn(pilot)  # painted, the body still waiting for the keys to pause
        assert fields.size.height == 5
        assert "2026-05-02" in painted(fields)

        await settle(pilot)  # the keys paused: the body is drawn and the box fits the fields
        assert fields.size.height == 3
        await pilot.pause()
        assert fields.size.height == 3

        app.preview.show_memory(c, held=True)
        await settle(pilot)
        app.preview.show_memory(a)  # not held: exactly its height at once
        assert fields._layout_required
        await pilot.pause()
        assert fields.size.height == 3

"""Snapshots of text folded for the width it is read at, at the sizes where it once broke: the
review's preview at 80x24 (words whole), a runbook's triggers at 120x36 (YAML folded under its
keys, the path broken at a `/`), and headings beside a link in the reader, dark and light."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.review import ReviewScreen

from ..conftest import TODAY, make_tree
from ..pilot import ALPHA, memory
from .test_snapshots import demo_app, settle  # noqa: F401 (demo_app is a fixture)


def test_the_reviews_preview_at_80x24(snap_compare, demo_app: SamanthaApp) -> None:  # noqa: F811
    async def standup(pilot) -> None:
        await settle(pilot)
        screen = ReviewScreen("prune")
        pilot.app.push_screen(screen)
        await settle(pilot)
        keys = [row.key for row in screen.table().rows]
        index = next(i for i, key in enumerate(keys) if key.endswith("_standup_notes_format.md"))
        await pilot.press(*["down"] * index)
        await settle(pilot)

    assert snap_compare(demo_app, terminal_size=(80, 24), run_before=standup)


def test_a_runbooks_triggers_at_120x36(snap_compare, demo_app: SamanthaApp) -> None:  # noqa: F811
    assert snap_compare(demo_app, press=["5"], terminal_size=(120, 36), run_before=settle)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_headings_and_a_link_in_the_reader(snap_compare, tmp_path: Path, theme: str) -> None:
    body = (
        "Intro.\n\n## A heading\n\nSee [the docs](https://example.com/docs) first.\n\n"
        "### A smaller heading\n\nMore.\n"
    )
    app = SamanthaApp(make_tree(tmp_path / "tree", {ALPHA: memory("Linked") + body}), lambda: TODAY)

    async def read(pilot) -> None:
        pilot.app.theme = theme
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app, terminal_size=(120, 36), run_before=read)

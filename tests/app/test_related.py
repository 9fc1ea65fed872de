"""Related memories with the real model (the tests' settings turn it off; these turn it on):
the preview and the reader name the closest in meaning, and `m` picks one and goes to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.jump import palette_open
from samantha_tui.ui.screens.reader import ReaderScreen

from ..conftest import MEANING_ON, ST, TEST_SETTINGS, TODAY, make_tree, use_settings
from ..pilot import settle, until

FLAKY = f"{ST}/2026-06-03_flaky_tests_redis.md"
PER_WORKER = f"{ST}/2026-06-04_xdist_redis_per_worker.md"
PNPM = f"{ST}/2026-06-05_pnpm_installs.md"


def memory(title: str, body: str) -> str:
    return f"---\ndate: 2026-06-01\ntopics: [testing]\n---\n\n# {title}\n\n{body}\n"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    use_settings(monkeypatch, tmp_path, MEANING_ON)
    return make_tree(
        tmp_path / "tree",
        {
            FLAKY: memory(
                "Flaky tests shared one Redis database",
                "The gateway tests were flaky under pytest-xdist because every worker used the "
                "same Redis database. Give each worker its own database number.",
            ),
            PER_WORKER: memory(
                "Each xdist worker needs its own Redis database",
                "Gateway tests failed at random with pytest-xdist since all workers shared a "
                "single Redis database; each worker now picks its own database number.",
            ),
            PNPM: memory("Installs use pnpm", "Always use pnpm for installs in this repo."),
        },
    )


def line(app: SamanthaApp, selector: str) -> str:
    static = app.screen.query_one(selector, Static)
    return str(static.render()) if static.display else ""


async def test_the_preview_names_the_closest_and_m_goes_to_one(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 36)) as pilot:
        await settle(pilot)
        assert app.table.select_key(FLAKY)
        await settle(pilot)
        assert await until(pilot, lambda: "Related (m): " in line(app, "#preview-related"))
        shown_line = line(app, "#preview-related")
        assert "Each xdist worker needs its own Redis database" in shown_line
        await pilot.press("m")
        assert await until(pilot, lambda: palette_open(app))
        await pilot.press("enter")
        await settle(pilot)
        assert app.table.selected_key == PER_WORKER


async def test_the_reader_names_them_too(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 36)) as pilot:
        await settle(pilot)
        assert app.table.select_key(PER_WORKER)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReaderScreen)
        assert await until(pilot, lambda: "Related (m): " in line(app, "#reader-related"))
        assert "Flaky tests shared one Redis database" in line(app, "#reader-related")


async def test_with_meaning_off_m_says_so_and_no_line_shows(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    use_settings(monkeypatch, tmp_path, TEST_SETTINGS)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 36)) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert line(app, "#preview-related") == ""
        said = [n.message for n in app._notifications]
        assert any("Related memories are off" in m and "meaning.enabled" in m for m in said)
        assert not palette_open(app)


async def test_over_the_limit_no_line_is_worked_out_but_m_still_compares(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tree over UNASKED_MAX gets no Related line (its first reading embeds the whole tree,
    unasked); `m` compares when asked."""
    from samantha_tui.ui import related_line

    monkeypatch.setattr(related_line, "UNASKED_MAX", 2)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 36)) as pilot:
        await settle(pilot)
        assert app.table.select_key(FLAKY)
        await settle(pilot)
        assert line(app, "#preview-related") == ""
        await pilot.press("m")
        assert await until(pilot, lambda: palette_open(app))
        await pilot.press("enter")
        await settle(pilot)
        assert app.table.selected_key == PER_WORKER

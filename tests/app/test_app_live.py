"""The app with its watcher on: other programs' changes appear, and the indexes follow them."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Select, Static

from samantha_tui.cli import main
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.live import INDEX_QUIET
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.memory_form import MemoryForm

from ..conftest import ST, TODAY, make_tree
from ..pilot import reindexed, settle, until
from ..watching import watches_made

A = f"{ST}/2026-06-10_alpha_rule.md"
NEW = f"{ST}/2026-06-12_written_by_the_assistant.md"
WAIT = 60.0
"""Seconds a change may take to show; generous, as CI machines stall. The aim is under one."""


def memory(title: str) -> str:
    return f"---\ndate: 2026-06-01\ntopics: [ci]\n---\n\n# {title}\n\nBody.\n"


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The OS watches made: the watcher is running once there is one."""
    return watches_made(monkeypatch)


@pytest.fixture
def watched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made: list[object]) -> Path:
    config = tmp_path / "watch.toml"
    config.write_text("[watch]\nenabled = true\n")
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    root = make_tree(tmp_path / "cerebrum", {A: memory("Alpha rule")})
    return reindexed(root)


def keys_shown(app: SamanthaApp) -> list[str]:
    return [row.key for row in app.table.rows]


async def test_an_outside_write_appears_and_shows_as_drift_but_writes_no_index(
    watched: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    indexes = {p: p.read_bytes() for p in watched.rglob("index.*")}
    app = SamanthaApp(watched, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await until(pilot, lambda: keys_shown(app) == [A])
        assert await until(pilot, lambda: made)  # the watcher is running
        (watched / NEW).write_text(memory("Written by the assistant"))
        assert await until(pilot, lambda: NEW in keys_shown(app))
        assert app.table.selected_key == A, "the selection stays where it was"
        # The indexes are samantha-llm's too: another program's change is shown, not written.
        assert await until(pilot, lambda: app.index_report is not None and app.index_report.drifted)
        await pilot.pause(INDEX_QUIET + 0.5)
        assert {p: p.read_bytes() for p in watched.rglob("index.*")} == indexes
        assert main(["index", "--check", "--tree", str(watched)]) == 1
        capsys.readouterr()

        (watched / NEW).unlink()
        assert await until(pilot, lambda: NEW not in keys_shown(app))


async def test_an_outside_edit_refreshes_the_preview_and_keeps_the_search(watched: Path) -> None:
    app = SamanthaApp(watched, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await until(pilot, lambda: keys_shown(app) == [A])
        await pilot.press("slash", *"alpha")
        assert await until(pilot, lambda: app.query_text == "alpha" and app._results is not None)
        await settle(pilot)
        assert await until(pilot, lambda: made)  # the watcher is running
        (watched / A).write_text(memory("Alpha rule").replace("Body.", "Body, edited elsewhere."))
        seen: list[str | None] = []

        def edited() -> bool:
            seen.append(app.table.selected_key)
            memory = app.selected_memory()
            return memory is not None and "edited elsewhere" in memory.body

        assert await until(pilot, edited)
        assert set(seen) == {A}, "the selection never left the memory"
        assert app.query_text == "alpha" and app.search_bar.display


async def test_an_open_form_says_when_its_file_changed_and_keeps_the_input(watched: Path) -> None:
    app = SamanthaApp(watched, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await until(pilot, lambda: keys_shown(app) == [A])
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, MemoryForm)
        form.query_one("#field-importance", Select).value = "high"
        await settle(pilot)
        assert await until(pilot, lambda: made)  # the watcher is running
        theirs = memory("Alpha rule").replace("Body.", "Body, edited elsewhere.")
        (watched / A).write_text(theirs)
        banner = form.query_one("#form-banner", Static)
        assert await until(pilot, lambda: banner.display)
        assert form.query_one("#field-importance", Select).value == "high"

        await pilot.press("ctrl+s")
        assert await until(pilot, lambda: isinstance(app.screen, ConflictScreen))
        await pilot.press("k")
        assert await until(pilot, lambda: b"importance: high" in (watched / A).read_bytes())
        assert (watched / A).read_text() == theirs.replace(
            "topics: [ci]\n", "topics: [ci]\nimportance: high\n"
        )


async def test_an_index_edited_by_another_program_shows_as_drift(watched: Path) -> None:
    app = SamanthaApp(watched, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await until(pilot, lambda: "indexes ✓" in str(app.status_line.render()))
        assert await until(pilot, lambda: made)  # the watcher is running
        await settle(pilot)
        checked = app.index_report
        # A line added to index.md by hand is the assistant's own: kept, not drift.
        index_md = watched / ST / "index.md"
        index_md.write_bytes(index_md.read_bytes() + b"\nAdded by hand.\n")
        assert await until(pilot, lambda: app.index_report is not checked)  # checked again
        await settle(pilot)
        assert "indexes ✓" in str(app.status_line.render())
        # An entry another program took out of index.json is.
        index_json = watched / ST / "index.json"
        index_json.write_text('{"last_updated": "2026-06-15", "total_memories": 0}\n')
        assert await until(pilot, lambda: "to update (r)" in str(app.status_line.render()))


async def test_records_the_session_took_in_elsewhere_reach_the_list_with_the_next_burst(
    watched: Path,
) -> None:
    """A refused change re-reads its files inside the session without a Changed of its own
    (keep mine, then a lock held): the list must not stay behind the records. The next burst of
    outside changes, even one that changes nothing new, draws it again."""
    app = SamanthaApp(watched, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await until(pilot, lambda: keys_shown(app) == [A])
        await settle(pilot)
        assert await until(pilot, lambda: made)  # the watcher is running
        (watched / NEW).write_text(memory("Written by the assistant"))
        app.curator.absorb([NEW])  # taken in on another path than the watcher's message
        assert app.list_is_behind()
        assert await until(pilot, lambda: NEW in keys_shown(app), WAIT)
        assert not app.list_is_behind()


@pytest.mark.parametrize("catalogued", [True, False], ids=["catalog", "no-catalog"])
async def test_the_watcher_starts_once_with_or_without_a_catalog_to_draw_first(
    watched: Path,
    made: list[object],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    catalogued: bool,
) -> None:
    """With a catalog, the watcher starts once its list is on screen (its setup would delay
    that frame); without one, as the files are read. Either way once, and it catches changes."""
    if not catalogued:
        monkeypatch.setenv("SAMANTHA_TUI_CACHE", str(tmp_path / "empty-cache"))
    app = SamanthaApp(watched, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await until(pilot, lambda: keys_shown(app) == [A])
        assert await until(pilot, lambda: made)
        assert await until(pilot, lambda: app.checking is None)  # the scan has checked it
        (watched / NEW).write_text(memory("Written by the assistant"))
        assert await until(pilot, lambda: NEW in keys_shown(app))
        await pilot.press("ctrl+r")  # the tree read again does not start a second watcher
        await settle(pilot)
        assert len(made) == 1
        assert len([w for w in app.workers if w.group == "watch" and not w.is_finished]) == 1

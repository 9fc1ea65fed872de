"""The first frame from the catalog: the records as last saved, drawn before the files are checked.

The scan is held back by a gate, so each test sees the app between the two: the catalog's rows on
screen and "checking N files…" in the status line; then the checked tree replaces them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from samantha_tui.core.basics.model import Kind, Listed, Memory
from samantha_tui.core.reading import catalog as catalog_module
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.reader import ReaderScreen

from ..conftest import make_tree
from ..pilot import until
from ..waiting import WITHIN, drawn, tap

FIRST = ".ai/short-term-memory/.ai/2026-01-01_first.md"
SECOND = ".ai/short-term-memory/.ai/2026-01-02_second.md"


def memory(date: str, title: str) -> str:
    return f"---\ndate: {date}\ntopics: [a]\nimportance: low\n---\n\n# {title}\n\nBody.\n"


def two_memories(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path / "tree",
        {
            FIRST: memory("2026-01-01", "First as catalogued"),
            SECOND: memory("2026-01-02", "Second"),
        },
    )


def catalogue(root: Path) -> None:
    """What an earlier run leaves: every record saved in the tree's catalog."""
    store = Store(root)
    store.scan()
    store.close()


class Gate(threading.Event):
    """Set to let the scan run; `reached` is set once the scan waits at it."""

    def __init__(self) -> None:
        super().__init__()
        self.reached = threading.Event()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    """The scan waits until the test opens the gate (always opened at the end)."""
    opened = Gate()
    real = Curator.load

    def held(self: Curator):
        opened.reached.set()
        assert opened.wait(WITHIN), "the test never let the scan run"
        return real(self)

    monkeypatch.setattr(Curator, "load", held)
    yield opened
    opened.set()


async def checked(pilot, app: SamanthaApp, gate: Gate) -> None:
    """Let the scan run, and wait until its checked tree is shown and every worker is done."""
    gate.set()
    assert await until(pilot, lambda: app.checking is None)
    await app.workers.wait_for_complete()
    await pilot.pause()


def said(app: SamanthaApp) -> list[str]:
    """The notices' messages, newest first."""
    return [entry.message for entry in app.notices.log.newest_first()]


def status(app: SamanthaApp) -> str:
    return str(app.status_line.render())


def previewed(app: SamanthaApp) -> str | None:
    """The path of the memory the preview shows, once it shows its body."""
    shown = app.preview.shown
    return shown.path if shown is not None and "Body." in shown.body else None


def titles(app: SamanthaApp) -> list[str]:
    return [app.memory_for(row.key).title for row in app.table.rows]


async def test_the_catalogued_rows_show_before_the_scan_and_the_status_says_checking(
    tmp_path: Path, gate: Gate
) -> None:
    root = two_memories(tmp_path)
    catalogue(root)
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: len(app.table.rows) == 2)
        assert not gate.is_set()  # no scan has run: these came from the catalog
        assert app.checking == 2
        assert [row.key for row in app.table.rows] == [SECOND, FIRST]
        assert "checking 2 files…" in status(app)
        assert "2 memories" in status(app)
        await checked(pilot, app, gate)
        assert "checking" not in status(app)
        assert [row.key for row in app.table.rows] == [SECOND, FIRST]
        assert app.memory_for(FIRST) is app.curator.get(FIRST)


async def test_a_file_changed_since_the_catalog_shows_its_new_content_after_the_check(
    tmp_path: Path, gate: Gate
) -> None:
    root = two_memories(tmp_path)
    catalogue(root)
    changed = root / FIRST
    changed.write_text(memory("2026-01-01", "First as it is now"), encoding="utf-8")
    later = changed.stat().st_mtime_ns + 5_000_000_000
    os.utime(changed, ns=(later, later))
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: len(app.table.rows) == 2)
        assert "First as catalogued" in titles(app)
        gate.set()
        assert await until(pilot, lambda: app.checking is None)
        await pilot.pause()
        assert "First as it is now" in titles(app)
        assert "First as catalogued" not in titles(app)


async def test_keys_that_change_or_open_a_form_wait_for_the_check_then_run_in_order(
    tmp_path: Path, gate: Gate
) -> None:
    root = two_memories(tmp_path)
    catalogue(root)
    before = (root / SECOND).read_bytes()
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: len(app.table.rows) == 2)
        await tap(pilot, "c", "e")
        assert await until(pilot, lambda: any("still being checked (2)" in m for m in said(app)))
        assert len(app.screen_stack) == 1  # the form waits too
        assert (root / SECOND).read_bytes() == before  # nothing written from unchecked records
        gate.set()
        assert await until(pilot, lambda: isinstance(app.screen, MemoryForm))
        # Mounted with its fields before the test ends: an app closed while a screen mounts
        # takes its children away under the screen's on_mount.
        assert await until(pilot, lambda: bool(app.screen.query("#field-heading")))
        await pilot.pause()
        assert await until(pilot, lambda: (root / SECOND).read_bytes() != before)
        assert "critical: true" in (root / SECOND).read_text(encoding="utf-8")
        assert app.screen.memory.path == SECOND


async def test_a_damaged_catalog_is_said_once_as_a_warning(tmp_path: Path) -> None:
    root = two_memories(tmp_path)
    catalogue(root)
    folder = catalog_module.cache_folder()
    assert folder is not None
    (database,) = folder.glob("catalog-*.sqlite")
    database.write_bytes(b"\x00garbage" * 5000)
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        warned = [
            entry
            for entry in app.notices.log.newest_first()
            if entry.title == "Catalog" and "damaged" in entry.message
        ]
        assert len(warned) == 1
        assert warned[0].severity == "warning"
        assert len(app.table.rows) == 2  # rebuilt from the files: nothing lost


async def test_without_a_catalog_the_app_reads_the_files_as_before(
    tmp_path: Path, gate: Gate
) -> None:
    root = two_memories(tmp_path)
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        # The scan waits at the gate: past the catalog, which had nothing to draw.
        assert await until(pilot, gate.reached.is_set)
        await drawn(pilot)
        assert app.checking is None
        assert app.memory_tree is None  # nothing to draw until the files are read
        assert not app.table.rows
        gate.set()
        assert await until(pilot, lambda: len(app.table.rows) == 2)
        assert app.memory_tree is not None
        assert {m.path for m in app.memory_tree.of_kind(Kind.SHORT_TERM)} == {FIRST, SECOND}


async def test_a_change_asked_for_while_checking_keeps_what_another_program_wrote(
    tmp_path: Path, gate: Gate
) -> None:
    """The change is worked out once the files are checked, from the file as it is now: another
    program's edit since the catalog was written is kept, and only the key asked for is added."""
    root = two_memories(tmp_path)
    catalogue(root)
    edited = memory("2026-01-01", "First as catalogued").replace("low", "high")
    (root / FIRST).write_text(edited, encoding="utf-8")
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: "checking" in status(app))
        assert app.table.selected_key == SECOND  # newest first
        await tap(pilot, "down")
        assert app.memory_for(FIRST).importance == "low"  # as catalogued
        await tap(pilot, "c")
        gate.set()
        assert await until(pilot, lambda: "critical" in (root / FIRST).read_text("utf-8"))
        await pilot.app.workers.wait_for_complete()
        assert (root / FIRST).read_text(encoding="utf-8") == edited.replace(
            "importance: high\n", "importance: high\ncritical: true\n"
        )


async def test_a_screen_over_the_whole_tree_opens_only_on_the_checked_tree(
    tmp_path: Path, gate: Gate
) -> None:
    from samantha_tui.ui.screens.stats import StatsScreen

    root = two_memories(tmp_path)
    catalogue(root)
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: "checking" in status(app))
        await tap(pilot, "s")
        assert await until(pilot, lambda: any("still being checked" in m for m in said(app)))
        assert not isinstance(app.screen, StatsScreen)
        gate.set()
        assert await until(pilot, lambda: isinstance(app.screen, StatsScreen))
        # It counts the checked records (with the catalogued ones there would be none yet).
        assert await until(pilot, lambda: getattr(app.screen, "numbers", None) is not None)
        assert app.screen.numbers.total == 2


async def test_while_checking_the_list_holds_entries_and_only_a_previewed_record_is_loaded(
    tmp_path: Path, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = two_memories(tmp_path)
    catalogue(root)
    loaded: list[str] = []
    real_records = catalog_module.Catalog.records

    def counted(self, paths, today):
        paths = list(paths)
        loaded.extend(paths)
        return real_records(self, paths, today)

    def refused(self, today):
        raise AssertionError("the first frame loaded every record")

    monkeypatch.setattr(catalog_module.Catalog, "records", counted)
    monkeypatch.setattr(catalog_module.Catalog, "catalogued", refused)
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: len(app.table.rows) == 2)
        assert all(isinstance(m, Listed) for m in app.memory_tree.memories)
        assert await until(pilot, lambda: previewed(app) == SECOND)
        assert loaded == [SECOND]  # the selected row's record, for its preview, and no other
        await tap(pilot, "down")
        assert await until(pilot, lambda: previewed(app) == FIRST)
        assert loaded == [SECOND, FIRST]
        await tap(pilot, "up", "down", "up")
        assert await until(pilot, lambda: previewed(app) == SECOND)
        assert await until(pilot, lambda: not app.preview.body_pending)
        assert loaded == [SECOND, FIRST]  # kept, not loaded again
        await checked(pilot, app, gate)
        assert all(isinstance(m, Memory) for m in app.memory_tree.memories)
        assert app.memory_for(SECOND) is app.curator.get(SECOND)


async def test_the_reader_opens_on_a_catalogued_record_while_checking(
    tmp_path: Path, gate: Gate
) -> None:
    root = two_memories(tmp_path)
    catalogue(root)
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: len(app.table.rows) == 2)
        await tap(pilot, "down", "enter")
        assert await until(pilot, lambda: isinstance(app.screen, ReaderScreen))
        # Drawn before the test goes on: an app closed while the reader fills itself takes its
        # parts away under it.
        assert await until(pilot, lambda: bool(app.screen.query(".reader-note")))
        assert app.screen.memory.path == FIRST
        assert app.screen.memory.body.strip().endswith("Body.")
        assert not gate.is_set()
        await checked(pilot, app, gate)
        await pilot.press("escape")  # the checked tree shows again in it: closed once drawn
        assert await until(pilot, lambda: len(app.screen_stack) == 1)
        await app.workers.wait_for_complete()

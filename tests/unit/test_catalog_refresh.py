"""`Catalog.refresh`: the rows brought in step with the files from their stats alone. After any
sequence of edits, renames, deletions, same-size rewrites with the mtime set back and companion
changes, a refresh leaves `catalogued()` equal to a scan without the catalog; its Delta says what
changed; its generation moves with every commit that changes rows and with no other; the stamp
spares a read of the rows only while nothing changed."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samantha_tui.core.basics.model import Memory
from samantha_tui.core.reading import catalog
from samantha_tui.core.reading.catalog import STAMP, Catalog
from samantha_tui.core.reading.catalog_list import entry_of
from samantha_tui.core.reading.scan import refresh, scan

from ..conftest import ST, TODAY, make_tree, memory_text
from ..fresh_python import locked_by_another_process, run_fresh
from ..processes import next_tick
from ..tiers import examples
from .test_catalog_properties import OLD_NS, PATHS, STEPS, apply, text, write


@pytest.fixture(autouse=True)
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's clock a minute on: files the test writes are settled, not racy."""
    monkeypatch.setattr(catalog, "_now_ns", lambda: time.time_ns() + 60 * 10**9)


def without_catalog(root: Path) -> list[Memory]:
    with Catalog.open(root, {catalog.CACHE_ENV: "off"}) as off:
        return list(scan(root, TODAY, off).memories)


def stamp_of(opened: Catalog) -> str | None:
    row = opened.connection.execute("SELECT value FROM meta WHERE key = ?", (STAMP,)).fetchone()
    return row[0] if row else None


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS, scans=st.lists(st.sampled_from(["refresh", "scan", "reopen"]), min_size=10))
def test_a_refresh_after_any_changes_catalogues_what_a_scan_without_it_reads(steps, scans) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = make_tree(Path(scratch) / "tree", {})
        cache = {catalog.CACHE_ENV: str(Path(scratch) / "cache")}
        for number, rel in enumerate(PATHS[:4]):
            write(root, rel, text(("low", "mid", "top")[number % 3], number), OLD_NS)
        opened = Catalog.open(root, cache)
        try:
            previous = {m.path: m for m in scan(root, TODAY, opened).memories}
            for step, how in zip(steps, scans, strict=False):
                next_tick(Path(scratch))
                apply(root, step)
                if how == "reopen":  # a new process, as it were
                    opened.close()
                    opened = Catalog.open(root, cache)
                elif how == "scan":  # the app's scan moves the rows between two refreshes
                    previous = {m.path: m for m in scan(root, TODAY, opened).memories}
                    next_tick(Path(scratch))
                    apply(root, (step[0], step[1] + 1, step[2] + 1))
                before = opened.generation()
                refreshed = refresh(root, TODAY, opened)
                expected = without_catalog(root)
                assert refreshed.in_step and opened.notice is None
                assert opened.catalogued(TODAY) == expected, step
                assert opened.listed() == [entry_of(m) for m in expected], step
                with Catalog.open(root, cache) as other:
                    assert other.catalogued(TODAY) == expected
                now = {m.path: m for m in expected}
                changed = {m.path for m in refreshed.delta.changed}
                assert {p for p, m in now.items() if previous.get(p) != m} <= changed
                assert set(refreshed.delta.removed) == previous.keys() - now.keys()
                assert {m.path: m for m in refreshed.delta.changed}.items() <= now.items()
                if refreshed.moved is None:
                    assert opened.generation() == before
                else:
                    assert refreshed.moved == (before, before + 1) == (before, opened.generation())
                # A second refresh finds nothing to do, and commits nothing.
                again = refresh(root, TODAY, opened)
                assert (again.delta.changed, again.delta.removed, again.moved) == ((), (), None)
                previous = now
        finally:
            opened.close()


def test_an_unchanged_tree_is_refreshed_without_reading_a_row(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tree", {f"{ST}/2026-06-0{n}_m.md": memory_text() for n in (1, 2)})
    with Catalog.open(root) as opened:
        first = refresh(root, TODAY, opened)
        assert len(first.delta.changed) == 2 and first.moved == (0, 1)
        assert stamp_of(opened) is not None and stamp_of(opened).startswith("1:")
        statements: list[str] = []
        opened.connection.set_trace_callback(statements.append)
        assert refresh(root, TODAY, opened).moved is None
        assert not [s for s in statements if "FROM records" in s]
        # A same-size rewrite with the mtime set back changes the ctime: the stamp no longer
        # holds, the rows are compared, and the file is read.
        path = root / ST / "2026-06-01_m.md"
        info = path.stat()
        next_tick(tmp_path)
        path.write_text(memory_text().replace("Body text.", "Body tex!."), encoding="utf-8")
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
        statements.clear()
        changed = refresh(root, TODAY, opened)
        assert [m.path for m in changed.delta.changed] == [f"{ST}/2026-06-01_m.md"]
        assert "Body tex!." in changed.delta.changed[0].body
        assert [s for s in statements if "FROM records" in s]


def test_a_racy_file_is_read_at_every_refresh_and_never_stamped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(catalog, "_now_ns", time.time_ns)  # the real clock: the file is racy
    rel = f"{ST}/2026-06-01_m.md"
    root = make_tree(tmp_path / "tree", {rel: memory_text()})
    reads: list[str] = []
    real = catalog.read_memory
    monkeypatch.setattr(
        catalog, "read_memory", lambda root, rel, *a: reads.append(rel) or real(root, rel, *a)
    )
    with Catalog.open(root) as opened:
        first = refresh(root, TODAY, opened)
        assert [m.path for m in first.delta.changed] == [rel] and first.moved == (0, 1)
        # Read again, found as it was: nothing written, the generation left where it was.
        second = refresh(root, TODAY, opened)
        assert reads == [rel, rel]
        assert (second.delta.changed, second.moved, stamp_of(opened)) == ((), None, None)
        monkeypatch.setattr(catalog, "_now_ns", lambda: time.time_ns() + 60 * 10**9)
        settled = refresh(root, TODAY, opened)  # trusted now: its row changes
        assert [m.path for m in settled.delta.changed] == [rel] and settled.moved == (1, 2)
        assert stamp_of(opened) == f"2:{stamp_of(opened).split(':')[1]}"
        assert refresh(root, TODAY, opened).delta.changed == ()
        assert reads == [rel, rel, rel]


def test_the_stamp_is_not_kept_when_another_commit_came_between(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tree", {f"{ST}/2026-06-01_m.md": memory_text()})
    with Catalog.open(root) as opened:
        scan(root, TODAY, opened)
        generation = opened.generation()
        opened.update([], [f"{ST}/gone.md"])  # a commit that changes no row of a listed file
        opened._keep_stamp(generation, "digest of rows as they were")
        assert stamp_of(opened) is None
        opened._keep_stamp(opened.generation(), "digest")
        assert stamp_of(opened) == f"{opened.generation()}:digest"


def test_a_locked_catalog_is_not_in_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_tree(tmp_path / "tree", {f"{ST}/2026-06-01_m.md": memory_text()})
    monkeypatch.setattr(catalog, "BUSY_TIMEOUT_S", 0.05)
    with Catalog.open(root) as opened:
        with locked_by_another_process(opened.file):
            refreshed = refresh(root, TODAY, opened)
        assert not refreshed.in_step
        assert opened.notice is not None and "locked" in opened.notice


def test_yaml_version_is_known_without_importing_yaml() -> None:
    probe = (
        "import sys\n"
        "from samantha_tui.core.reading.catalog import _yaml_version\n"
        "version = _yaml_version()\n"
        "assert 'yaml' not in sys.modules, 'yaml imported'\n"
        "import yaml\n"
        "assert version == yaml.__version__, (version, yaml.__version__)\n"
    )
    run_fresh(probe)

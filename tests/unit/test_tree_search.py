"""The headless search's fast path: the catalog refreshed from stats, the search tables following
its generation, the records of the hits alone loaded. Its answers are always those of an
in-memory index over a fresh scan: after edits, after a crash between the catalog's commit and
the tables', after the app's scans that save the catalog without touching the tables."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from samantha_tui.core.basics.model import Memory
from samantha_tui.core.reading import catalog
from samantha_tui.core.reading.catalog import Catalog
from samantha_tui.core.reading.scan import refresh, scan
from samantha_tui.core.views.search import SearchIndex
from samantha_tui.core.views.search_store import GENERATION, SearchStore
from samantha_tui.core.views.tree_search import answer_tree

from ..conftest import LT, ST, TODAY, make_tree, memory_text
from ..fresh_python import imported_after, locked_by_another_process

QUERIES = ("gateway", "gatway", "retry config", '"config loader"', "-kind:long", "importance:high")
WORDS = ("gateway", "config", "loader", "retry", "kafka", "deploy")


@pytest.fixture(autouse=True)
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's clock a minute on: files the test writes are settled, not racy."""
    monkeypatch.setattr(catalog, "_now_ns", lambda: time.time_ns() + 60 * 10**9)


def note(n: int, extra: str = "") -> str:
    importance = ("high", "medium", "low")[n % 3]
    text = memory_text(date="2026-06-01", topics=f"[{WORDS[n % 4]}]", importance=importance)
    return text.replace("# A memory", f"# {WORDS[n % 6]} {WORDS[n * 7 % 5]} note {n}{extra}")


def tree(root: Path, count: int = 120) -> Path:
    files = {f"{ST}/2026-06-01_n{n:03d}.md": note(n) for n in range(count)}
    files[f"{LT}/routing/gateway.md"] = note(999, " routing")
    return make_tree(root, files)


def edit(root: Path, n: int, extra: str) -> None:
    time.sleep(0.02)  # another tick of the clock that stamps ctimes
    (root / ST / f"2026-06-01_n{n:03d}.md").write_text(note(n, extra), encoding="utf-8")


def expected(root: Path, query: str, limit: int | None = 5):
    with Catalog.open(root, {catalog.CACHE_ENV: "off"}) as off:
        memories = scan(root, TODAY, off).memories
    return SearchIndex.build(memories, TODAY).search(query, limit), memories


def same_as_a_scan(root: Path, opened: Catalog, *more: str) -> None:
    for query in (*more, *QUERIES):
        for limit in (5, None):
            found = answer_tree(root, opened, TODAY, query, limit)
            result, memories = expected(root, query, limit)
            assert found.result == result, query
            by_path = {m.path: m for m in memories}
            assert {hit.path for hit in result.hits} == found.records.keys()
            assert all(found.records[path] == by_path[path] for path in found.records)


def in_step(opened: Catalog) -> bool:
    mine = SearchStore.open(opened.connection, TODAY)._meta(GENERATION)
    return mine == str(opened.generation()).encode()


def test_answers_are_those_of_a_fresh_scan_through_edits_renames_and_deletions(
    tmp_path: Path,
) -> None:
    root = tree(tmp_path / "tree")
    with Catalog.open(root) as opened:
        same_as_a_scan(root, opened)
        edit(root, 3, " kafka config loader")
        (root / ST / "2026-06-01_n004.md").unlink()
        os.rename(root / ST / "2026-06-01_n005.md", root / ST / "2026-06-02_renamed.md")
        same_as_a_scan(root, opened)
        assert in_step(opened)


def test_an_unchanged_tree_writes_nothing_and_loads_only_the_hits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tree(tmp_path / "tree")
    with Catalog.open(root) as opened:
        answer_tree(root, opened, TODAY, "gateway", 5)
        rebuilt: list[str] = []
        real = catalog._rebuild
        monkeypatch.setattr(catalog, "_rebuild", lambda *a: rebuilt.append(a[4]) or real(*a))
        statements: list[str] = []
        opened.connection.set_trace_callback(statements.append)
        changes = opened.connection.total_changes
        found = answer_tree(root, opened, TODAY, "gateway", 5)
        assert opened.connection.total_changes == changes
        assert not [s for s in statements if "BEGIN IMMEDIATE" in s or "FROM records" in s[-14:]]
        assert sorted(rebuilt) == sorted(found.records) == sorted(h.path for h in found.result.hits)
        assert len(rebuilt) == 5


def test_this_process_s_refresh_is_applied_as_its_delta(tmp_path: Path) -> None:
    root = tree(tmp_path / "tree")
    with Catalog.open(root) as opened:
        answer_tree(root, opened, TODAY, "gateway", 5)
        edit(root, 7, " wombat")
        statements: list[str] = []
        opened.connection.set_trace_callback(statements.append)
        found = answer_tree(root, opened, TODAY, "wombat", 5)
        assert [hit.path for hit in found.result.hits] == [f"{ST}/2026-06-01_n007.md"]
        same_as_a_scan(root, opened, "wombat")
        assert not [s for s in statements if "SELECT path, digest FROM records" in s]
        assert in_step(opened)


def test_a_crash_between_the_catalog_s_commit_and_the_tables_is_caught_up(
    tmp_path: Path,
) -> None:
    root = tree(tmp_path / "tree")
    with Catalog.open(root) as opened:
        answer_tree(root, opened, TODAY, "kafka", 5)
    edit(root, 11, " quokka")
    with Catalog.open(root) as crashed:
        refresh(root, TODAY, crashed)  # the catalog committed; the process died before the tables
        assert not in_step(crashed)
    with Catalog.open(root) as next_process:
        statements: list[str] = []
        next_process.connection.set_trace_callback(statements.append)
        found = answer_tree(root, next_process, TODAY, "quokka", 5)
        assert found.result == expected(root, "quokka")[0]
        assert [hit.path for hit in found.result.hits] == [f"{ST}/2026-06-01_n011.md"]
        # Caught up from the rows' digests, loading only the record that differs.
        assert [s for s in statements if "SELECT path, digest FROM records" in s]
        assert in_step(next_process)


def test_the_app_s_scans_that_save_the_catalog_alone_are_caught_up(tmp_path: Path) -> None:
    root = tree(tmp_path / "tree")
    with Catalog.open(root) as opened:
        answer_tree(root, opened, TODAY, "deploy", 5)
        edit(root, 20, " deploy deploy")
        scan(root, TODAY, opened)  # the app: the catalog saved, the search tables untouched
        assert not in_step(opened)
        (root / ST / "2026-06-01_n021.md").unlink()
        opened.update([], [f"{ST}/2026-06-01_n021.md"])  # the app's watcher takes the deletion in
        same_as_a_scan(root, opened)
        assert in_step(opened)


def test_tables_synced_from_records_given_are_not_taken_for_the_catalog_s(tmp_path: Path) -> None:
    root = tree(tmp_path / "tree", 30)
    with Catalog.open(root) as opened:
        answer_tree(root, opened, TODAY, "gateway", 5)
        store = SearchStore.open(opened.connection, TODAY)
        memories: list[Memory] = list(scan(root, TODAY, opened).memories)
        store.sync(memories[:10])  # some other caller's records
        assert not in_step(opened)
        same_as_a_scan(root, opened)


def test_damaged_tables_are_rebuilt_from_the_catalog(tmp_path: Path) -> None:
    root = tree(tmp_path / "tree", 40)
    with Catalog.open(root) as opened:
        answer_tree(root, opened, TODAY, "gateway", 5)
        opened.connection.execute("UPDATE search_postings SET ids = x'010203'")
        same_as_a_scan(root, opened)


def test_a_locked_catalog_answers_from_a_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tree(tmp_path / "tree", 30)
    monkeypatch.setattr(catalog, "BUSY_TIMEOUT_S", 0.05)
    with Catalog.open(root) as opened:
        answer_tree(root, opened, TODAY, "gateway", 5)
        edit(root, 2, " quokka")
        with locked_by_another_process(opened.file):
            found = answer_tree(root, opened, TODAY, "quokka", 5)
        assert found.result == expected(root, "quokka")[0]
        assert [hit.path for hit in found.result.hits] == [f"{ST}/2026-06-01_n002.md"]
        assert opened.notice is not None and "locked" in opened.notice


def test_the_command_imports_no_store_indexes_writer_or_textual() -> None:
    modules = imported_after(
        "import samantha_tui.core.views.tree_search, samantha_tui.core.reading.catalog"
    )
    heavy = [
        m
        for m in modules
        if m.split(".")[0] in ("textual", "rich", "yaml")
        or m.startswith(
            (
                "samantha_tui.core.writing.store",
                "samantha_tui.core.views.indexes",
                "samantha_tui.core.writing.curator",
                "samantha_tui.core.writing.atomic",
                "samantha_tui.core.reading.frontmatter",
                "samantha_tui.core.reading.reader",
            )
        )
    ]
    assert heavy == []


def test_a_damaged_row_of_a_hit_is_read_from_its_file(tmp_path: Path) -> None:
    root = tree(tmp_path / "tree", 30)
    rel = f"{LT}/routing/gateway.md"
    with Catalog.open(root) as opened:
        answer_tree(root, opened, TODAY, "routing", 5)
        opened.connection.execute(
            "UPDATE records SET body = CAST('# Not what the file says' AS BLOB) WHERE path = ?",
            (rel.encode(),),
        )
        found = answer_tree(root, opened, TODAY, "routing", 5)
        assert found.result == expected(root, "routing")[0]
        assert found.records[rel] == {m.path: m for m in expected(root, "routing")[1]}[rel]
        assert opened.notice is not None and "unreadable row" in opened.notice
        # Catalogued anew, as read from the file.
        (body,) = opened.connection.execute(
            "SELECT body FROM records WHERE path = ?", (rel.encode(),)
        ).fetchone()
        assert body == found.records[rel].body.encode()

"""The search tables: kept in step, read only where a query needs them, rebuilt when unusable,
and the `search` command answered from them with its output unchanged."""

from __future__ import annotations

import dataclasses
import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.reading.catalog import cache_folder, catalog_file
from samantha_tui.core.views.search import SearchIndex
from samantha_tui.core.views.search_store import VERSION, SearchStore, answer

from ..conftest import TODAY
from .test_search_store_properties import _contents

QUERIES = ("gateway", "gatway", "g", '"config loader"', "critical", "-kind:long", "age:<30d", "")


def mem(stem: str, title: str, *, days: int = 10, critical: bool = False, **fields) -> Memory:
    return Memory(
        kind=fields.pop("kind", Kind.SHORT_TERM),
        path=f"{Kind.SHORT_TERM.folder}/{stem}.md",
        title=title,
        body=fields.pop("body", f"# {title}\n"),
        date=TODAY - dt.timedelta(days=days),
        critical=critical,
        importance=fields.pop("importance", "medium"),
        **fields,
    )


def many(count: int) -> list[Memory]:
    words = ("gateway", "config", "loader", "retry", "kafka", "deploy")
    return [
        mem(
            f"m{n:04d}",
            f"{words[n % 6]} {words[n * 7 % 5]} note {n}",
            days=n % 97,
            critical=n % 31 == 0,
            importance=("high", "medium", "low")[n % 3],
            topics=(words[n % 4],),
        )
        for n in range(count)
    ]


def same_answers(store: SearchStore, memories: list[Memory]) -> None:
    index = SearchIndex.build(memories, TODAY)
    for query in QUERIES:
        for limit in (None, 3):
            assert store.search(query, limit) == index.search(query, limit), query


def fresh(memories: list[Memory]) -> SearchStore:
    store = SearchStore.open(sqlite3.connect(":memory:"), TODAY)
    store.sync(memories)
    return store


def test_a_few_changes_among_many_are_placed_as_a_rebuild_places_them() -> None:
    before = many(300)
    after = [*before[:100], *before[103:]]  # three removed
    after[5] = dataclasses.replace(after[5], title="Kafka gateway retry", critical=True)
    after.append(mem("new", "A new gateway note", importance="high"))
    store = fresh(before)
    store.sync(after)  # four changes of 300: patched in place, not rebuilt
    assert _contents(store._db) == _contents(fresh(after)._db)
    same_answers(store, after)


def test_an_unchanged_tree_is_checked_without_writing_or_reading_every_row() -> None:
    memories = many(50)
    store = fresh(memories)
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)
    changes = store._db.total_changes
    store.sync(memories)
    result = store.search("kafka retry", 5)
    assert store._db.total_changes == changes
    assert not [s for s in statements if "FROM search_docs" in s and "WHERE" not in s]
    assert result == SearchIndex.build(memories, TODAY).search("kafka retry", 5)


def test_a_query_reads_the_rows_of_its_hits_not_of_every_memory() -> None:
    memories = many(400)
    store = fresh(memories)
    read: list[str] = []
    store._db.set_trace_callback(read.append)
    store.search("loader note", 5)
    ids = sum(s.count(",") + 1 for s in read if s.startswith("SELECT id, path"))
    assert 0 < ids < len(memories) // 4


def test_tables_of_another_version_are_made_anew(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "s.sqlite")
    fresh_store = SearchStore.open(db, TODAY)
    fresh_store.sync(many(20))
    db.execute("UPDATE search_meta SET value = ? WHERE key = 'version'", (b"0:old",))
    db.commit()
    store = SearchStore.open(db, TODAY)
    assert store.rebuilt and len(store) == 0
    store.sync(many(20))
    same_answers(store, many(20))
    assert db.execute("SELECT value FROM search_meta WHERE key='version'").fetchone() == (
        VERSION.encode(),
    )


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE search_postings SET ids = x'010203'",
        "UPDATE search_meta SET value = x'0102' WHERE key = 'order'",
        "UPDATE search_meta SET value = 'text' WHERE key = 'head'",
        "UPDATE search_facets SET value = value || 'x'",
        "UPDATE search_docs SET title = 12",
        "DELETE FROM search_docs WHERE id < 5",
        "DROP TABLE search_postings",
    ],
)
def test_damaged_tables_are_rebuilt_and_the_answer_is_still_right(damage: str) -> None:
    memories = many(40)
    db = sqlite3.connect(":memory:")
    SearchStore.open(db, TODAY).sync(memories)
    db.execute(damage)
    db.commit()
    index = SearchIndex.build(memories, TODAY)
    for query in ("gateway", "kafka -critical", "importance:high", ""):
        assert answer(db, memories, TODAY, query, 10) == index.search(query, 10), query


def test_a_file_that_is_no_database_gives_the_in_memory_answer(tmp_path: Path) -> None:
    file = tmp_path / "junk.sqlite"
    file.write_bytes(b"not a database at all" * 100)
    memories = many(10)
    result = answer(sqlite3.connect(file), memories, TODAY, "gateway")
    assert result == SearchIndex.build(memories, TODAY).search("gateway")
    assert answer(None, memories, TODAY, "age:abc").error is not None


def test_odd_names_and_control_characters_come_back_as_they_were() -> None:
    memories = [
        mem("caf\udcff", "Gateway \x00 caf\udcff", topics=("a\udcffb", "ci")),
        mem("plain", "Gateway İstanbul straße", project="at\x1blas"),
    ]
    store = fresh(memories)
    same_answers(store, memories)
    assert store.search("topic:a\udcffb") == SearchIndex.build(memories, TODAY).search(
        "topic:a\udcffb"
    )
    assert {hit.path for hit in store.search("gateway").hits} == {m.path for m in memories}


def test_the_command_answers_from_the_tables_as_before(
    demo_root: Path, capsys, monkeypatch
) -> None:
    argv = ["search", "--tree", str(demo_root), "gateway", "config", "--limit", "5"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0  # now from the kept tables
    assert capsys.readouterr().out == first
    assert main([*argv, "--json"]) == 0
    assert '"total"' in capsys.readouterr().out
    # An edit reaches the next answer, which is what a search without the tables gives.
    target = next(demo_root.rglob("*gateway_config_loader.md"))
    target.write_text(target.read_text().replace("Gateway Config Loader", "Kafka Only"))
    assert main(argv) == 0
    edited = capsys.readouterr().out
    assert "Kafka Only" in edited and "Gateway Config Loader" not in edited
    monkeypatch.setenv("SAMANTHA_TUI_CACHE", "off")
    assert main(argv) == 0
    assert capsys.readouterr().out == edited


def test_the_command_without_a_cache_answers_the_same(demo_root: Path, capsys, monkeypatch) -> None:
    argv = ["search", "--tree", str(demo_root), "--", "critical", "-kind:long"]
    assert main(argv) == 0
    kept = capsys.readouterr().out
    monkeypatch.setenv("SAMANTHA_TUI_CACHE", "off")
    assert main(argv) == 0
    assert capsys.readouterr().out == kept


def test_a_kept_store_sees_what_another_process_wrote(tmp_path: Path) -> None:
    file = tmp_path / "shared.sqlite"
    mine = SearchStore.open(sqlite3.connect(file), TODAY)
    mine.sync(many(30))
    assert mine.search("kafka", 5) == SearchIndex.build(many(30), TODAY).search("kafka", 5)
    other = SearchStore.open(sqlite3.connect(file), TODAY)
    changed = [dataclasses.replace(m, title=f"kafka first {m.title}") for m in many(30)[::-1]]
    other.rebuild(changed[:12])  # new ids for other records
    assert mine.search("kafka", 5) == SearchIndex.build(changed[:12], TODAY).search("kafka", 5)


def test_a_catalog_that_is_no_database_is_made_anew(demo_root: Path, capsys) -> None:
    argv = ["search", "--tree", str(demo_root), "gateway"]
    assert main(argv) == 0
    expected = capsys.readouterr().out
    file = catalog_file(cache_folder(), demo_root.resolve())
    for suffix in ("-wal", "-shm"):
        Path(f"{file}{suffix}").unlink(missing_ok=True)
    file.write_bytes(b"garbage, not sqlite" * 200)
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out == expected
    assert "was damaged" in err and "rebuilt" in err
    assert file.read_bytes().startswith(b"SQLite format 3")

"""Vectors are embedded once per file content and kept by digest, in memory or in the catalog."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from samantha_tui.core.reading.catalog import Catalog
from samantha_tui.core.views.meaning.model import Engine, load_engine
from samantha_tui.core.views.meaning.text import embedding_text
from samantha_tui.core.views.meaning.vectors import (
    WIDTH,
    MemoryVectors,
    cache_name,
    vectors_for,
    words_of,
)
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY, make_tree
from ..fresh_python import run_fresh


class Counting:
    """The real engine, counting the texts it is asked to embed."""

    def __init__(self) -> None:
        engine = load_engine()
        assert isinstance(engine, Engine)
        self.engine = engine
        self.name = engine.name
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += texts
        return self.engine.embed(texts)


def note(title: str, body: str) -> str:
    return f"---\ndate: 2026-06-01\ntopics: [ci]\n---\n\n# {title}\n\n{body}\n"


FILES = {
    f"{ST}/2026-06-01_pnpm.md": note("Use pnpm", "Install packages with pnpm."),
    f"{ST}/2026-06-02_tests.md": note("Run tests", "Run the suite before pushing."),
    f"{ST}/2026-06-03_utc.md": note("Dates in UTC", "Store timestamps in UTC."),
}


def scanned(tmp_path: Path) -> Store:
    store = Store(make_tree(tmp_path / "cerebrum", FILES), lambda: TODAY)
    store.scan()
    return store


def test_a_second_call_embeds_nothing_and_a_changed_file_is_embedded_again(
    tmp_path: Path,
) -> None:
    store = scanned(tmp_path)
    engine, cache = Counting(), MemoryVectors()
    first = vectors_for(store.tree.memories, engine, cache)
    assert first.embedded == 3 and len(engine.texts) == 3
    again = vectors_for(store.tree.memories, engine, cache)
    assert again.embedded == 0 and len(engine.texts) == 3
    assert np.array_equal(first.matrix, again.matrix)
    (store.root / f"{ST}/2026-06-03_utc.md").write_text(
        note("Dates in UTC", "Store every timestamp in UTC, show local time."), encoding="utf-8"
    )
    store.scan()
    changed = vectors_for(store.tree.memories, engine, cache)
    assert changed.embedded == 1 and "show local time" in engine.texts[-1]
    row = changed.row_of[f"{ST}/2026-06-03_utc.md"]
    assert not np.array_equal(changed.matrix[row], first.matrix[row])
    assert changed.paths == tuple(m.path for m in store.tree.memories)
    assert changed.digests == tuple(m.digest for m in store.tree.memories)


def test_a_vector_is_never_read_under_another_models_name(tmp_path: Path) -> None:
    store = scanned(tmp_path)
    engine, cache = Counting(), MemoryVectors()
    vectors_for(store.tree.memories, engine, cache)
    engine.name = "another-model"
    assert vectors_for(store.tree.memories, engine, cache).embedded == 3


KEEPS = """
import datetime as dt, json, sys
from pathlib import Path
from samantha_tui.core.views.meaning.model import load_engine
from samantha_tui.core.views.meaning.vectors import vectors_for
from samantha_tui.core.writing.store import Store
store = Store(Path(sys.argv[1]), lambda: dt.date(2026, 6, 14))
store.scan()
vectors = vectors_for(store.tree.memories, load_engine(), store.catalog())
print(json.dumps({"embedded": vectors.embedded, "first": vectors.matrix[0].tolist()}))
"""


def test_the_catalog_keeps_vectors_across_processes(tmp_path: Path) -> None:
    root = scanned(tmp_path).root
    code = KEEPS.replace("sys.argv[1]", repr(str(root)))
    first = json.loads(run_fresh(code).splitlines()[-1])
    second = json.loads(run_fresh(code).splitlines()[-1])
    assert first["embedded"] == 3 and second["embedded"] == 0
    assert second["first"] == first["first"]


def test_an_older_catalog_without_the_table_gains_it_and_keeps_its_records(
    tmp_path: Path,
) -> None:
    store = scanned(tmp_path)
    catalog = store.catalog()
    assert catalog.file is not None
    tables = {n for (n,) in catalog.connection.execute("SELECT name FROM sqlite_master")}
    assert "vectors" not in tables  # made at its first use, not with the catalog
    engine = Counting()
    vectors_for(store.tree.memories, engine, catalog)
    store.close()
    reopened = Catalog.open(store.root)
    assert reopened.notice is None  # not rebuilt: the records are still there
    assert len(reopened.digests()) == 3
    digests = [m.digest for m in store.tree.memories]
    assert set(reopened.vectors(cache_name(engine), digests, WIDTH)) == set(digests)
    reopened.close()


def test_vectors_of_files_gone_are_dropped_and_a_damaged_vector_is_embedded_again(
    tmp_path: Path,
) -> None:
    store = scanned(tmp_path)
    engine = Counting()
    vectors_for(store.tree.memories, engine, store.catalog())
    (store.root / f"{ST}/2026-06-01_pnpm.md").unlink()
    store.scan()
    database = store.catalog().file
    assert database is not None
    with sqlite3.connect(database) as db:
        db.execute("UPDATE vectors SET vector = x'00'")
    fresh = vectors_for(store.tree.memories, engine, store.catalog())
    assert fresh.embedded == 2  # a vector of the wrong length is no vector
    with sqlite3.connect(database) as db:
        kept = {d for (d,) in db.execute("SELECT digest FROM vectors")}
    assert kept == {m.digest for m in store.tree.memories}


def test_each_vector_keeps_its_texts_word_count_and_a_row_kept_without_one_is_embedded_again(
    tmp_path: Path,
) -> None:
    """The pass's thresholds depend on the words of each text; they are kept with the vector,
    so a pass over vectors from the catalog makes no text to count them."""
    store = scanned(tmp_path)
    engine = Counting()
    first = vectors_for(store.tree.memories, engine, store.catalog())
    expected = [words_of(embedding_text(m)) for m in store.tree.memories]
    assert first.words.tolist() == expected and min(expected) > 3
    kept = vectors_for(store.tree.memories, engine, store.catalog())
    assert kept.embedded == 0 and kept.words.tolist() == expected
    database = store.catalog().file
    assert database is not None
    with sqlite3.connect(database) as db:  # a row as kept before the count was: the vector only
        db.execute("UPDATE vectors SET vector = substr(vector, 1, 1024)")
    again = vectors_for(store.tree.memories, engine, store.catalog())
    assert again.embedded == 3 and again.words.tolist() == expected
    assert np.array_equal(again.matrix, first.matrix)


def test_a_locked_catalog_costs_only_embedding_again(tmp_path: Path) -> None:
    from ..fresh_python import locked_by_another_process

    store = scanned(tmp_path)
    catalog = store.catalog()
    assert catalog.file is not None
    engine = Counting()
    with locked_by_another_process(catalog.file):
        locked = vectors_for(store.tree.memories, engine, catalog)
    assert locked.embedded == 3 and locked.matrix.shape == (3, 256)
    assert vectors_for(store.tree.memories, engine, catalog).embedded == 3


@pytest.mark.parametrize("digest", ["", "text"])
def test_a_record_without_a_digest_is_kept_by_its_text(digest: str) -> None:
    from samantha_tui.core.basics.model import Kind, Memory

    memory = Memory(Kind.SHORT_TERM, f"{ST}/x.md", "Loose note", body="Some words here.")
    if digest:
        memory = Memory(Kind.SHORT_TERM, f"{ST}/x.md", "Loose note", body="Words.", digest="d1")
    engine, cache = Counting(), MemoryVectors()
    vectors_for([memory], engine, cache)
    assert vectors_for([memory], engine, cache).embedded == 0


class CountingCache(MemoryVectors):
    """A catalog stand-in that counts the digests asked of it."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def vectors(self, model: str, digests, width: int) -> dict[str, bytes]:
        wanted = list(digests)
        self.asked += len(wanted)
        return super().vectors(model, wanted, width)


def test_the_memory_shown_next_reads_no_vector_from_the_catalog_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview asks for the memories related to each one it shows: the vectors read from
    the catalog (or kept in it) once are this process's from then on."""
    from samantha_tui.core.views.meaning import vectors as vectors_module
    from samantha_tui.core.views.meaning.analysis import related_to

    monkeypatch.setattr(vectors_module, "PROCESS_VECTORS", MemoryVectors())
    store = scanned(tmp_path)
    back = CountingCache()
    first, second = list(FILES)[:2]
    related_to(first, store.tree.memories, back)
    asked = back.asked
    related_to(second, store.tree.memories, back)
    assert asked == len(FILES), "the first call looks every memory up in the catalog"
    assert back.asked == asked, "the second reads nothing from it"


def test_a_reading_in_slices_prunes_once_and_keeps_every_slice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pruning reads the whole records table: with the vectors kept a slice at a time it is
    done with the first slice only, and every slice's vectors are kept."""
    from samantha_tui.core.views.meaning import vectors as vectors_module

    monkeypatch.setattr(vectors_module, "EMBED_SLICE", 1)
    store = scanned(tmp_path)
    catalog = store.catalog()
    prunes: list[bool] = []
    keep = catalog.keep_vectors

    def recorded(model: str, vectors: dict[str, bytes], prune: bool = True) -> None:
        prunes.append(prune)
        keep(model, vectors, prune)

    monkeypatch.setattr(catalog, "keep_vectors", recorded)
    engine = Counting()
    first = vectors_for(store.tree.memories, engine, catalog)
    assert prunes == [True, False, False]
    again = vectors_for(store.tree.memories, engine, catalog)
    assert again.embedded == 0 and np.array_equal(again.matrix, first.matrix)

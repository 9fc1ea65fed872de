"""Search postings kept in SQLite, so a process answers a query without building an index.

The tables live in the catalog's database (any `sqlite3.Connection` will do) beside its records:
per field and token the ids of the memories holding it (`array('I')` bytes), per filter value the
same, and per memory the keys a query may need (casefolded texts for phrases, the title's words
key, the tie key, the facet values). A query reads only what it touches: the postings of its
words and their prefixes (a range of the (field, token) key), the head vocabulary as one text for
words found inside longer ones, the words of three lengths for typos, and the rows of the memories
it shows. The matching and ranking are core/views/search.py's own (`Answering`), so the answers are
exactly those of an in-memory `SearchIndex` built from the same records.

Kept in step with the records by `sync` (compares each record's path and digest with what was
indexed, through one fingerprint when nothing changed) or `apply` (a scan's changes); or with the
catalog's rows by `follow` (the catalog's generation says whether anything changed, a refresh's
Delta or the rows' digest column says what). The tables are only a cache: a version mismatch or
any damage drops and rebuilds them from the records.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
from array import array
from bisect import bisect_left
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import islice

from ... import __version__
from ..basics.model import Kind, Memory
from ..reading.catalog import Catalog, Refreshed
from .query import Query, Value
from .search import (
    FIELDS,
    HEAD_FIELDS,
    Answering,
    Entry,
    SearchIndex,
    SearchResult,
    bitset,
    casefold_with_owners,
    facet_values,
    texts_after_title,
    tie_key,
    tokens,
    words_key,
)

SCHEMA = 2
"""Bumped whenever the tables or what is kept in them change shape."""
VERSION = f"{SCHEMA}:{__version__}"
"""A package version may tokenise or read files differently: its tables are not ours to read."""
TABLES = ("search_meta", "search_docs", "search_postings", "search_facets")
REBUILD_MIN = 64
"""`sync` rebuilds the tables when more records than this and than a quarter of them changed
(in bulk it is cheaper than patching postings one by one)."""
CHUNK = 500
"""Ids bound per `IN (...)` query, well under SQLite's limit on parameters."""
HEAD_NUMBERS = tuple(FIELDS.index(field) for field in HEAD_FIELDS)
BODY_NUMBER = FIELDS.index("body")
TOP = "\U0010ffff"
"""Above every token: tokens starting with p are those in [p, p + TOP)."""
_IDS = "I" if array("I").itemsize == 4 else "L"
GENERATION = "generation"
"""The search meta key holding the catalog generation whose rows the tables mirror; empty when
they were last written from records given by a caller, which may not be the catalog's."""

_SCHEMA_SQL = """
CREATE TABLE search_meta (key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID;
CREATE TABLE search_docs (
    id INTEGER PRIMARY KEY,
    path BLOB NOT NULL UNIQUE,
    signature TEXT NOT NULL,
    critical INTEGER NOT NULL,
    importance INTEGER NOT NULL,
    day INTEGER NOT NULL,
    title BLOB NOT NULL,
    title_key TEXT NOT NULL,
    name BLOB NOT NULL,
    topics BLOB NOT NULL,
    project BLOB NOT NULL,
    body BLOB NOT NULL,
    facets TEXT NOT NULL
);
CREATE TABLE search_postings (
    field INTEGER NOT NULL, token TEXT NOT NULL, ids BLOB NOT NULL, PRIMARY KEY (field, token)
) WITHOUT ROWID;
CREATE TABLE search_facets (
    facet TEXT NOT NULL, value TEXT NOT NULL, ids BLOB NOT NULL, PRIMARY KEY (facet, value)
) WITHOUT ROWID;
"""
_DOC_COLUMNS = "critical, importance, day, title, title_key, name, topics, project, body, facets"
_TEXT_COLUMNS = ("title", "name", "topics", "project", "body")


class Damaged(Exception):
    """The search tables hold something this version did not write; they are rebuilt."""


def signature(memory: Memory) -> str:
    """What says a record is the one indexed: its file's digest, or (a record made without one)
    a digest of everything the index keeps of it."""
    if memory.digest:
        return memory.digest
    keys = (
        memory.title,
        memory.kind.slug,
        *texts_after_title(memory),
        repr(_stored_facets(memory)),
    )
    return "keys:" + hashlib.sha256("\0".join(keys).encode("utf-8", "surrogatepass")).hexdigest()


def fingerprint(memories: Iterable[Memory]) -> str:
    """One digest of every record's path and signature, in the order given (a scan's order is
    the same from run to run; another order only costs a comparison row by row)."""
    # Whole-list steps (map, zip, join) keep the per-record work in C: this runs on every search.
    memories = list(memories)
    signatures = [memory.digest for memory in memories]
    if not all(signatures):
        signatures = [memory.digest or signature(memory) for memory in memories]
    paths = "\0".join([memory.path for memory in memories]).encode("utf-8", "surrogatepass")
    digest = hashlib.sha256(paths)
    digest.update("\0".join(signatures).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class SearchStore(Answering):
    """The search keys of a tree in SQLite tables, answered through `Answering`.

    `open` never raises for the tables' state: missing, of another version or damaged, they are
    made anew (empty, `rebuilt` set) and `sync` fills them. SQLite errors of the database itself
    (locked, read-only, full) reach the caller, who can fall back to an in-memory SearchIndex.
    """

    # What was read from the tables, dropped by `_forget_reads` (declared here: `_patch_order`
    # empties the entries too).
    _postings: dict[str, _Postings]
    _entries: dict[int, Entry]

    def __init__(self, connection: sqlite3.Connection, today: dt.date) -> None:
        super().__init__(today)
        self._db = connection
        self.rebuilt = False
        """True when open found no usable tables and made them anew."""
        self._data_version: int | None = None
        self._depth = 0
        self._forget_reads()

    @classmethod
    def open(cls, connection: sqlite3.Connection, today: dt.date) -> SearchStore:
        """The store over the search tables of connection, made when missing or unusable."""
        store = cls(connection, today)
        try:
            version = store._meta("version")
        except sqlite3.DatabaseError:
            version = None
        if version != VERSION.encode():
            store._recreate()
        return store

    def __len__(self) -> int:
        return len(self._order_ids())

    # Keeping in step

    def sync(self, memories: Sequence[Memory]) -> None:
        """Make the tables index exactly these records (changed ones re-indexed, gone ones
        dropped); a cheap fingerprint check when nothing changed."""
        with self._lock:
            try:
                self._sync(memories)
            except Damaged:
                self._recreate()
                self._sync(memories)

    def apply(self, changed: Iterable[Memory], removed: Iterable[str]) -> None:
        """Re-index the changed records and drop the removed paths, in one transaction."""
        with self._lock:
            try:
                self._apply(list(changed), list(removed))
            except Damaged:
                self._recreate()
                raise
            self._set_meta("fingerprint", b"")
            self._set_meta(GENERATION, b"")

    def rebuild(self, memories: Iterable[Memory]) -> None:
        """Index exactly these records, from empty tables."""
        with self._lock:
            memories = list(memories)
            self._rebuild(memories, fingerprint(memories))

    def follow(self, catalog: Catalog, refreshed: Refreshed | None = None) -> None:
        """Make the tables index exactly the catalog's rows, which share their database.

        Nothing is written when they mirror the catalog's generation; when only `refreshed`
        (this process's refresh) moved it since, its Delta is applied; else each row's digest
        is compared with what was indexed, and only the records that differ are loaded.
        """
        if catalog.connection is not self._db:
            raise ValueError("the search tables follow the catalog of their own database")
        with self._lock:
            try:
                self._follow(catalog, refreshed)
            except Damaged:
                self._recreate()
                self._follow(catalog, refreshed)

    def _follow(self, catalog: Catalog, refreshed: Refreshed | None) -> None:
        if self._meta(GENERATION) == str(catalog.generation()).encode():
            return
        with self._transaction():
            # Judged again under the write lock, which holds the catalog's commits off too.
            generation = catalog.generation()
            mine = self._meta(GENERATION)
            if mine == str(generation).encode():
                return
            moved = refreshed.moved if refreshed is not None else None
            built = self._meta("order") is not None
            if not built and moved == (0, generation):
                # The refresh made the first rows of the catalog: its Delta holds them all.
                assert refreshed is not None
                self._rebuild(list(refreshed.delta.changed), "")
            elif (
                built
                and refreshed is not None
                and moved is not None
                and moved[1] == generation
                and mine == str(moved[0]).encode()
                and len(refreshed.delta.changed) + len(refreshed.delta.removed)
                <= max(REBUILD_MIN, len(self._order_ids()) // 4)
            ):
                self._apply(list(refreshed.delta.changed), list(refreshed.delta.removed))
            else:
                self._follow_rows(catalog, built)
            self._set_meta(GENERATION, str(generation).encode(), commit=False)
            self._set_meta("fingerprint", b"", commit=False)

    def _follow_rows(self, catalog: Catalog, built: bool) -> None:
        """Bring the tables to the catalog's rows by their digests (a record without one is
        loaded to learn its signature)."""
        today = self._today
        rows = dict(catalog.digests())
        indexed = {
            _text(path): sig
            for path, sig in self._db.execute("SELECT path, signature FROM search_docs")
        }
        undigested = [path for path, digest in rows.items() if not digest]
        signatures = {path: signature(m) for path, m in catalog.records(undigested, today).items()}
        changed = [
            path
            for path, digest in rows.items()
            if indexed.get(path) != (digest or signatures.get(path))
        ]
        removed = [path for path in indexed if path not in rows]
        if not built or len(changed) + len(removed) > max(REBUILD_MIN, len(rows) // 4):
            everything = catalog.records(None, today)
            self._rebuild(list(everything.values()), "")
            return
        if changed or removed:
            records = catalog.records(changed, today)
            # A row that holds no record of ours (an unknown kind) is not indexed at all.
            removed += [path for path in changed if path not in records and path in indexed]
            self._apply(list(records.values()), removed)

    def _sync(self, memories: Sequence[Memory]) -> None:
        wanted = fingerprint(memories)
        if self._meta("fingerprint") == wanted.encode():
            return
        indexed = {
            _text(path): sig
            for path, sig in self._db.execute("SELECT path, signature FROM search_docs")
        }
        changed = [m for m in memories if indexed.get(m.path) != signature(m)]
        present = {m.path for m in memories}
        removed = [path for path in indexed if path not in present]
        never_built = self._meta("order") is None
        if never_built or len(changed) + len(removed) > max(REBUILD_MIN, len(memories) // 4):
            self._rebuild(list(memories), wanted)
            return
        if changed or removed:
            with self._transaction():
                self._apply(changed, removed)
                self._set_meta(GENERATION, b"", commit=False)
        self._set_meta("fingerprint", wanted.encode())

    def _recreate(self) -> None:
        with self._transaction():
            for table in TABLES:
                self._db.execute(f"DROP TABLE IF EXISTS {table}")
            for statement in _SCHEMA_SQL.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute("INSERT INTO search_meta VALUES ('version', ?)", (VERSION.encode(),))
        self.rebuilt = True
        self._changed()

    def _rebuild(self, memories: list[Memory], wanted: str) -> None:
        postings: dict[tuple[int, str], list[int]] = {}
        facets: dict[tuple[str, str], list[int]] = {}
        rows = []
        keys = []
        for doc_id, memory in enumerate(memories, start=1):
            row, texts, stored = _row(memory)
            rows.append((doc_id, _blob(memory.path), signature(memory), *row))
            keys.append((tie_key(memory), doc_id))
            for number, text in enumerate(texts):
                for token in tokens(text):
                    postings.setdefault((number, token), []).append(doc_id)
            for facet, value in stored:
                facets.setdefault((facet, value), []).append(doc_id)
        keys.sort()
        with self._transaction():
            for table in TABLES[1:]:
                self._db.execute(f"DELETE FROM {table}")
            self._db.executemany(
                f"INSERT INTO search_docs (id, path, signature, {_DOC_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            self._db.executemany(
                "INSERT INTO search_postings VALUES (?, ?, ?)",
                ((f, t, _pack(ids)) for (f, t), ids in postings.items()),
            )
            self._db.executemany(
                "INSERT INTO search_facets VALUES (?, ?, ?)",
                ((f, v, _pack(ids)) for (f, v), ids in facets.items()),
            )
            self._write_order([doc_id for _, doc_id in keys])
            self._write_vocabulary({t for f, t in postings if f in HEAD_NUMBERS})
            self._set_meta("fingerprint", wanted.encode(), commit=False)
            self._set_meta(GENERATION, b"", commit=False)
        self._changed()

    def _apply(self, changed: list[Memory], removed: list[str]) -> None:
        gained: dict[tuple[int, str], set[int]] = {}
        lost: dict[tuple[int, str], set[int]] = {}
        facets_gained: dict[tuple[str, str], set[int]] = {}
        facets_lost: dict[tuple[str, str], set[int]] = {}
        moved: set[int] = set()
        placed: list[tuple[tuple[int, int, int, str], int]] = []
        with self._transaction():
            for path in {*removed, *(m.path for m in changed)}:
                old = self._db.execute(
                    f"SELECT id, {_DOC_COLUMNS} FROM search_docs WHERE path = ?", (_blob(path),)
                ).fetchone()
                if old is None:
                    continue
                doc_id = old[0]
                moved.add(doc_id)
                texts = (casefold_with_owners(_text(old[4]))[0], *map(_text, old[6:10]))
                for number, text in enumerate(texts):
                    for token in tokens(text):
                        lost.setdefault((number, token), set()).add(doc_id)
                for facet, value in _json(old[10]):
                    facets_lost.setdefault((facet, value), set()).add(doc_id)
                self._db.execute("DELETE FROM search_docs WHERE id = ?", (doc_id,))
            for memory in {m.path: m for m in changed}.values():
                row, texts, stored = _row(memory)
                cursor = self._db.execute(
                    f"INSERT INTO search_docs (path, signature, {_DOC_COLUMNS})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (_blob(memory.path), signature(memory), *row),
                )
                doc_id = cursor.lastrowid
                assert doc_id is not None
                placed.append((tie_key(memory), doc_id))
                for number, text in enumerate(texts):
                    for token in tokens(text):
                        gained.setdefault((number, token), set()).add(doc_id)
                for facet, value in stored:
                    facets_gained.setdefault((facet, value), set()).add(doc_id)
            vocabulary_moved = self._patch(
                "search_postings", "field = ? AND token = ?", gained, lost
            )
            self._patch("search_facets", "facet = ? AND value = ?", facets_gained, facets_lost)
            self._patch_order(moved, placed)
            if any(number in HEAD_NUMBERS for number, _ in vocabulary_moved):
                heads = self._db.execute(
                    "SELECT DISTINCT token FROM search_postings WHERE field < ?",
                    (len(HEAD_FIELDS),),
                )
                self._write_vocabulary({token for (token,) in heads})
        self._changed()

    def _patch(
        self,
        table: str,
        where: str,
        gained: dict[tuple, set[int]],
        lost: dict[tuple, set[int]],
    ) -> list[tuple]:
        """Apply the ids gained and lost per key; the keys that appeared or went away."""
        appeared_or_gone = []
        for key in {*gained, *lost}:
            found = self._db.execute(f"SELECT ids FROM {table} WHERE {where}", key).fetchone()
            before = set(_unpack_ordered(found[0])) if found else set()
            after = (before - lost.get(key, set())) | gained.get(key, set())
            if after == before:
                continue
            if not after:
                self._db.execute(f"DELETE FROM {table} WHERE {where}", key)
                appeared_or_gone.append(key)
            elif found:
                self._db.execute(f"UPDATE {table} SET ids = ? WHERE {where}", (_pack(after), *key))
            else:
                self._db.execute(f"INSERT INTO {table} VALUES (?, ?, ?)", (*key, _pack(after)))
                appeared_or_gone.append(key)
        return appeared_or_gone

    def _patch_order(
        self, moved: set[int], placed: list[tuple[tuple[int, int, int, str], int]]
    ) -> None:
        order = [doc_id for doc_id in self._order_ids() if doc_id not in moved]
        if len(placed) * 20 > len(order):
            # Many new places: sorting every key once beats a search per record.
            keys = [
                ((critical, importance, day, _text(path)), doc_id)
                for doc_id, critical, importance, day, path in self._db.execute(
                    "SELECT id, critical, importance, day, path FROM search_docs"
                )
            ]
            keys.sort()
            self._write_order([doc_id for _, doc_id in keys])
            return
        self._entries = {}
        for key, doc_id in sorted(placed):
            order.insert(bisect_left(order, key, key=lambda i: self._entry(i).tie_key), doc_id)
        self._write_order(order)

    def _write_order(self, order: list[int]) -> None:
        self._set_meta("order", array(_IDS, order).tobytes(), commit=False)

    def _write_vocabulary(self, heads: set[str]) -> None:
        ordered = sorted(heads)
        self._set_meta("head", ("\n" + "\n".join(ordered) + "\n").encode(), commit=False)
        by_length: dict[int, list[str]] = {}
        for token in ordered:
            if token.isalpha():
                by_length.setdefault(len(token), []).append(token)
        self._db.execute("DELETE FROM search_meta WHERE key LIKE 'typo:%'")
        self._db.executemany(
            "INSERT INTO search_meta VALUES (?, ?)",
            ((f"typo:{n}", "\n".join(words).encode()) for n, words in by_length.items()),
        )

    def _meta(self, key: str) -> bytes | None:
        row = self._db.execute("SELECT value FROM search_meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        if not isinstance(row[0], bytes):
            raise Damaged(key)
        return row[0]

    def _set_meta(self, key: str, value: bytes, commit: bool = True) -> None:
        if not commit:
            self._db.execute("INSERT OR REPLACE INTO search_meta VALUES (?, ?)", (key, value))
            return
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO search_meta VALUES (?, ?)", (key, value))

    @contextmanager
    def _transaction(self) -> Generator[None, None, None]:
        """One write transaction, whatever isolation level the connection was opened with;
        committed at the end (with anything the connection had pending), rolled back on error."""
        if self._depth:  # inside another of ours: its end commits
            yield
            return
        if not self._db.in_transaction:
            self._db.execute("BEGIN IMMEDIATE")
        # Another process may have written since anything was read: read it again.
        self._changed()
        self._depth += 1
        try:
            yield
        except BaseException:
            self._db.rollback()
            raise
        finally:
            self._depth -= 1
        self._db.commit()

    def _changed(self) -> None:
        self._version += 1
        self._forget_reads()

    def _forget_reads(self) -> None:
        """Drop everything read from the tables: a change makes it stale."""
        self._postings = {field: _Postings(self, number) for number, field in enumerate(FIELDS)}
        self._entries = {}
        self._order: list[int] | None = None
        self._live: int | None = None
        self._bound: int | None = None
        self._head: str | None = None
        self._typos: dict[int, list[str]] = {}
        self._facets: dict[str, _Facet] = {}

    # The hooks of Answering, read from the tables as a query needs them

    @contextmanager
    def _reading(self) -> Generator[None, None, None]:
        # One read transaction: every table as one commit left it, even while another process
        # writes; what was read before is dropped when another connection has committed since.
        with self._lock:
            began = not self._db.in_transaction
            if began:
                self._db.execute("BEGIN")
            try:
                version = self._db.execute("PRAGMA data_version").fetchone()[0]
                if version != self._data_version:
                    self._data_version = version
                    self._changed()
                yield
            finally:
                if began:
                    self._db.rollback()

    def _head_prefixed(self, prefix: str) -> Iterable[str]:
        found: set[str] = set()
        for number in HEAD_NUMBERS:
            found.update(self._postings_range(number, prefix))
        # A token found in one head field is now known (present or not) in all of them.
        for field in HEAD_FIELDS:
            self._postings[field].known(found)
        return sorted(found)

    def _body_prefixed(self, prefix: str) -> Iterable[str]:
        return self._postings_range(BODY_NUMBER, prefix)

    def _postings_range(self, number: int, prefix: str) -> list[str]:
        postings = self._postings[FIELDS[number]]
        rows = self._db.execute(
            "SELECT token, ids FROM search_postings WHERE field = ? AND token >= ? AND token < ?",
            (number, prefix, prefix + TOP),
        )
        found = []
        for token, ids in rows:
            postings.cache[token] = _unpack(ids)
            found.append(token)
        return found

    def _head_lines(self) -> str:
        if self._head is None:
            raw = self._meta("head")
            self._head = _text(raw) if raw else "\n"
        return self._head

    def _typo_words(self, length: int) -> list[str]:
        if length not in self._typos:
            raw = self._meta(f"typo:{length}")
            self._typos[length] = _text(raw).split("\n") if raw else []
        return self._typos[length]

    def _facet(self, field: str) -> Mapping[Value, int]:
        if field not in self._facets:
            if field == "age":
                # Ages count from today: derived from the dates at each query, never stored.
                dates = self._facet("date")
                assert isinstance(dates, _Facet)
                self._facets[field] = _Facet(
                    {_age(value, self._today): raw for value, raw in dates.raw.items()}
                )
            else:
                rows = self._db.execute(
                    "SELECT value, ids FROM search_facets WHERE facet = ?", (field,)
                )
                self._facets[field] = _Facet({_decode(value): ids for value, ids in rows})
        return self._facets[field]

    def _all_slots(self) -> int:
        if self._live is None:
            self._live = bitset(self._order_ids())
        return self._live

    def _slot_bound(self) -> int:
        if self._bound is None:
            self._bound = max(self._order_ids(), default=-1) + 1
        return self._bound

    def _texts_holding(self, position: int, slots: Iterable[int], text: str) -> dict[int, str]:
        if position == 0:
            # Titles are kept as written (their spans need it): casefolded here, short anyway.
            rows = self._rows("SELECT id, title FROM search_docs", slots)
            folded = {doc_id: casefold_with_owners(_text(title))[0] for doc_id, title in rows}
            return {doc_id: title for doc_id, title in folded.items() if text in title}
        # The other texts are kept casefolded: SQLite keeps back the rows without the text (a
        # UTF-8 byte run is found exactly where the characters are), so few rows come over.
        column = _TEXT_COLUMNS[position]
        select = f"SELECT id, {column} FROM search_docs WHERE instr({column}, ?) > 0 AND"
        return {doc_id: _text(found) for doc_id, found in self._rows(select, slots, _blob(text))}

    def _title_keys_of(self, slots: Iterable[int]) -> Mapping[int, str]:
        slots = set(slots)
        return _all_found(dict(self._rows("SELECT id, title_key FROM search_docs", slots)), slots)

    def _tie_order(self) -> Sequence[int]:
        return self._order_ids()

    def _entry(self, slot: int) -> Entry:
        entry = self._entries.get(slot)
        if entry is None:
            self._prefetch_entries((slot,))
            entry = self._entries.get(slot)
            if entry is None:
                raise Damaged(f"no row for id {slot}")
        return entry

    def _slot_of_path(self, path: str) -> int:
        row = self._db.execute("SELECT id FROM search_docs WHERE path = ?", (_blob(path),))
        found = row.fetchone()
        return found[0] if found else -1

    def _prefetch_entries(self, slots: Iterable[int]) -> None:
        missing = [slot for slot in slots if slot not in self._entries]
        query = "SELECT id, path, title, critical, importance, day FROM search_docs"
        for doc_id, path, title, critical, importance, day in self._rows(query, missing):
            title_cf, owner = casefold_with_owners(_text(title))
            key = (critical, importance, day, _text(path))
            self._entries[doc_id] = Entry(key[-1], title_cf, owner, key)

    def _prefetch_postings(self, tokens: Iterable[str]) -> None:
        head = [self._postings[field] for field in HEAD_FIELDS]
        missing = [t for t in tokens if any(t not in p.cache for p in head)]
        found: dict[tuple[int, str], bytes] = {}
        for start in range(0, len(missing), CHUNK):
            chunk = missing[start : start + CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows = self._db.execute(
                "SELECT field, token, ids FROM search_postings"
                f" WHERE field < ? AND token IN ({marks})",
                (len(HEAD_FIELDS), *chunk),
            )
            found.update(((number, token), ids) for number, token, ids in rows)
        for number, postings in zip(HEAD_NUMBERS, head, strict=True):
            for token in missing:
                ids = found.get((number, token))
                postings.cache[token] = None if ids is None else _unpack(ids)

    def _order_ids(self) -> list[int]:
        if self._order is None:
            raw = self._meta("order")
            self._order = list(_unpack_ordered(raw)) if raw else []
        return self._order

    def _rows(self, select: str, slots: Iterable[int], *before: object) -> Iterator[tuple]:
        """select's rows for the given ids, chunked under SQLite's limit on parameters; a select
        ending in AND has its own condition, with `before` as its parameters."""
        where = " " if select.endswith(" AND") else " WHERE "
        ids = iter(slots)
        while chunk := list(islice(ids, CHUNK)):
            marks = ", ".join("?" * len(chunk))
            yield from self._db.execute(f"{select}{where}id IN ({marks})", (*before, *chunk))


class _Postings(Mapping[str, int]):
    """One field's postings, read from the table a token at a time and kept for the query."""

    def __init__(self, store: SearchStore, number: int) -> None:
        self._store = store
        self._number = number
        self.cache: dict[str, int | None] = {}
        """Token -> its ids, or None when the field does not hold it."""

    def known(self, tokens: Iterable[str]) -> None:
        """Record that tokens not yet read are absent from this field."""
        for token in tokens:
            self.cache.setdefault(token, None)

    def _get(self, token: str) -> int | None:
        if token not in self.cache:
            row = self._store._db.execute(
                "SELECT ids FROM search_postings WHERE field = ? AND token = ?",
                (self._number, token),
            ).fetchone()
            self.cache[token] = _unpack(row[0]) if row else None
        return self.cache[token]

    def __contains__(self, token: object) -> bool:
        return isinstance(token, str) and self._get(token) is not None

    def __getitem__(self, token: str) -> int:
        ids = self._get(token)
        if ids is None:
            raise KeyError(token)
        return ids

    def __iter__(self) -> Iterator[str]:
        rows = self._store._db.execute(
            "SELECT token FROM search_postings WHERE field = ?", (self._number,)
        )
        return (token for (token,) in rows)

    def __len__(self) -> int:
        row = self._store._db.execute(
            "SELECT COUNT(*) FROM search_postings WHERE field = ?", (self._number,)
        ).fetchone()
        return int(row[0])


class _Facet(Mapping[Value, int]):
    """A filter's values and their ids, unpacked only for the values a filter lets through."""

    def __init__(self, raw: dict[Value, bytes]) -> None:
        self.raw = raw
        self._unpacked: dict[Value, int] = {}

    def __getitem__(self, value: Value) -> int:
        if value not in self._unpacked:
            self._unpacked[value] = _unpack(self.raw[value])
        return self._unpacked[value]

    def __iter__(self) -> Iterator[Value]:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)


# Rows, values and ids as the tables keep them


def _all_found(rows: dict[int, str], slots: set[int]) -> dict[int, str]:
    """rows, when it has one for every slot: postings naming a missing row are damage."""
    if len(rows) != len(slots):
        raise Damaged("postings name rows that are not there")
    return rows


def _stored_facets(memory: Memory) -> list[tuple[str, str]]:
    """The facet values of a record, encoded, except age (it depends on the day of the query)."""
    return [
        (facet, _encode(value))
        for facet, values in facet_values(memory, dt.date.min).items()
        if facet != "age"
        for value in values
    ]


def _row(memory: Memory) -> tuple[tuple, tuple[str, ...], list[tuple[str, str]]]:
    """(columns after path and signature, the five casefolded texts, the encoded facets)."""
    title_cf = casefold_with_owners(memory.title)[0]
    after = texts_after_title(memory)
    key = tie_key(memory)
    stored = _stored_facets(memory)
    row = (
        key[0],
        key[1],
        key[2],
        _blob(memory.title),
        words_key(title_cf),
        *map(_blob, after),
        json.dumps(stored),
    )
    return row, (title_cf, *after), stored


def _encode(value: Value) -> str:
    """A filter value as ASCII text (json escapes what UTF-8 cannot carry), its type tagged."""
    if value is None:
        tagged = "n"
    elif isinstance(value, bool):
        tagged = "b1" if value else "b0"
    elif isinstance(value, int):
        tagged = f"i{value}"
    elif isinstance(value, Kind):
        tagged = f"k{value.slug}"
    else:
        tagged = f"s{value}"
    return json.dumps(tagged)


_KINDS = {kind.slug: kind for kind in Kind}


def _decode(text: str) -> Value:
    try:
        tagged = json.loads(text)
        tag, rest = tagged[0], tagged[1:]
        if tag == "n":
            return None
        if tag == "b":
            return rest == "1"
        if tag == "i":
            return int(rest)
        if tag == "k":
            return _KINDS[rest]
        if tag == "s":
            return rest
    except (ValueError, TypeError, IndexError, KeyError) as error:
        raise Damaged(f"facet value {text!r}") from error
    raise Damaged(f"facet value {text!r}")


def _age(date: Value, today: dt.date) -> Value:
    if not isinstance(date, str):
        return None
    try:
        return (today - dt.date.fromisoformat(date)).days
    except ValueError as error:
        raise Damaged(f"date {date!r}") from error


def _json(text: str) -> list[tuple[str, str]]:
    try:
        return [(facet, value) for facet, value in json.loads(text)]
    except (ValueError, TypeError) as error:
        raise Damaged("facets of a row") from error


def _blob(text: str) -> bytes:
    """Text as bytes that keep every character, lone surrogates (odd file names) and NUL too."""
    return text.encode("utf-8", "surrogatepass")


def _text(blob: object) -> str:
    if not isinstance(blob, bytes):
        raise Damaged("a text column that is not a blob")
    try:
        return blob.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError as error:
        raise Damaged("a text column") from error


def _pack(ids: Iterable[int]) -> bytes:
    return array(_IDS, sorted(ids)).tobytes()


def _unpack_ordered(blob: object) -> array:
    if not isinstance(blob, bytes) or len(blob) % 4:
        raise Damaged("ids")
    return array(_IDS, blob)


def _unpack(blob: object) -> int:
    """The ids of a postings row, as the bitset the query path works on."""
    return bitset(_unpack_ordered(blob))


def answer(
    connection: sqlite3.Connection | None,
    memories: Sequence[Memory],
    today: dt.date,
    query: str | Query,
    limit: int | None = None,
) -> SearchResult:
    """query over these records, answered from the search tables of connection after bringing
    them in step; exactly `SearchIndex.build(memories, today).search(query, limit)`.

    Damaged tables are rebuilt and asked again; a database that cannot be read or written
    (locked, read-only, full, not a database), or no connection at all, gives the answer of an
    in-memory index, so a search never fails for its cache.
    """
    if connection is not None:
        for _attempt in range(2):
            try:
                store = SearchStore.open(connection, today)
                store.sync(memories)
                return store.search(query, limit)
            except Damaged:
                drop_tables(connection)
            except sqlite3.Error:
                break
    return SearchIndex.build(memories, today).search(query, limit)


def drop_tables(connection: sqlite3.Connection) -> None:
    """Drop the search tables (found damaged); the next open makes them anew."""
    try:
        connection.rollback()
        for table in TABLES:
            connection.execute(f"DROP TABLE IF EXISTS {table}")
        connection.commit()
    except sqlite3.Error:
        pass  # the next open finds them unusable and makes them anew

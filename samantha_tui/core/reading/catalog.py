"""The catalog: every memory's parsed record, kept between runs in SQLite in the cache folder.

One database per tree. A scan takes a record from it when the file's size, mtime, ctime and inode
are as catalogued, so a second start reads only the files that changed; the first frame of the app
can draw every record before any file is read. It is only a cache: deleting it loses nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import gc
import hashlib
import importlib.util
import json
import os
import pickle
import re
import sqlite3
import stat
import sys
import threading
import time
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from ... import __version__
from ..basics.json_read import kind_of
from ..basics.model import Delta, Kind, Listed, Memory
from ..basics.xdg import xdg_home
from .catalog_codec import decode as _decode
from .catalog_codec import encode as _encode
from .catalog_codec import restricted_loads
from .catalog_list import LIST_COLUMNS, LIST_SCHEMA, LIST_WIDTH, list_values, listed_of
from .catalog_shape import ORDER, sound_record
from .catalog_vectors import keep_vectors, read_vectors

CACHE_ENV = "SAMANTHA_TUI_CACHE"
DISABLED = "off"
FORMAT_VERSION = 8
"""8: name fields and trigger signals as samantha-llm means them (reading/name_fields.py): a
record read before may hold `True` for `domain: yes`; 7: a list column of each memory's
distinguishing line; 6: the records' classes pickled under their rooms' names
(core/basics/model.py); 5: the list columns; 4: a digest column and a generation (3 had records
in SQLite; 2 was a pickle file)."""
GENERATION = "generation"
"""The meta key counting the commits that changed rows: what is derived from the rows (the
search tables) records the generation it mirrors, and knows itself in step when they match."""
STAMP = "stamp"
"""The meta key of `generation:digest`, the digest of a listing and of its files' lstat taken when
every row was trusted and mirrored them: the same digest at the same generation means the rows
still mirror the files."""
BUSY_TIMEOUT_S = 2.0
"""How long a save waits for another process's write to end before giving up on saving."""
# Racy-git rule: a file changed again within its mtime's granularity (up to 2 s on some file
# systems) keeps the same mtime, and may keep its size. A file whose mtime or ctime is that close
# to the scan's start is therefore read every time: its row is kept for the first frame, never
# trusted. ctime counts too: a rewrite that sets the mtime back (`touch -r`, `os.utime`) within
# one tick of the kernel's clock would otherwise keep all four of size, mtime, ctime and inode.
RACY_NS = 2_000_000_000
_now_ns = time.time_ns
# What the scan supplies itself (kind and path from the listing, companions as they are now,
# age_days from today) is not in the record blob; everything else of the record is, but the body,
# which has a column of its own (plain UTF-8 decodes faster than a pickled string of it).
_FROM_SCAN = frozenset({"kind", "path", "companions", "age_days"})
_STORED = tuple(f.name for f in dataclasses.fields(Memory) if f.name not in _FROM_SCAN)
_PICKLED = tuple(name for name in _STORED if name != "body")
if _PICKLED != ORDER:  # a field added to Memory must be judged by catalog_shape too
    raise ImportError(f"catalog_shape.ORDER {ORDER} is not the record's fields {_PICKLED}")
_KINDS = {kind.slug: kind for kind in Kind}
_KIND_ORDER = {kind: position for position, kind in enumerate(Kind)}
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # path and companions are bytes: a file name that is not UTF-8 has no SQLite text form.
    # `trusted` is 0 for a row kept only for the first frame (a racy or odd file).
    # `checksum` covers record and body: SQLite does not notice a flipped bit inside a value.
    # `digest` repeats the record's, so what follows the rows can compare them without a record.
    # A rowid table: rows of a few kilobytes would bloat the pages of a WITHOUT ROWID one.
    "CREATE TABLE records (path BLOB PRIMARY KEY, kind TEXT NOT NULL, size INTEGER NOT NULL,"
    " mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL,"
    " trusted INTEGER NOT NULL, companions BLOB NOT NULL, record BLOB NOT NULL,"
    " body BLOB NOT NULL, checksum INTEGER NOT NULL, digest TEXT NOT NULL)",
    # The list columns in a table of their own: a few dozen bytes a row, read at every start
    # without touching the records' pages (rows of kilobytes, mostly overflow).
    # Without rowid, its rows are stored in path order: listing them in that order is a scan.
    f"CREATE TABLE listed (path BLOB PRIMARY KEY, kind TEXT NOT NULL, {LIST_SCHEMA}) WITHOUT ROWID",
)
_TABLES = frozenset({"meta", "records", "listed"})
_COLUMNS = (
    "path, kind, size, mtime_ns, ctime_ns, inode, trusted, companions, record, body, checksum,"
    " digest"
)
_WIDTH = 12
"""The records table's columns; a Row has the listed table's after them."""
_INSERT = f"INSERT OR REPLACE INTO records ({_COLUMNS}) VALUES ({', '.join('?' * _WIDTH)})"
_INSERT_LISTED = (
    f"INSERT OR REPLACE INTO listed (path, kind, {LIST_COLUMNS})"
    f" VALUES ({', '.join('?' * (2 + LIST_WIDTH))})"
)
_STAT_COLUMNS = "path, kind, size, mtime_ns, ctime_ns, inode, trusted, companions"
_RECORD_COLUMNS = "path, kind, companions, record, body, checksum"

T = TypeVar("T")
Row = tuple[Any, ...]
"""One memory's row: the records table's columns in _COLUMNS order (path, kind, size, mtime_ns,
ctime_ns, inode, trusted, companions, record, body, checksum, digest), then, in rows made here
rather than read back, its list columns (catalog_list.ListValues)."""
_CHUNK = 500
"""Paths bound per `IN (...)` query, well under SQLite's limit on parameters."""
_BUSY = frozenset({"SQLITE_BUSY", "SQLITE_LOCKED"})
_DAMAGED = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_ERROR", "SQLITE_MISMATCH"})


Listing = Sequence[tuple[Kind, Sequence[tuple[str, tuple[str, ...]]]]]
"""The memory files of a tree as the scan lists them: per kind, (path, companions) in order."""


@dataclass(frozen=True)
class Refreshed:
    """What a refresh changed, and whether the rows now mirror the files."""

    delta: Delta
    in_step: bool
    """False when the rows could not be read or the changes saved (locked, damaged, full): the
    rows may be older than the files, and only a scan's records can be trusted."""
    moved: tuple[int, int] | None
    """(before, after): the generations around the refresh's own commit; None when it had
    nothing to commit."""


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Hold off the cycle collector while records are built (hundreds of thousands of objects).

    The records all stay alive, so its passes free nothing; they cost about a sixth of a warm scan.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def cache_folder(environ: Mapping[str, str] = os.environ) -> Path | None:
    """`$SAMANTHA_TUI_CACHE`, else `$XDG_CACHE_HOME/samantha-tui` (default ~/.cache/samantha-tui).

    None when set to `off`, or when there is no home folder to keep it in.
    """
    chosen = environ.get(CACHE_ENV)
    if chosen:
        return None if chosen == DISABLED else Path(chosen).expanduser()
    try:
        return xdg_home("XDG_CACHE_HOME", ".cache", environ) / "samantha-tui"
    except RuntimeError:  # neither $HOME nor the user database knows the home folder
        return None


def catalog_file(folder: Path, resolved_root: Path) -> Path:
    """The database of one tree: named by the sha256 of its resolved root."""
    name = hashlib.sha256(str(resolved_root).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return folder / f"catalog-{name}.sqlite"


def _meta(root: str) -> dict[str, str]:
    # Any change of package, format, parser or record shape makes older rows unreadable here.
    return {
        "format": str(FORMAT_VERSION),
        "version": __version__,
        "yaml": _yaml_version(),
        "fields": json.dumps(list(_STORED)),
        "root": root,
    }


_VERSION_LINE = re.compile(r"""^__version__\s*=\s*['"]([^'"]+)['"]""", re.MULTILINE)


def _yaml_version() -> str:
    """PyYAML's version, read from its package's first file when it is not imported yet: its
    import is a good part of a headless search that reads no file. Imported if that fails."""
    loaded = sys.modules.get("yaml")
    if loaded is None:
        try:
            spec = importlib.util.find_spec("yaml")
            origin = spec.origin if spec is not None else None
            if origin is not None and origin.endswith("__init__.py"):
                with open(origin, encoding="utf-8") as source:
                    found = _VERSION_LINE.search(source.read())
                if found:
                    return found.group(1)
        except (OSError, ValueError, ImportError):
            pass
        import yaml

        return str(yaml.__version__)
    return str(loaded.__version__)


class _Damaged(Exception):
    """The database cannot be trusted as a whole: rebuild it."""


class Catalog:
    """The catalogued records of one tree: read by a scan, saved at its end.

    Not for use from two threads at once; the app's scans and writes take turns.
    """

    def __init__(
        self, root: Path, file: Path | None, connection: sqlite3.Connection, notice: str | None
    ) -> None:
        self.root = root
        self.file = file
        """The database on disk; None for an in-memory catalog that is never saved."""
        self.connection = connection
        self._notice = notice
        self._unreadable: dict[str, None] = {}
        self._relist: set[str] = set()
        """Paths whose list row was unreadable: the scan writes their rows again, even when it
        takes the record from the catalog, so the next first frame lists them."""
        """The rows found not to hold a record of ours (by path, in the order found): each was
        read again from its file, and all of them are said in one notice."""
        self._resolved = str(root.resolve())
        self._rows: dict[str, Row] | None = None  # loaded at the first read of a scan
        self._writes: dict[str, Row] = {}
        self._seen: set[str] = set()
        self._changed: list[Memory] = []
        self._scan_start_ns: int | None = None
        self._lock = threading.Lock()
        self.moved: tuple[int, int] | None = None
        """(before, after): the generations around this catalog's last commit; None when it
        changed no row."""

    @property
    def notice(self) -> str | None:
        """One line when the database was damaged or locked and was rebuilt or bypassed, or when
        rows of it were unreadable and their files were read again."""
        if self._notice is not None:
            return self._notice
        if self._unreadable:
            return _unreadable_notice(self.file, list(self._unreadable))
        return None

    @notice.setter
    def notice(self, value: str | None) -> None:
        self._notice = value

    def _unread(self, error: sqlite3.Error) -> None:
        """The rows could not be read at all: said unless something was said before."""
        self._notice = self._notice or f"The catalog {self.file} could not be read ({error})"

    def _bad_row(self, rel: object) -> None:
        """A row that does not hold a record of ours: counted for the one notice that says so."""
        self._unreadable.setdefault(rel if isinstance(rel, str) else _named(rel), None)

    # --- opening ---------------------------------------------------------------------------------

    @classmethod
    def open(cls, root: Path, environ: Mapping[str, str] = os.environ) -> Catalog:
        """The catalog of root's tree. Never raises: when it is off (`$SAMANTHA_TUI_CACHE=off`),
        would lie inside the tree, or cannot be used, an in-memory catalog that is never saved."""
        folder = cache_folder(environ)
        resolved = root.resolve()
        try:
            if folder is None or folder.resolve().is_relative_to(resolved):
                return cls._in_memory(root, None)
        except (OSError, RuntimeError) as error:
            return cls._in_memory(root, f"the catalog folder {folder} cannot be used: {error}")
        file = catalog_file(folder, resolved)
        expected = _meta(str(resolved))
        odd = _odd_files(file)
        if odd is not None:
            return cls._in_memory(root, odd)
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            connection = _connect(file)
        except (OSError, sqlite3.Error) as error:
            return cls._in_memory(root, _not_kept(file, error))
        try:
            _patiently(lambda: _prepare(connection, expected))
            return cls(root, file, connection, None)
        except sqlite3.Error as error:
            connection.close()
            if _code(error) in _BUSY:
                return cls._in_memory(root, _locked(file))
            if _code(error) not in _DAMAGED:
                return cls._in_memory(root, _not_kept(file, error))
            damage: object = error
        except _Damaged as error:
            connection.close()
            damage = error
        return cls._rebuilt(root, file, expected, f"{damage}")

    @classmethod
    def _rebuilt(cls, root: Path, file: Path, expected: dict[str, str], why: str) -> Catalog:
        """A new, empty database in place of a damaged one (its -wal and -shm go with it)."""
        notice = f"The catalog {file} was damaged ({why}); it was rebuilt from the memory files"
        try:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{file}{suffix}").unlink(missing_ok=True)
            connection = _connect(file)
        except (OSError, sqlite3.Error) as error:
            return cls._in_memory(root, _not_kept(file, error))
        try:
            _prepare(connection, expected)
        except (sqlite3.Error, _Damaged) as error:
            connection.close()
            return cls._in_memory(root, _not_kept(file, error))
        return cls(root, file, connection, notice)

    @classmethod
    def _in_memory(cls, root: Path, notice: str | None) -> Catalog:
        connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        _prepare(connection, _meta(str(root.resolve())))
        return cls(root, None, connection, notice)

    # --- a scan ----------------------------------------------------------------------------------

    def read(self, rel: str, kind: Kind, today: dt.date, companions: tuple[str, ...]) -> Memory:
        """The record of root/rel: from the catalog when the file's size, mtime_ns, ctime_ns and
        inode are as catalogued, else read from the file."""
        if self._scan_start_ns is None:
            self._scan_start_ns = _now_ns()
        rows = self._rows if self._rows is not None else self._load()
        self._seen.add(rel)
        try:
            info = os.lstat(f"{self.root}/{rel}")
        except OSError:
            return self._read_file(rel, kind, today, companions, None)
        if not stat.S_ISREG(info.st_mode):  # symlinks and oddities: the reader judges them
            return self._read_file(rel, kind, today, companions, info)
        row = rows.get(rel)
        if (
            row is not None
            and row[6]
            and row[2] == info.st_size
            and row[3] == info.st_mtime_ns
            and row[4] == info.st_ctime_ns
            and row[5] == info.st_ino
        ):
            memory = _memory_of(row, rel, kind, today, companions)
            if memory is not None and (
                memory.size != row[2]
                or memory.digest != row[11]
                or row[1] not in _KINDS
                or not _sound_companions(row[7], rel)
            ):
                memory = None  # a record of other bytes than its row says, or not our row
            if memory is not None:
                if (
                    row[1] != kind.slug
                    or ((companions or row[7]) and row[7] != _encode("\0".join(companions)))
                    or rel in self._relist
                ):
                    self._writes[rel] = _row(memory, info, trusted=True)
                    self._changed.append(memory)
                return memory
            self._bad_row(rel)
        elif row is not None and not _sound_stats(row):
            self._bad_row(rel)
        return self._read_file(rel, kind, today, companions, info)

    def _read_file(
        self,
        rel: str,
        kind: Kind,
        today: dt.date,
        companions: tuple[str, ...],
        info: os.stat_result | None,
    ) -> Memory:
        memory = read_memory(self.root, rel, kind, today, companions, info)
        assert self._scan_start_ns is not None
        trusted = _settled(memory, info, self._scan_start_ns)
        self._writes[rel] = _row(memory, info, trusted)
        self._changed.append(memory)
        return memory

    def save(self) -> Delta:
        """Commit this scan's rows and drop the rows of paths it did not see; what it changed.

        A save that cannot be written (another process holds the database past the timeout, the
        disk is full) costs only the next start's time, and says so in `notice`.
        """
        with self._lock:
            writes, seen, changed = self._writes, self._seen, tuple(self._changed)
            self._writes, self._seen, self._changed = {}, set(), []
            self._scan_start_ns = None
            try:
                removed = _patiently(lambda: self._commit(writes, seen))
            except sqlite3.Error as error:
                removed = self._failed_save(error, writes, seen)
            return Delta(changed=changed, removed=removed)

    def _commit(
        self,
        writes: dict[str, Row],
        seen: set[str],
        stamped: tuple[int, str] | None = None,
    ) -> tuple[str, ...]:
        connection = self.connection
        # Another process may have saved since this scan began: what goes is judged now, under
        # the write lock, from the rows as they are.
        connection.execute("BEGIN IMMEDIATE")
        try:
            present: list[str] = []
            foreign: list[tuple[object]] = []
            for (path,) in connection.execute("SELECT path FROM records"):
                if type(path) is bytes:
                    present.append(_decode(path))
                else:  # no scan writes a path that is not a blob, and none matches one
                    foreign.append((path,))
            removed = tuple(sorted(p for p in present if p not in seen))
            _delete(connection, removed)
            connection.executemany("DELETE FROM records WHERE path = ?", foreign)
            # The list rows are a few dozen bytes each: looked through whole, as the first
            # frame reads them at every start.
            connection.execute("DELETE FROM listed WHERE typeof(path) != 'blob'")
            _insert(connection, writes.values())
            moved = _advance(connection) if removed or writes else None
            if stamped is not None and moved is not None and moved[0] == stamped[0]:
                # No other commit came between the rows compared and these: the stamp holds.
                connection.execute(
                    "INSERT OR REPLACE INTO meta VALUES (?, ?)", (STAMP, f"{moved[1]}:{stamped[1]}")
                )
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        self.moved = moved
        # Rows not loaded stay so: a refresh writes a few rows without loading the others.
        if self._rows is not None:
            for path in removed:
                self._rows.pop(path, None)
            self._rows.update(writes)
        return removed

    def _failed_save(
        self, error: sqlite3.Error, writes: dict[str, Row], seen: set[str]
    ) -> tuple[str, ...]:
        self._rows = None  # the next scan loads the rows as they are on disk
        if self.file is not None and _code(error) in _BUSY:
            self.notice = _locked(self.file)
            return ()
        if self.file is not None and _code(error) in _DAMAGED:
            replacement = Catalog._rebuilt(self.root, self.file, _meta(self._resolved), str(error))
            self.connection.close()
            self.connection, self.file = replacement.connection, replacement.file
            self.notice = replacement.notice
            try:
                return self._commit(writes, seen)
            except sqlite3.Error as again:
                self.notice = _not_kept(self.file or Path(":memory:"), again)
                return ()
        self.notice = _not_kept(self.file or Path(":memory:"), error)
        return ()

    def _load(self) -> dict[str, Row]:
        rows: dict[str, Row] = {}
        try:
            for row in self.connection.execute(f"SELECT {_COLUMNS} FROM records"):
                if type(row[0]) is bytes:
                    rows[_decode(row[0])] = row
                else:  # not a path of ours: its file, if any, is read; the save drops the row
                    self._bad_row(row[0])
        except sqlite3.Error as error:
            # Damage found in the rows: every file is read, and the save rebuilds the database.
            self._unread(error)
            rows = {}
        self._rows = rows
        return rows

    # --- without a scan --------------------------------------------------------------------------

    def refresh(self, today: dt.date, listed: Listing) -> Refreshed:
        """Bring the rows in step with the files as listed, loading no record of a file that is
        unchanged: each file's lstat is compared with the stat columns alone, and only new,
        changed and not yet trusted files are read (the racy rule as in a scan); rows of files
        no longer listed are dropped. One commit, none when nothing changed.

        When every row was trusted, a stamp of the listing and its stats is kept with the
        generation: the next refresh that takes the same stamp reads no row at all.
        """
        with self._lock:
            start = _now_ns()
            root = self.root
            taken, stamp = _take(root, listed)
            try:
                kept = self._rows_unless_stamped(stamp)
            except sqlite3.Error as error:
                self._notice = (
                    self._notice or f"The catalog {self.file} could not be read ({error})"
                )
                return Refreshed(Delta((), ()), in_step=False, moved=None)
            if kept is None:
                return Refreshed(Delta((), ()), in_step=True, moved=None)
            generation, stats = kept
            writes: dict[str, Row] = {}
            changed: list[Memory] = []
            relabelled: list[tuple[str, Kind, tuple[str, ...], os.stat_result]] = []
            reread: list[str] = []
            with collector_paused():
                for kind, rel, companions, info in taken:
                    row = stats.pop(_encode(rel), None)
                    if (
                        row is not None
                        and info is not None
                        and row[6]
                        and row[2] == info.st_size
                        and row[3] == info.st_mtime_ns
                        and row[4] == info.st_ctime_ns
                        and row[5] == info.st_ino
                        and stat.S_ISREG(info.st_mode)
                    ):
                        if row[1] != kind.slug or row[7] != _encode("\0".join(companions)):
                            relabelled.append((rel, kind, companions, info))
                        continue
                    if row is not None:
                        reread.append(rel)
                    memory = read_memory(root, rel, kind, today, companions, info)
                    writes[rel] = _row(memory, info, _settled(memory, info, start))
                    changed.append(memory)
                for rel, kind, companions, info in relabelled:
                    memory = self._relabel(rel, kind, today, companions, info, start)
                    writes[rel] = _row(memory, info, _settled(memory, info, start))
                    changed.append(memory)
            # The stamp may stand for the rows only when each of them can be trusted (judged before
            # rows found as they were are left unwritten: such a row may be an untrusted one).
            stamped = (
                (generation, stamp)
                if stamp is not None and all(row[6] for row in writes.values())
                else None
            )
            if reread:
                # Files read at every refresh (missing, not regular, not settled) mostly read
                # as they did: a row written as it stands would move the generation for nothing.
                same = self._same_rows({rel: writes[rel] for rel in reread})
                writes = {rel: row for rel, row in writes.items() if rel not in same}
                changed = [memory for memory in changed if memory.path not in same]
            if not writes and not stats:  # stats holds the rows of files no longer listed
                if stamped is not None:
                    self._keep_stamp(*stamped)
                return Refreshed(Delta((), ()), in_step=True, moved=None)
            seen = {rel for _kind, rel, _companions, _info in taken}
            self.moved = None
            try:
                removed = _patiently(lambda: self._commit(writes, seen, stamped))
            except sqlite3.Error as error:
                removed = self._failed_save(error, writes, seen)
                return Refreshed(Delta(tuple(changed), removed), in_step=False, moved=None)
            return Refreshed(Delta(tuple(changed), removed), in_step=True, moved=self.moved)

    def _same_rows(self, rows: dict[str, Row]) -> set[str]:
        """The paths whose row is stored exactly as given."""
        same: set[str] = set()
        keys = list(rows)
        for at in range(0, len(keys), _CHUNK):
            chunk = [_encode(rel) for rel in keys[at : at + _CHUNK]]
            marks = ", ".join("?" * len(chunk))
            for stored in self.connection.execute(
                f"SELECT {_COLUMNS} FROM records WHERE path IN ({marks})", chunk
            ):
                rel = _decode(stored[0])
                if tuple(stored) == rows[rel][:_WIDTH]:
                    same.add(rel)
        return same

    def _rows_unless_stamped(self, stamp: str | None) -> tuple[int, dict[bytes, tuple]] | None:
        """None when the kept stamp is this one at the current generation; else the generation
        and the stat columns of every row, read as one commit left them."""
        connection = self.connection
        connection.execute("BEGIN")
        try:
            meta = dict(
                connection.execute(
                    "SELECT key, value FROM meta WHERE key IN (?, ?)", (GENERATION, STAMP)
                ).fetchall()
            )
            generation = meta.get(GENERATION)
            if not (isinstance(generation, str) and generation.isdigit()):
                raise sqlite3.DatabaseError("the catalog's generation is missing or not a number")
            if stamp is not None and meta.get(STAMP) == f"{generation}:{stamp}":
                return None
            rows = connection.execute(f"SELECT {_STAT_COLUMNS} FROM records")
            return int(generation), {row[0]: row for row in rows}
        finally:
            if connection.in_transaction:
                connection.execute("COMMIT")

    def _keep_stamp(self, generation: int, stamp: str) -> None:
        """Keep the stamp of rows found in step, unless another commit moved them since; a
        stamp that cannot be kept costs the next refresh a read of the rows, nothing more."""
        connection = self.connection
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                if _generation_of(connection) == generation:
                    connection.execute(
                        "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                        (STAMP, f"{generation}:{stamp}"),
                    )
                connection.execute("COMMIT")
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise
        except sqlite3.Error:
            pass

    def _relabel(
        self,
        rel: str,
        kind: Kind,
        today: dt.date,
        companions: tuple[str, ...],
        info: os.stat_result,
        start: int,
    ) -> Memory:
        """The record of an unchanged file with the kind and companions it has now."""
        row = self.connection.execute(
            f"SELECT {_COLUMNS} FROM records WHERE path = ?", (_encode(rel),)
        ).fetchone()
        memory = None if row is None else _memory_of(row, rel, kind, today, companions)
        if memory is not None and row is not None and row[1] in _KINDS:
            return memory
        self._bad_row(rel)
        return read_memory(self.root, rel, kind, today, companions, info)

    def generation(self) -> int:
        """How many commits have changed rows since the database was made."""
        with self._lock:
            return _generation_of(self.connection)

    def digests(self) -> list[tuple[str, str]]:
        """(path, digest) of every row, loading no record; the digest is empty for a record
        read without one (a file that could not be read)."""
        with self._lock:
            rows = self.connection.execute("SELECT path, digest FROM records").fetchall()
        return [
            (_decode(path), digest if type(digest) is str else "")
            for path, digest in rows
            if type(path) is bytes
        ]

    def records(self, paths: Iterable[str] | None, today: dt.date) -> dict[str, Memory]:
        """The records of these paths (None: of every row) as catalogued, with today's age; a
        path without a row is left out. A row that does not hold a sound record (damaged, or
        dated ahead when read) is read again from its file, and catalogued anew unless the
        connection is inside a transaction of another's (the search tables')."""
        found: dict[str, Memory] = {}
        again: list[Memory] = []
        with self._lock, collector_paused():
            for rows in self._record_rows(paths):
                for path, slug, companions, record, body, checksum in rows:
                    if type(path) is not bytes:
                        self._bad_row(path)
                        continue
                    rel = _decode(path)
                    kind = _KINDS.get(slug) if type(slug) is str else None
                    if kind is None:
                        # Its kind is the folder it is in, which a scan knows and a row may not.
                        self._bad_row(rel)
                        continue
                    sound = _sound_companions(companions, rel)
                    memory = None
                    if sound:
                        memory = _rebuild(
                            path, record, body, checksum, rel, kind, today, companions, False
                        )
                    if memory is None:
                        self._bad_row(rel)
                        listed = _companions_of(companions) if sound else ()
                        memory = read_memory(self.root, rel, kind, today, listed)
                        again.append(memory)
                    found[rel] = memory
        if again and not self.connection.in_transaction:
            self.update(again, [])
        return found

    def _record_rows(self, paths: Iterable[str] | None) -> Iterator[list[tuple]]:
        """The record columns of these paths' rows (None: of every row), a batch at a time."""
        select = f"SELECT {_RECORD_COLUMNS} FROM records"
        if paths is None:
            yield self.connection.execute(select).fetchall()
            return
        wanted = [_encode(path) for path in dict.fromkeys(paths)]
        for at in range(0, len(wanted), _CHUNK):
            chunk = wanted[at : at + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            yield self.connection.execute(f"{select} WHERE path IN ({marks})", chunk).fetchall()

    def catalogued(self, today: dt.date) -> list[Memory]:
        """Every record as last saved, in the scan's order, touching no memory file; [] when empty.

        What the first frame draws before a scan has looked at any file. A damaged row is left out
        (and said in `notice`): the scan that follows reads its file.
        """
        with self._lock:
            try:
                rows = self.connection.execute(
                    "SELECT path, kind, companions, record, body, checksum FROM records"
                ).fetchall()
            except sqlite3.Error as error:
                self._notice = (
                    self._notice or f"The catalog {self.file} could not be read ({error})"
                )
                return []
        placed: list[tuple[int, str, Memory]] = []
        with collector_paused():
            for path, slug, companions, record, body, checksum in rows:
                if type(path) is not bytes:
                    self._bad_row(path)
                    continue
                kind = _KINDS.get(slug) if type(slug) is str else None
                rel = _decode(path)
                memory = None
                if kind is not None and _sound_companions(companions, rel):
                    memory = _rebuild(
                        path, record, body, checksum, rel, kind, today, companions, True
                    )
                if kind is None or memory is None:
                    self._bad_row(rel)
                    continue
                placed.append((_KIND_ORDER[kind], rel, memory))
            placed.sort()
        return [memory for _order, _rel, memory in placed]

    def listed(self) -> list[Listed]:
        """Every row's list entry, by kind then path, loading no record; [] when empty.

        What the first frame lists before a scan has looked at any file, at a tenth of the cost of
        `catalogued()`. A row without sound list values is left out (and said in `notice`). The
        paths are in byte order, the scan's order but for names that are not UTF-8."""
        with self._lock, collector_paused():
            try:
                rows = self.connection.execute(
                    f"SELECT path, kind, {LIST_COLUMNS} FROM listed ORDER BY path"
                ).fetchall()
            except sqlite3.Error as error:
                self._notice = (
                    self._notice or f"The catalog {self.file} could not be read ({error})"
                )
                return []
            entries, bad = listed_of(rows)
        for rel in bad:
            self._bad_row(rel)
        self._relist.update(bad)
        by_kind: dict[Kind, list[Listed]] = {kind: [] for kind in Kind}
        for entry in entries:
            by_kind[entry.kind].append(entry)
        return [entry for kind in Kind for entry in by_kind[kind]]

    def shared_titles(self) -> frozenset[str] | None:
        """The titles two or more rows' list entries have, counted in SQLite (views/naming.py
        names those memories apart); None when the rows cannot be read."""
        with self._lock:
            try:
                rows = self.connection.execute(
                    "SELECT title FROM listed GROUP BY title HAVING count(*) > 1"
                ).fetchall()
                return frozenset(_decode(title) for (title,) in rows if type(title) is bytes)
            except (sqlite3.Error, TypeError, ValueError):
                return None

    def update(self, changed: list[Memory], gone: list[str]) -> None:
        """Catalogue records that have just changed and drop the rows of files gone, in one
        transaction: a batch of a thousand changes is one commit, not a thousand."""
        if not changed and not gone:
            return
        now = _now_ns()
        rows = []
        for memory in changed:
            try:
                info: os.stat_result | None = os.lstat(f"{self.root}/{memory.path}")
            except OSError:
                info = None
            rows.append(_row(memory, info, _settled(memory, info, now)))
        self._write_now(rows, gone)

    def _write_now(self, rows: list[Row], gone: list[str]) -> None:
        with self._lock:
            connection = self.connection
            try:
                connection.execute("BEGIN IMMEDIATE")
                try:
                    _delete(connection, gone)
                    _insert(connection, rows)
                    self.moved = _advance(connection)
                    connection.execute("COMMIT")
                except BaseException:
                    if connection.in_transaction:
                        connection.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                self._rows = None
                self.notice = (
                    _locked(self.file)
                    if _code(error) in _BUSY
                    else _not_kept(self.file or Path(":memory:"), error)
                )
                return
            if self._rows is not None:
                for path in gone:
                    self._rows.pop(path, None)
                self._rows.update((_decode(row[0]), row) for row in rows)

    # --- embedding vectors (catalog_vectors.py) ---------------------------------------------

    def vectors(self, model: str, digests: Iterable[str], width: int) -> dict[str, bytes]:
        """The kept vectors of these file digests under `model`, each `width` bytes. Takes the
        catalog's lock, as a save does: a worker may ask while the app scans."""
        with self._lock:
            return read_vectors(self.connection, model, digests, width)

    def keep_vectors(self, model: str, vectors: Mapping[str, bytes], prune: bool = True) -> None:
        """Keep vectors by file digest under `model`; one that cannot be kept is embedded again
        next time, nothing more. `prune`: drop first those of files the catalog no longer has."""
        with self._lock:
            keep_vectors(self.connection, model, vectors, prune)

    def close(self) -> None:
        """Close the database; rows not saved are lost (they cost only a read next time)."""
        with self._lock:
            self.connection.close()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


# --- the database ---------------------------------------------------------------------------------


def _connect(file: Path) -> sqlite3.Connection:
    # Autocommit mode: every transaction is begun explicitly (BEGIN IMMEDIATE for writes).
    connection = sqlite3.connect(
        file, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    return connection


def _patiently(work: Callable[[], T]) -> T:
    """work(), tried again while SQLite says busy, up to the busy timeout.

    The timeout covers waiting for a lock, but not every moment of another connection opening or
    closing the database in WAL mode (its recovery, its last checkpoint): there SQLite says busy
    at once.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            return work()
        except sqlite3.OperationalError as error:
            if _code(error) not in _BUSY or time.monotonic() >= deadline:
                raise
        time.sleep(0.01)


def _prepare(connection: sqlite3.Connection, expected: dict[str, str]) -> None:
    """Make the database hold this version's tables: created when new, dropped and created again
    when of another version (silently: expected after an upgrade). Raises _Damaged when tables
    are missing or the meta table holds nonsense, sqlite3.Error when the file is not sound."""
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    if _state(connection, expected) == "ready":
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Judged again under the write lock: another process may have just created it.
        state = _state(connection, expected)
        if state == "damaged":
            raise _Damaged("a table is missing")
        if state != "ready":
            # The whole database is cache: every table goes, the search's as well, so nothing
            # derived from the old records outlives them.
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ).fetchall():
                connection.execute(f'DROP TABLE "{name.replace(chr(34), chr(34) * 2)}"')
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.executemany("INSERT INTO meta VALUES (?, ?)", expected.items())
            connection.execute("INSERT INTO meta VALUES (?, '0')", (GENERATION,))
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _state(connection: sqlite3.Connection, expected: dict[str, str]) -> str:
    """`ready`, `empty` (new file), `stale` (another version) or `damaged` (tables gone)."""
    tables = {
        name
        for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    if not tables:
        return "empty"
    if "meta" not in tables:
        return "damaged"
    meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    generation = meta.pop(GENERATION, None)
    meta.pop(STAMP, None)
    if meta != expected or not (isinstance(generation, str) and generation.isdigit()):
        return "stale"
    return "ready" if tables >= _TABLES else "damaged"


def _insert(connection: sqlite3.Connection, rows: Iterable[Row]) -> None:
    rows = list(rows)
    if rows:
        connection.executemany(_INSERT, [row[:_WIDTH] for row in rows])
        connection.executemany(_INSERT_LISTED, [(row[0], row[1], *row[_WIDTH:]) for row in rows])


def _delete(connection: sqlite3.Connection, paths: Iterable[str]) -> None:
    gone = [(_encode(path),) for path in paths]
    if gone:
        connection.executemany("DELETE FROM records WHERE path = ?", gone)
        connection.executemany("DELETE FROM listed WHERE path = ?", gone)


def _odd_files(file: Path) -> str | None:
    """Why the database cannot be opened: a folder, pipe or link stands where a file of it should.
    A pipe would hang SQLite, and a link could take its writes anywhere."""
    for suffix in ("", "-wal", "-shm"):
        path = Path(f"{file}{suffix}")
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        except OSError as error:
            return _not_kept(path, error)
        if not stat.S_ISREG(mode):
            return (
                f"The catalog {path} is not a regular file ({kind_of(mode)}); "
                "records are not kept between runs"
            )
    return None


Taken = list[tuple[Kind, str, tuple[str, ...], os.stat_result | None]]
"""The listed files, each with its lstat (None when it cannot be taken)."""


def _take(root: Path, listed: Listing) -> tuple[Taken, str | None]:
    """Each listed file's lstat, and the stamp of them all: a digest of the listing (kind, path,
    companions) and of each file's size, mtime, ctime and inode; no stamp when a file is
    missing or not a regular one (it is read at every refresh)."""
    taken: Taken = []
    names: list[str] = []
    numbers: list[int] = []
    stamped = True
    prefix = f"{root}/"
    lstat, is_regular = os.lstat, stat.S_ISREG
    # One pass, with no call in it but the lstat: it runs for every file at every search.
    for kind, paths in listed:
        slug = kind.slug
        for rel, companions in paths:
            try:
                info: os.stat_result | None = lstat(prefix + rel)
            except OSError:
                info = None
            taken.append((kind, rel, companions, info))
            if stamped:
                if info is None or not is_regular(info.st_mode):
                    stamped = False
                    continue
                # No part holds a NUL, and the count of companions says where each entry ends.
                names += (slug, rel, str(len(companions)), *companions)
                numbers += (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    if not stamped:
        return taken, None
    digest = hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape"))
    try:
        digest.update(array("q", numbers).tobytes())
    except OverflowError:  # an inode number past 2**63: the slower, unbounded spelling
        digest.update(b"," + ",".join(map(str, numbers)).encode())
    return taken, digest.hexdigest()


def read_memory(
    root: Path,
    rel: str,
    kind: Kind,
    today: dt.date,
    companions: tuple[str, ...],
    info: os.stat_result | None = None,
) -> Memory:
    """The reader's `read_memory`, imported at the first file read: the reader brings YAML and
    the frontmatter parser, and a search of a tree that has not changed reads no file."""
    from . import reader

    return reader.read_memory(root, rel, kind, today, companions, info)


def _advance(connection: sqlite3.Connection) -> tuple[int, int]:
    """Move the generation on by one, inside the caller's write transaction: (before, after)."""
    before = _generation_of(connection)
    connection.execute("UPDATE meta SET value = ? WHERE key = ?", (str(before + 1), GENERATION))
    return before, before + 1


def _generation_of(connection: sqlite3.Connection) -> int:
    row = connection.execute("SELECT value FROM meta WHERE key = ?", (GENERATION,)).fetchone()
    if row is None or not isinstance(row[0], str) or not row[0].isdigit():
        raise sqlite3.DatabaseError("the catalog's generation is missing or not a number")
    return int(row[0])


def _code(error: sqlite3.Error) -> str:
    return getattr(error, "sqlite_errorname", "") or ""


def _named(path: object) -> str:
    """A row's path for a notice, whatever its type."""
    return _decode(path) if type(path) is bytes else repr(path)


def _unreadable_notice(file: Path | None, paths: list[str]) -> str:
    """The one line said of every row that was not a record of ours."""
    where = f"The catalog {file}" if file is not None else "The catalog"
    if len(paths) == 1:
        return f"{where} had 1 unreadable row ({paths[0]}); it was read again from its file"
    return (
        f"{where} had {len(paths)} unreadable rows ({paths[0]} and {len(paths) - 1} more); "
        "they were read again from their files"
    )


def _sound_companions(companions: object, rel: str) -> bool:
    """Whether a row's companions column is as a scan writes it: bytes naming other files."""
    if type(companions) is not bytes:
        return False
    return not companions or rel not in _companions_of(companions)


def _companions_of(companions: bytes) -> tuple[str, ...]:
    return tuple(_decode(companions).split("\0")) if companions else ()


def _sound_stats(row: Row) -> bool:
    """Whether a row's stat columns are numbers and its kind one of ours (a row that merely
    lags behind its file has them so; one written by someone else may not)."""
    return (
        all(type(value) is int for value in row[2:7])
        and row[2] >= 0
        and row[1] in _KINDS
        and _sound_companions(row[7], _decode(row[0]))
    )


def _locked(file: Path | None) -> str:
    return f"The catalog {file} is locked by another process; this scan's records were not saved"


def _not_kept(file: Path, error: BaseException) -> str:
    why = error.strerror if isinstance(error, OSError) and error.strerror else error
    return f"The catalog {file} cannot be used ({why}); records are not kept between runs"


# --- rows -----------------------------------------------------------------------------------------


def _settled(memory: Memory, info: os.stat_result | None, start_ns: int) -> bool:
    """Whether a record read from a file may be trusted while its stat stays the same."""
    return (
        info is not None
        and stat.S_ISREG(info.st_mode)
        # A size differing from the stat's means the file changed while being read.
        and memory.size == info.st_size
        and max(info.st_mtime_ns, info.st_ctime_ns) < start_ns - RACY_NS
    )


def _row(memory: Memory, info: os.stat_result | None, trusted: bool) -> Row:
    state = memory.__dict__
    values = tuple(state[name] for name in _PICKLED)
    at = _PICKLED.index("frontmatter")
    values = (*values[:at], dict(memory.frontmatter), *values[at + 1 :])
    record = pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)
    body = _encode(memory.body)
    path = _encode(memory.path)
    if info is None:
        size = mtime = ctime = inode = 0
    else:
        size, mtime, ctime, inode = info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino
    return (
        path,
        memory.kind.slug,
        size,
        mtime,
        ctime,
        inode,
        int(trusted),
        _encode("\0".join(memory.companions)),
        record,
        body,
        _checksum(path, record, body),
        memory.digest,
        *list_values(memory),
    )


def _checksum(path: bytes, record: bytes, body: bytes) -> int:
    # The same sum is taken inline where rows are rebuilt, tens of thousands at a time.
    return zlib.crc32(body, zlib.crc32(record, zlib.crc32(path)))


_FRONTMATTER_AT = _PICKLED.index("frontmatter")
_DATE_AT = _PICKLED.index("date")
_PROBLEMS_AT = _PICKLED.index("problems")


def _memory_of(
    row: Row, rel: str, kind: Kind, today: dt.date, companions: tuple[str, ...]
) -> Memory | None:
    """The record of a row with the scan's kind and companions; None when it must be read."""
    return _rebuild(row[0], row[8], row[9], row[10], rel, kind, today, companions, False)


def _rebuild(
    path: bytes,
    record: bytes,
    body: bytes,
    checksum: int,
    rel: str,
    kind: Kind,
    today: dt.date,
    companions: tuple[str, ...] | bytes,
    keep_problems: bool,
) -> Memory | None:
    """The record of a row's values, with today's age; None when they do not hold one of ours.

    `companions` as the scan lists them, or as catalogued (bytes). `keep_problems`: when today
    is before the day the file was read, its problems are kept as they were rather than the row
    refused (the first frame shows them until the scan reads the file).
    """
    try:
        if zlib.crc32(body, zlib.crc32(record, zlib.crc32(path))) != checksum:
            return None
        values = restricted_loads(record)
        if not sound_record(values):
            return None
        date = values[_DATE_AT]
        problems = values[_PROBLEMS_AT]
        ahead = date is not None and date > today
        if problems or ahead:
            from .reader import refresh_future_date

            problems = refresh_future_date(problems, date, today)
            if problems is None:
                if not keep_problems:
                    return None
                problems = values[_PROBLEMS_AT]
        if type(companions) is bytes:
            companions = _companions_of(companions)
        state = dict(zip(_PICKLED, values))  # noqa: B905 (the length is checked above)
        state["frontmatter"] = MappingProxyType(values[_FRONTMATTER_AT])
        state["problems"] = problems
        state["body"] = _decode(body)
        state["kind"] = kind
        state["path"] = rel
        state["companions"] = companions
        state["age_days"] = (today - date).days if date else None
    except Exception:  # a damaged row can fail in any way; it only means reading its file
        return None
    return Memory.from_state(state)

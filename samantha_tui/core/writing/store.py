"""The store: the tree in memory and the one door every change to its files goes through."""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..basics import clock, schema
from ..basics.json_read import read_regular
from ..basics.model import Kind, Listed, Memory, Problem, Tree, kind_of_path
from ..reading import frontmatter, heading
from ..reading.catalog import Catalog
from ..reading.reader import MAX_FILE_BYTES, memory_from_bytes, outside_root, read_memory
from ..reading.scan import (
    PENDING_DIR,
    SUBCONSCIOUS,
    memory_paths,
    read_pending,
    read_sessions,
    scan,
    unlisted_markdown,
)
from . import trash
from .atomic import (
    ConflictError,
    StoreError,
    digest_bytes,
    failure,
    folders_for,
    move_no_replace,
    write_atomic,
)
from .trash import Listing as TrashListing
from .trash import TrashEntry
from .tree_lock import writes_tree

__all__ = ["Absorbed", "ConflictError", "Store", "StoreError"]


@dataclass(frozen=True)
class Absorbed:
    """What another program's changes really did to the tree, found by comparing digests."""

    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    """Memory paths, each sorted."""
    pending_changed: bool = False
    sessions_changed: bool = False

    @property
    def paths(self) -> tuple[str, ...]:
        """Every memory path that changed, appeared or went away, sorted."""
        return tuple(sorted((*self.changed, *self.added, *self.removed)))

    def __bool__(self) -> bool:
        return bool(self.paths) or self.pending_changed or self.sessions_changed


_KIND_ORDER = {kind: index for index, kind in enumerate(Kind)}
_PENDING_FOLDER = f"{Kind.CURRENT_TASKS.folder}/{PENDING_DIR}"
_SESSIONS_FOLDER = f"{SUBCONSCIOUS}/sessions"


_SWAPS_KEPT = 10_000
"""Swaps logged between two `take_swaps` at most: a store used without a curator (a CLI command)
never takes them, and must not grow a log for nothing."""


def _tree_order(memory: Memory) -> tuple[int, str]:
    """The order a scan gives: by kind, then by path."""
    return _KIND_ORDER[memory.kind], memory.path


class Store:
    """A cerebrum on disk. Reads give immutable records; writes are atomic and conflict-checked."""

    def __init__(self, root: Path, today: Callable[[], dt.date] = clock.today) -> None:
        self.root = Path(root).absolute()
        self._today = today
        self.tree = Tree(root=str(self.root), memories=())
        self._swaps: list[tuple[list[Memory], list[Memory]]] | None = []
        """The records each swap took out and put in since `take_swaps` (None: too many, or
        the tree was replaced another way: only a whole comparison says what changed)."""
        self._swapped_to = self.tree.memories
        """The records as the last swap (or `take_swaps`) left them."""
        self._catalog: Catalog | None = None
        self._glance: Catalog | None = None
        """The tree's catalog, opened by the first scan and kept: later scans and every change
        the store takes in feed it, so the next start draws the tree as it is now."""

    # --- reading ---------------------------------------------------------------------------------

    def today(self) -> dt.date:
        """The store's idea of today (fixed in tests and demos)."""
        return self._today()

    def scan(self) -> Tree:
        """Read the whole tree again; a tree folder that has gone is an empty tree and a problem."""
        if not self.root.is_dir():
            advice = "put it back and reload (ctrl+r), or start samantha-tui again where it is now"
            gone = Problem(".", f"{_gone(self.root)}; {advice}")
            self.tree = Tree(root=str(self.root), memories=(), problems=(gone,))
            return self.tree
        self.tree = scan(self.root, self._today(), self.catalog())
        return self.tree

    def read_only(self, rel: str) -> Memory | None:
        """Know one memory file's record and nothing else of the tree (no scan, no catalog):
        for a command that changes only that file. Its record, or None when a scan would not
        list it either."""
        kind = kind_of_path(rel)
        if kind is None:
            return None
        self._reread(kind, rel)
        return self.get(rel)

    def catalog(self) -> Catalog:
        """The tree's catalog (opened on first use; never raises, see Catalog.open)."""
        if self._catalog is None:
            self._catalog = Catalog.open(self.root)
        return self._catalog

    def listed(self) -> Tree[Listed]:
        """The tree as last catalogued, in list entries, touching no memory file and loading no
        record: what a first frame lists before a scan has checked the files. Empty when there
        is no catalog yet."""
        catalog = self.catalog()
        entries = catalog.listed()
        notices = (catalog.notice,) if catalog.notice else ()
        return Tree(root=str(self.root), memories=tuple(entries), notices=notices)

    def record_as_catalogued(self, rel: str) -> Memory | None:
        """One memory's record as catalogued (body and all), touching no memory file; None when
        it has no sound row. For the first frame's preview while a scan checks the files: it
        reads on a connection of its own, as the scan uses the catalog's from its thread; only
        one thread may ask, and `forget_catalogued` ends it."""
        if self._glance is None:
            self._glance = Catalog.open(self.root)
        return self._glance.records([rel], self._today()).get(rel)

    def forget_catalogued(self) -> None:
        """The checked tree has replaced the catalogued one: close the preview's connection."""
        if self._glance is not None:
            self._glance.close()
            self._glance = None

    def catalogue(self, changed: Iterable[Memory], gone: Iterable[str]) -> None:
        """Feed the catalog the records that changed since the scan (writes, outside edits)."""
        if self._catalog is not None:
            self._catalog.update(list(changed), list(gone))

    def close(self) -> None:
        """Close the catalog; the store can still be used, and opens it again when it must."""
        if self._catalog is not None:
            self._catalog.close()
            self._catalog = None
        self.forget_catalogued()

    def get(self, rel: str) -> Memory | None:
        kind = kind_of_path(rel)
        if kind is None:
            return None  # every record lives in a kind folder
        # The records are in scan order (by kind, then path), as swaps keep them: bisection.
        memories = self.tree.memories
        at = bisect.bisect_left(memories, (_KIND_ORDER[kind], rel), key=_tree_order)
        return memories[at] if at < len(memories) and memories[at].path == rel else None

    def records_at(self, rel: str) -> list[Memory]:
        """The records at rel and under it (a file, a project folder, a kind folder), found by
        bisection; none for a path outside every kind folder."""
        kind = next((k for k in Kind if rel == k.folder), None) or kind_of_path(rel)
        return [] if kind is None else self._under(kind, rel)

    def kind_of(self, rel: str) -> Kind:
        kind = kind_of_path(rel)
        if kind is not None:
            return kind
        raise StoreError(f"{rel} is not inside any memory kind folder of {self.root}")

    # --- writing ---------------------------------------------------------------------------------

    def _refresh(self, *rels: str) -> None:
        """Re-read what lives at or under each path, without rescanning the rest of the tree."""
        for rel in rels:
            kind = kind_of_path(rel)
            if kind is not None:
                self._reread(kind, rel)
            if f"/{PENDING_DIR}/" in f"/{rel}/":
                self._reread_pending()

    def _reread(self, kind: Kind, rel: str) -> None:
        """Swap the records at or under rel (a file, a folder, or the whole kind folder)."""
        found: list[Memory] = []
        if (self.root / rel).exists():
            today = self._today()
            under = None if rel == kind.folder else rel
            found = [
                read_memory(self.root, path, kind, today, companions)
                for path, companions in memory_paths(self.root, kind, under=under)
                if path == rel or path.startswith(rel + "/")
            ]
        self._swap(kind, rel, found)
        self._relist_unlisted(kind, rel)

    def _relist_unlisted(self, kind: Kind, rel: str) -> None:
        """Swap the warnings for unlisted Markdown (hidden files) at or under rel.

        A project is re-read from its folder: a hidden file in it comes and goes with the project.
        """
        if kind.is_project_kind and rel != kind.folder:
            rel = "/".join(rel.split("/")[: kind.folder.count("/") + 2])
        inside = rel + "/"
        kept = [w for w in self.tree.unlisted if w.path != rel and not w.path.startswith(inside)]
        found = unlisted_markdown(self.root, kind, None if rel == kind.folder else rel)
        unlisted = tuple(sorted(kept + found, key=lambda w: w.path))
        if unlisted != self.tree.unlisted:
            self.tree = dataclasses.replace(self.tree, unlisted=unlisted)

    def _reread_pending(self) -> bool:
        """Read the pending updates again; True when they (or their problems) changed."""
        try:
            updates, problems = read_pending(self.root)
        except OSError:
            # The folder is being changed under us; the watcher reports that change next.
            return False
        others = [p for p in self.tree.problems if PENDING_DIR not in p.path]
        before = (self.tree.pending_updates, _pending_problems(self.tree.problems))
        self.tree = dataclasses.replace(
            self.tree, pending_updates=tuple(updates), problems=tuple(others + problems)
        )
        return before != (self.tree.pending_updates, _pending_problems(self.tree.problems))

    def _reread_sessions(self) -> bool:
        """Read the staged subconscious sessions again; True when they changed."""
        try:
            sessions = tuple(read_sessions(self.root))
        except OSError:
            return False
        if sessions == self.tree.sessions:
            return False
        self.tree = dataclasses.replace(self.tree, sessions=sessions)
        return True

    def _replace(self, rel: str, memory: Memory | None) -> None:
        self._swap(self.kind_of(rel), rel, [memory] if memory is not None else [])

    def _spans(self, kind: Kind, rel: str) -> list[tuple[int, int]]:
        """Where the records at and under rel sit in the tree's list, as (start, end) slices.

        The records are sorted by (kind, path), so they are found by bisection: a batch of a
        thousand operations does not walk the whole list a thousand times. `rel` itself and the
        paths below it are two runs (`rel-x` sorts between them), the later run first.
        """
        memories = self.tree.memories
        order, inside = _KIND_ORDER[kind], rel + "/"
        spans: list[tuple[int, int]] = []
        for prefix, exact in ((inside, False), (rel, True)):
            start = bisect.bisect_left(memories, (order, prefix), key=_tree_order)
            end = start
            while (
                end < len(memories)
                and memories[end].kind is kind
                and (memories[end].path == rel if exact else memories[end].path.startswith(inside))
            ):
                end += 1
            spans.append((start, end))
        return spans

    def _under(self, kind: Kind, rel: str) -> list[Memory]:
        return [m for start, end in self._spans(kind, rel) for m in self.tree.memories[start:end]]

    def _swap(self, kind: Kind, rel: str, records: list[Memory]) -> None:
        """Replace the records at or under rel with `records`, keeping scan order."""
        memories = list(self.tree.memories)
        removed: list[Memory] = []
        for start, end in self._spans(kind, rel):
            removed += memories[start:end]
            del memories[start:end]
        for memory in records:
            bisect.insort(memories, memory, key=_tree_order)
        chained = self._swaps is not None and self.tree.memories is self._swapped_to
        self.tree = dataclasses.replace(self.tree, memories=tuple(memories))
        self._swapped_to = self.tree.memories
        if chained and self._swaps is not None and len(self._swaps) < _SWAPS_KEPT:
            self._swaps.append((removed, list(records)))
        else:
            self._swaps = None

    def take_swaps(self) -> list[tuple[list[Memory], list[Memory]]] | None:
        """(records taken out, records put in) by each swap since the last call, oldest first;
        None when that cannot be told (a scan, too many swaps): compare the whole tree then.

        A record not in them is the very same object it was at the last call.
        """
        swaps = self._swaps if self.tree.memories is self._swapped_to else None
        self._swaps, self._swapped_to = [], self.tree.memories
        return swaps

    # --- taking in what other programs changed ---------------------------------------------------

    def absorb(self, rels: Iterable[str]) -> Absorbed:
        """Re-read paths another program changed (files or folders, maybe gone); say what changed.

        A file whose bytes are unchanged (the store's own write, seen again) is no change.
        """
        scopes, pending, sessions = _absorb_scopes(rels)
        before = {m.path: _fingerprint(m) for kind, rel in scopes for m in self._under(kind, rel)}
        for kind, rel in scopes:
            try:
                self._reread(kind, rel)
            except OSError:
                # Another program is still at work there; the watcher reports its next change.
                continue
        after = {m.path: _fingerprint(m) for kind, rel in scopes for m in self._under(kind, rel)}
        result = Absorbed(
            changed=tuple(sorted(p for p in before.keys() & after.keys() if before[p] != after[p])),
            added=tuple(sorted(after.keys() - before.keys())),
            removed=tuple(sorted(before.keys() - after.keys())),
            pending_changed=pending and self._reread_pending(),
            sessions_changed=sessions and self._reread_sessions(),
        )
        return result

    def check_root(self, rel: str = "") -> None:
        """Refuse any change once the tree's folder has gone (renamed or removed while open)."""
        if not self.root.is_dir():
            raise StoreError(
                f"cannot change {rel or 'anything'}: {_gone(self.root)}, so nothing was written; "
                "put it back, or start samantha-tui again where it is now"
            )

    def safe_path(self, rel: str) -> Path:
        """The real path for rel, refusing anything links take outside the tree, and any path
        at all once the tree's folder has gone (a write must never create it again)."""
        if rel.startswith("/") or ".." in Path(rel).parts:
            raise StoreError(f"{rel} is not a path inside the tree")
        self.check_root(rel)
        path = self.root / rel
        leaves = outside_root(self.root, path)
        if leaves is not None:
            raise StoreError(f"{rel} leads outside the tree (to {leaves}); it is never written")
        return path

    @writes_tree
    def edit(
        self,
        rel: str,
        set_values: Mapping[str, Any] | None = None,
        unset: Iterable[str] = (),
        *,
        expected_digest: str | None = None,
        touch_updated: bool = True,
        title: str | None = None,
    ) -> Memory:
        """Set and remove frontmatter keys, changing only their lines.

        `expected_digest` is the sha256 the caller read; without it the store's own record is used.
        Sets `updated:` to today unless the edit sets it or `touch_updated` is False. `title`
        rewrites the body's title heading line (see heading.retitle), and nothing else of the body.
        """
        set_values = dict(set_values or {})
        unset = list(unset)
        for key, value in set_values.items():
            message = schema.value_error(key, value)
            if message:
                raise StoreError(f"{rel}: {message}; nothing was written")
        if touch_updated and "updated" not in set_values and "updated" not in unset:
            set_values["updated"] = self._today()
        path = self.safe_path(rel)
        self._refuse_too_big(path, rel)
        raw = self._read(path, rel)
        if expected_digest is None and (known := self.get(rel)) is not None:
            expected_digest = known.digest
        if expected_digest is not None and digest_bytes(raw) != expected_digest:
            raise ConflictError(rel)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise StoreError(
                f"{rel} is not UTF-8 text; fix it by hand, nothing was written"
            ) from None
        ahead = self._future_date(text, set_values.get("date"))
        if ahead:
            raise StoreError(f"{rel}: {ahead}; nothing was written")
        try:
            new_text = frontmatter.edit(text, set_values, unset)
            if title is not None:
                new_text = heading.retitle(new_text, title)
        except (frontmatter.FrontmatterError, heading.TitleError) as error:
            raise StoreError(f"{rel}: {error}") from None
        return self._write(rel, path, new_text.encode("utf-8"), raw)

    def _future_date(self, text: str, value: Any) -> str | None:
        """Why setting `date` to value is refused (a day after today), or None. The day the file
        already holds is not refused: it changes nothing, and the rest of the file stays
        editable (`check` goes on warning of it)."""
        if value is None:
            return None
        message = schema.future_date_error(value, self._today())
        if message is None:
            return None
        held = (frontmatter.parse(text).mapping or {}).get("date")
        return None if _day(held) == _day(value) else message

    @writes_tree
    def write_bytes(self, rel: str, data: bytes, expected_digest: str) -> Memory:
        """Replace a file's whole content (undo puts previous bytes back this way)."""
        path = self.safe_path(rel)
        raw = self._read(path, rel)
        if digest_bytes(raw) != expected_digest:
            raise ConflictError(rel)
        return self._write(rel, path, data, raw)

    @writes_tree
    def write_file(self, rel: str, data: bytes, expected_digest: str | bytes | None) -> None:
        """Atomically write a file that is not a memory (an index, a pending update).

        `expected_digest` is the sha256 the file had when read, or the very bytes read (compared
        without hashing), or None if it must not exist yet.
        """
        path = self.safe_path(rel)
        try:
            with folders_for(path):
                write_atomic(path.resolve(), data, rel, expected_digest)
        except FileExistsError:
            raise ConflictError(rel) from None
        except OSError as error:
            raise failure("write", rel, error, "it is unchanged") from None

    @staticmethod
    def _refuse_too_big(path: Path, rel: str) -> None:
        """A file the reader does not load is not edited: reading it whole to change one key
        would hold it in memory several times over, and its record has no digest to compare."""
        try:
            size = os.stat(path).st_size
        except OSError:
            return  # _read says why, in its own words
        if size > MAX_FILE_BYTES:
            raise StoreError(
                f"{rel} is {size / (1024 * 1024):.1f} MB, over the 5 MB limit of what "
                "samantha-tui reads; it edits nothing that large, nothing was written"
            )

    def _read(self, path: Path, rel: str) -> bytes:
        try:
            return read_regular(path)  # a named pipe in a file's place is refused, never waited on
        except FileNotFoundError:
            raise StoreError(f"{rel} no longer exists; nothing was written") from None
        except OSError as error:
            raise failure("read", rel, error, "nothing was written") from None

    def _write(self, rel: str, path: Path, data: bytes, previous: bytes) -> Memory:
        try:
            write_atomic(path.resolve(), data, rel, digest_bytes(previous))
        except OSError as error:
            raise failure("write", rel, error, "it is unchanged") from None
        known = self.get(rel)
        companions = known.companions if known else ()
        memory = memory_from_bytes(rel, self.kind_of(rel), data, self._today(), companions)
        self._replace(rel, memory)
        return memory

    @writes_tree
    def create(self, rel: str, mapping: Mapping[str, Any], body: str) -> Memory:
        """Write a new memory file; refuses to replace an existing one."""
        for key, value in mapping.items():
            message = schema.value_error(key, value)
            if message:
                raise StoreError(f"{rel}: {message}; nothing was written")
        return self.add_file(rel, frontmatter.render_new(mapping, body).encode("utf-8"))

    @writes_tree
    def add_file(self, rel: str, data: bytes) -> Memory:
        """Write a new memory file from its bytes (a promotion's copy); never replaces one."""
        kind = self.kind_of(rel)
        path = self.safe_path(rel)
        if path.exists():
            raise StoreError(f"{rel} already exists; choose another name")
        try:
            with folders_for(path):
                write_atomic(path, data, rel, None)
        except (FileExistsError, ConflictError):
            # Another program wrote a file of that name while this one was being written.
            raise StoreError(f"{rel} already exists; choose another name") from None
        except OSError as error:
            raise failure("create", rel, error, "nothing was written") from None
        memory = memory_from_bytes(rel, kind, data, self._today())
        self._replace(rel, memory)
        return memory

    @writes_tree
    def move(self, rel: str, target_rel: str) -> str:
        """Move a memory file, or a whole project folder, to another place in the tree."""
        source = self.safe_path(rel)
        target = self.safe_path(target_rel)
        self.kind_of(target_rel)
        if not source.exists():
            raise StoreError(f"{rel} does not exist; nothing was moved")
        try:
            move_no_replace(source, target)
        except OSError as error:
            raise failure("move", rel, error, "nothing was moved") from None
        self._refresh(rel, target_rel)
        return target_rel

    @writes_tree
    def trash(self, rel: str) -> TrashEntry:
        """Move a memory (or, for a project, its folder) into `.ai/.trash/`."""
        target = rel
        memory = self.get(rel)
        if memory is not None and memory.kind.is_project_kind and rel.endswith("/status.md"):
            target = rel.rsplit("/", 1)[0]
        self.safe_path(target)
        if not (self.root / target).exists():
            raise StoreError(f"{target} does not exist; nothing was moved to the trash")
        self._check_trash_folder(target)
        try:
            entry = trash.put(self.root, target, dt.datetime.now().replace(microsecond=0))
        except OSError as error:
            raise failure("move", f"{target} to the trash", error, "nothing was moved") from None
        self._refresh(target)
        return entry

    def _check_trash_folder(self, rel: str) -> None:
        """Refuse to trash into a trash folder that is a file or a link out of the tree."""
        folder = self.root / trash.TRASH_DIR
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise StoreError(
                f"cannot move {rel} to the trash (nothing was moved): {trash.TRASH_DIR} is not "
                "a plain folder; move it away, then try again"
            )

    def trash_entries(self) -> list[TrashEntry]:
        return trash.entries(self.root)

    def trash_listing(self) -> TrashListing:
        """The trash's entries, the damaged ones it cannot restore, and any problem with it."""
        return trash.listing(self.root)

    @writes_tree
    def restore(self, entry_id: str) -> str:
        """Bring a trashed item back where it came from."""
        entry = trash.find(self.root, entry_id)
        self.safe_path(entry.path)
        try:
            rel = trash.restore(self.root, entry)
        except OSError as error:
            raise failure("restore", entry.path, error, "it stays in the trash") from None
        self._refresh(rel)
        return rel

    @writes_tree
    def remove_from_trash(self, entry_ids: list[str]) -> list[TrashEntry]:
        """Delete these trash entries for good (the ones a person was shown and agreed to)."""
        try:
            return trash.remove(self.root, entry_ids)
        except OSError as error:
            raise failure("empty", trash.TRASH_DIR, error, "some items may remain") from None

    @writes_tree
    def empty_trash(self, older_than_days: int) -> list[TrashEntry]:
        try:
            return trash.empty(self.root, older_than_days, dt.datetime.now())
        except OSError as error:
            raise failure("empty", trash.TRASH_DIR, error, "some items may remain") from None


def _gone(root: Path) -> str:
    return f"the tree folder {root} is no longer there (renamed or removed?)"


def _pending_problems(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    return tuple(p for p in problems if PENDING_DIR in p.path)


def _fingerprint(memory: Memory) -> tuple[str, tuple[str, ...], tuple[Problem, ...]]:
    """What makes a record differ: its bytes, its project's other files, what went wrong reading."""
    return memory.digest, memory.companions, memory.problems


def _covers(rel: str, folder: str) -> bool:
    """True when a change at rel can touch folder: rel is the folder, inside it, or above it."""
    return rel in ("", folder) or folder.startswith(rel + "/") or rel.startswith(folder + "/")


def _absorb_scopes(rels: Iterable[str]) -> tuple[list[tuple[Kind, str]], bool, bool]:
    """Where to re-read for changed paths, and whether pending updates or sessions were touched.

    A change inside a project folder re-reads the whole project (status.md and its companions); a
    path at or above a kind folder (`.ai` itself, say) re-reads the whole kind. Scopes inside other
    scopes are dropped, so a burst of files in one new folder is read once.
    """
    wanted: dict[Kind, set[str]] = {}
    pending = sessions = False
    for raw in rels:
        rel = raw.strip("/").removeprefix("./")
        rel = "" if rel == "." else rel
        pending = pending or _covers(rel, _PENDING_FOLDER)
        sessions = sessions or _covers(rel, _SESSIONS_FOLDER)
        for kind in Kind:
            folder = kind.folder
            if rel.startswith(folder + "/"):
                scope = rel
                if kind.is_project_kind:
                    scope = f"{folder}/{rel[len(folder) + 1 :].split('/', 1)[0]}"
                if scope != _PENDING_FOLDER:
                    wanted.setdefault(kind, set()).add(scope)
            elif _covers(rel, folder):
                wanted.setdefault(kind, set()).add(folder)
    scopes: list[tuple[Kind, str]] = []
    for kind, rels_of_kind in wanted.items():
        for rel in sorted(rels_of_kind):
            parts = rel.split("/")
            if not any("/".join(parts[:n]) in rels_of_kind for n in range(1, len(parts))):
                scopes.append((kind, rel))
    return scopes, pending, sessions


def _day(value: Any) -> dt.date | None:
    """The day a `date` value names: bare, with a time of day, or quoted (`"2026-11-28"`)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return schema.quoted_date(value)

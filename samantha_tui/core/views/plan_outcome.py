"""The tree as a plan would leave it, worked out in memory: its records, and the index files the
door's patch would write after the plan's steps. Nothing is written.

It follows what `writing/door.py` does, step by step: a step whose file no longer holds what the
plan saw is skipped (and so is every later step on that file or folder), an edit sets `updated:`
to today unless told not to, a trashed project status.md takes its folder, a move carries a
project's companions; then the indexes of the kinds the steps touched are patched at the entries
they touched, a kind whose index.json cannot be read left alone. The plan's own index writes and
project-fields steps are applied to the index bytes first, as on disk.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..basics.digest import digest_bytes
from ..basics.json_read import loads as json_loads
from ..basics.json_read import read_regular
from ..basics.model import TASKS_INDEX, Kind, Memory, Tree, kind_of_path
from ..basics.plans import Operation, Plan, touched_by
from ..basics.schema import value_error
from ..reading import frontmatter, heading
from ..reading.reader import memory_from_bytes
from .indexes import kinds_affected
from .indexes.plan import INDEX_JSON, INDEX_MD, planned_by_kind
from .indexes.scope import Scope
from .project_fields import locate, patched

__all__ = ["Outcome", "Unforeseeable", "outcome_of"]

_KIND_ORDER = {kind: index for index, kind in enumerate(Kind)}


class Unforeseeable(ValueError):
    """What the plan does cannot be told without doing it (or the door would refuse it): the
    message says why, for a person."""


@dataclass(frozen=True)
class Outcome:
    """The tree a plan would leave, and the index files it would change."""

    tree: Tree[Memory]
    index_files: Mapping[str, bytes | None]
    """Every index file (index.json, index.md) the plan or its patch would change, by path from
    the root, with its new bytes (None: no file)."""
    skipped: tuple[str, ...] = ()
    """The paths of the steps that would be skipped: their file changed since the plan."""


def _tree_order(memory: Memory) -> tuple[int, str]:
    """The order a scan gives (and the store keeps): by kind, then by path."""
    return _KIND_ORDER[memory.kind], memory.path


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + "/")


def _related(first: str, second: str) -> bool:
    return _under(first, second) or _under(second, first)


def _is_index(path: str) -> bool:
    return path.rsplit("/", 1)[-1] in (INDEX_JSON, INDEX_MD)


class _Run:
    """The plan's steps over the records and the bytes they would leave."""

    def __init__(self, tree: Tree[Memory], today: dt.date) -> None:
        self.root = Path(tree.root)
        self.today = today
        self.records = {m.path: m for m in tree.memories}
        self.files: dict[str, bytes | None] = {}
        """Bytes the steps wrote (None: removed), by path; every other file is as on disk."""
        self.pending = list(tree.pending_updates)
        self.touched: list[str] = []
        self.skipped: list[str] = []

    def read(self, rel: str) -> bytes | None:
        if rel in self.files:
            return self.files[rel]
        try:
            return read_regular(self.root / rel)
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            return None
        except OSError as error:
            raise Unforeseeable(f"{rel} cannot be read: {error.strerror or error}") from None

    def exists(self, rel: str) -> bool:
        if rel in self.files:
            return self.files[rel] is not None
        if any(_under(path, rel) and data is not None for path, data in self.files.items()):
            return True
        if any(_under(path, rel) for path in self.records):
            return True
        gone = any(_under(rel, path) and data is None for path, data in self.files.items())
        return not gone and (self.root / rel).exists()

    def text(self, rel: str) -> str:
        raw = self.read(rel)
        if raw is None:
            raise Unforeseeable(f"{rel} no longer exists")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Unforeseeable(f"{rel} is not UTF-8 text") from None

    def record(self, rel: str, raw: bytes, companions: tuple[str, ...] = ()) -> None:
        kind = kind_of_path(rel)
        if kind is None:
            raise Unforeseeable(f"{rel} is not inside any memory kind folder")
        self.files[rel] = raw
        self.records[rel] = memory_from_bytes(rel, kind, raw, self.today, companions)

    # --- the steps ------------------------------------------------------------------------------

    def run(self, plan: Plan) -> None:
        edited: dict[str, str] = {}
        for op in plan.operations:
            if any(_related(s, op.path) or _related(s, op.target or op.path) for s in self.skipped):
                # After a step the door skips, every later step on that file or folder is too.
                self.skipped.append(op.path)
                continue
            if op.seen is not None:
                # A step on a file an earlier checked edit of the plan wrote expects what that
                # edit wrote (an escalated memory is promoted with its new importance).
                seen = edited.get(op.path, op.seen)
                raw = self.read(op.path)
                if raw is None or digest_bytes(raw) != seen:
                    self.skipped.append(op.path)
                    continue
            self.step(op)
            self.touched.extend(touched_by(op))
            if op.seen is not None and op.action == "edit":
                written = self.files.get(op.path)
                edited[op.path] = digest_bytes(written or b"")

    def step(self, op: Operation) -> None:
        action = op.action
        if action == "trash":
            self.trash(op.path)
        elif action == "add":
            if self.exists(op.path):
                raise Unforeseeable(f"{op.path} already exists")
            self.record(op.path, op.data or b"")
        elif action == "copy":
            target = op.target or ""
            if self.exists(target):
                raise Unforeseeable(f"{target} already exists")
            self.record(target, self._edited(op.path, op.values).encode("utf-8"))
        elif action == "edit":
            self.edit(op)
        elif action == "write":
            known = self.records.get(op.path)
            self.record(op.path, op.data or b"", known.companions if known else ())
        elif action == "move":
            self.move(op.path, op.target or "")
        elif action == "index":
            self.files[op.path] = op.data or b""
        elif action == "project-fields":
            self.project_fields(op)
        elif action == "restore":
            raise Unforeseeable("what a restore from the trash brings back is not read ahead")
        else:
            raise Unforeseeable(f"unknown operation {action!r}")

    def _edited(self, rel: str, values: Mapping[str, Any], unset: Iterable[str] = ()) -> str:
        try:
            return frontmatter.edit(self.text(rel), dict(values), unset)
        except frontmatter.FrontmatterError as error:
            raise Unforeseeable(f"{rel}: {error}") from None

    def edit(self, op: Operation) -> None:
        values = dict(op.values)
        for key, value in values.items():
            message = value_error(key, value)
            if message:
                raise Unforeseeable(f"{op.path}: {message}")
        if op.touch_updated and "updated" not in values and "updated" not in op.unset:
            values["updated"] = self.today
        text = self._edited(op.path, values, op.unset)
        if op.title is not None:
            try:
                text = heading.retitle(text, op.title)
            except heading.TitleError as error:
                raise Unforeseeable(f"{op.path}: {error}") from None
        known = self.records.get(op.path)
        self.record(op.path, text.encode("utf-8"), known.companions if known else ())

    def trash(self, rel: str) -> None:
        memory = self.records.get(rel)
        target = rel
        if memory is not None and memory.kind.is_project_kind and rel.endswith("/status.md"):
            target = rel.rsplit("/", 1)[0]
        if not self.exists(target):
            raise Unforeseeable(f"{target} does not exist")
        for path in [p for p in self.records if _under(p, target)]:
            del self.records[path]
            self.files[path] = None
        self.files[target] = None
        self.pending = [u for u in self.pending if not _under(u.path, target)]

    def move(self, rel: str, target: str) -> None:
        if kind_of_path(target) is None:
            raise Unforeseeable(f"{target} is not inside any memory kind folder")
        if not self.exists(rel):
            raise Unforeseeable(f"{rel} does not exist")
        if self.exists(target):
            raise Unforeseeable(f"{target} already exists")

        def moved(path: str) -> str:
            return target + path[len(rel) :]

        for path in [p for p in self.records if _under(p, rel)]:
            memory = self.records.pop(path)
            raw = self.read(path)
            self.files[path] = None
            if raw is not None:
                self.record(moved(path), raw, tuple(map(moved, memory.companions)))
        self.files[rel] = None

    def project_fields(self, op: Operation) -> None:
        raw = self.read(TASKS_INDEX)
        if raw is None:
            raise Unforeseeable(f"{TASKS_INDEX} does not exist")
        try:
            data = json_loads(raw)
        except ValueError:
            raise Unforeseeable(f"{TASKS_INDEX} is not valid JSON") from None
        if not isinstance(data, dict):
            raise Unforeseeable(f"{TASKS_INDEX} is not a JSON object")
        project = op.target or ""
        where = locate(data, project)
        if where is None:
            raise Unforeseeable(
                f"project {project!r} is not in the active or recently_completed list of"
                f" {TASKS_INDEX}"
            )
        entry = data[where[0]][where[1]]
        unset = tuple(key for key in op.unset if key not in op.values)
        for key in unset:
            entry.pop(key, None)
        entry.update(op.values)
        data["last_updated"] = self.today.isoformat()
        self.files[TASKS_INDEX] = patched(raw, data, where, op.values, unset)

    # --- the index patch after the steps ---------------------------------------------------------

    def patch_indexes(self, before: Tree[Memory], after: Tree[Memory], plan: Plan) -> None:
        kinds = kinds_affected(self.touched)
        if not kinds:
            return
        wanted = {path for op in plan.operations for path in (op.path, op.target) if path}
        previous = {
            m.path: m for m in before.memories if any(_under(m.path, path) for path in wanted)
        }
        current = {path: self.records[path] for path in previous if path in self.records}
        scope = Scope(frozenset(self.touched), previous, current)
        stand_ins = {path: data for path, data in self.files.items() if _is_index(path)}
        planned = planned_by_kind(
            after, self.root, self.today, kinds, False, scope, files=stand_ins
        )
        for kind_plan in planned:
            # A change's patch never rebuilds an index it cannot read (as the door).
            if kind_plan.unreadable:
                continue
            for update in kind_plan.updates:
                self.files[update.path] = update.new


def outcome_of(tree: Tree[Memory], plan: Plan, today: dt.date) -> Outcome:
    """The tree and index files as applying `plan` through the door on `today` would leave
    them, if the files are as `tree` read them. Raises Unforeseeable, writing nothing, for a
    plan the door would refuse or whose result cannot be read ahead (a restore)."""
    run = _Run(tree, today)
    run.run(plan)
    memories = tuple(sorted(run.records.values(), key=_tree_order))
    after = dataclasses.replace(tree, memories=memories, pending_updates=tuple(run.pending))
    after = dataclasses.replace(after, delta=None)
    run.patch_indexes(tree, after, plan)
    index_files = {path: data for path, data in run.files.items() if _is_index(path)}
    return Outcome(after, index_files, tuple(run.skipped))

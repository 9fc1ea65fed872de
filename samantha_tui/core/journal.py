"""The journal of a batch in progress, in `.ai/.journal/`: the plan, what each step found before it
ran, and which steps completed, so a batch a crash interrupted can be finished or rolled back.

Files, each written whole by the atomic writer: `plan.json` (the operations; written first, removed
first: the journal is pending exactly while it exists), `step-<n>.json` (what operation n changes,
as it was before: digests, and the bytes of files rewritten in place), `done-<n>.json` (operation n
completed: what it left), `indexes.json` (the index files as they were before regeneration).
samantha-llm reads only its kind folders and the scan skips dot-folders: nobody else looks here.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import tree_lock
from .atomic import StoreError, digest_bytes, digest_of, failure, write_atomic
from .model import Problem, Severity

JOURNAL_DIR = ".ai/.journal"
PLAN_FILE = "plan.json"
INDEXES_FILE = "indexes.json"
FORMAT = 1
_STEP = re.compile(r"^(step|done)-(\d+)\.json$")
# The atomic writer's temporary files: `.<name>.<8 random characters>.tmp` beside the file.
TEMPORARY = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")


@dataclass(frozen=True)
class Before:
    """A file or folder a step changes, as it was before the step ran."""

    path: str
    digest: str | None
    """sha256 of the file, or of a folder's file names and digests; None when it did not exist."""
    kept: bytes | None = None
    """The file's bytes, to put back when rolling back (files a step rewrites in place)."""


@dataclass(frozen=True)
class Done:
    """What a completed step left: digests of what it wrote, the trash entry it made."""

    after: Mapping[str, str | None] = field(default_factory=dict)
    trash_id: str | None = None


@dataclass(frozen=True)
class Journal:
    """An interrupted batch, as its journal tells it."""

    name: str
    started: str
    operations: tuple[Mapping[str, Any], ...]
    """As `plan.encode` wrote them."""
    steps: Mapping[int, tuple[Before, ...]]
    """By operation number: the ones that were started."""
    done: Mapping[int, Done]
    """By operation number: the ones that completed."""
    indexes: tuple[Before, ...] | None
    """The index files before regeneration began; None when it had not begun."""

    @property
    def total(self) -> int:
        return len(self.operations)

    def describe(self) -> str:
        """`<plan name>, N of M steps done`: what the person is asked about."""
        return f"{self.name}, {len(self.done)} of {self.total} steps done"


def _folder(root: Path) -> Path:
    return Path(root) / JOURNAL_DIR


def pending(root: Path) -> Journal | None:
    """The interrupted batch in this tree, or None; reads only. A damaged journal raises."""
    base = _folder(root)
    plan_path = base / PLAN_FILE
    if not plan_path.is_file():
        return None
    try:
        plan = _load(plan_path)
        steps: dict[int, tuple[Before, ...]] = {}
        done: dict[int, Done] = {}
        for path in sorted(base.iterdir()):
            match = _STEP.match(path.name)
            if match is None:
                continue
            data, number = _load(path), int(match.group(2))
            if match.group(1) == "step":
                steps[number] = tuple(_before(item) for item in data["before"])
            else:
                done[number] = Done(dict(data["after"]), data.get("trash_id"))
        indexes_path = base / INDEXES_FILE
        indexes = None
        if indexes_path.is_file():
            indexes = tuple(_before(item) for item in _load(indexes_path)["before"])
        return Journal(
            name=str(plan["name"]),
            started=str(plan["started"]),
            operations=tuple(plan["operations"]),
            steps=steps,
            done=done,
            indexes=indexes,
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise StoreError(
            f"the journal of an interrupted change in {JOURNAL_DIR} cannot be read ({error}); "
            f"look at it, then remove that folder by hand"
        ) from None


@dataclass(frozen=True)
class InProgress:
    """A journal whose batch is still running: another process holds the tree's lock."""

    holder: tree_lock.Holder

    def describe(self) -> str:
        return f"a change is in progress in another process ({self.holder.describe()})"


def current(root: Path) -> Journal | InProgress | None:
    """The interrupted batch, a batch another process is running now, or None; reads only.

    The journal is read holding the tree's lock for the look, so a batch starting meanwhile is
    never read half begun; while another process holds the lock its journal is not read at all.
    """
    with tree_lock.peek(root) as holder:
        if holder is not None:
            return InProgress(holder) if (_folder(root) / PLAN_FILE).is_file() else None
        return pending(root)


def refuse_if_pending(root: Path) -> None:
    """Raise when an interrupted batch waits: a new change could spoil finishing or undoing it.

    A batch another process is running is refused with its holder named: it is not interrupted.
    """
    found = current(root)
    if isinstance(found, InProgress):
        raise tree_lock.TreeBusy(
            found.holder,
            f"{found.describe()}; nothing was written; try again when it is done",
        )
    if found is not None:
        raise StoreError(
            f"an earlier change was interrupted ({found.describe()}); nothing was written. "
            "Finish or roll it back first: restart samantha-tui, or run `samantha-tui recover`"
        )


def begin(root: Path, name: str, operations: Sequence[Mapping[str, Any]], started: str) -> Writer:
    """Start the journal of a batch: its plan is on disk before any operation runs."""
    refuse_if_pending(root)
    base = _folder(root)
    if base.exists():
        shutil.rmtree(base)  # the leftovers of a journal whose removal was cut short
    base.mkdir(parents=True)
    plan = {
        "format": FORMAT,
        "name": name,
        "started": started,
        "operations": list(operations),
    }
    writer = Writer(root)
    try:
        writer.write(PLAN_FILE, plan)
    except (StoreError, TypeError) as error:
        shutil.rmtree(base, ignore_errors=True)
        if isinstance(error, StoreError):
            raise
        raise StoreError(f"cannot record this change ({error}); nothing was written") from None
    return writer


class Writer:
    """Writes a batch's progress into its journal; `close` removes the journal."""

    def __init__(self, root: Path) -> None:
        self.base = _folder(root)

    def write(self, name: str, data: Mapping[str, Any]) -> None:
        path = self.base / name
        raw = json.dumps(data, indent=2).encode("utf-8") + b"\n"
        try:
            # A step run again (finishing after a crash) replaces the record of its first try.
            write_atomic(path, raw, f"{JOURNAL_DIR}/{name}", digest_of(path))
        except OSError as error:
            raise failure("write", f"{JOURNAL_DIR}/{name}", error, "no step was taken") from None

    def step(self, index: int, before: Iterable[Before]) -> None:
        """Operation `index` is about to run; this is what it changes, as it is now."""
        self.write(f"step-{index}.json", {"before": [_record(item) for item in before]})

    def done(self, index: int, done: Done) -> None:
        """Operation `index` completed."""
        record = {"after": dict(done.after), "trash_id": done.trash_id}
        self.write(f"done-{index}.json", record)

    def undoing(self, index: int) -> None:
        """Operation `index` is about to be undone: from now on it is judged by what is on disk."""
        _unlink(self.base / f"done-{index}.json")

    def undone(self, index: int) -> None:
        """Operation `index` is undone: as far as the journal knows, it never ran."""
        _unlink(self.base / f"step-{index}.json")

    def indexes(self, before: Iterable[Before]) -> None:
        """Every operation completed; regeneration of these index files begins."""
        self.write(INDEXES_FILE, {"before": [_record(item) for item in before]})

    def indexes_undone(self) -> None:
        """The index files have their old bytes back; later steps may change them again."""
        _unlink(self.base / INDEXES_FILE)

    def close(self) -> None:
        """The batch is over (done or wholly undone): remove its journal, plan first."""
        _unlink(self.base / PLAN_FILE)
        shutil.rmtree(self.base, ignore_errors=True)


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as error:
        rel = f"{JOURNAL_DIR}/{path.name}"
        raise failure(
            "remove", rel, error, "the journal stays for `samantha-tui recover`"
        ) from None


def _load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_bytes())
    if not isinstance(data, dict):
        raise ValueError(f"{path.name} is not a JSON object")
    return data


def _record(item: Before) -> dict[str, Any]:
    kept = None if item.kept is None else base64.b64encode(item.kept).decode("ascii")
    return {"path": item.path, "digest": item.digest, "kept": kept}


def _before(data: Mapping[str, Any]) -> Before:
    kept = data.get("kept")
    return Before(
        str(data["path"]), data["digest"], None if kept is None else base64.b64decode(kept)
    )


def content_digest(path: Path) -> str | None:
    """sha256 of a file, or of a folder's files (names and digests); None when nothing is there.

    The atomic writer's temporary files do not count: recovery removes them.
    """
    if path.is_symlink():
        return digest_bytes(os.readlink(path).encode("utf-8", "surrogateescape"))
    if not path.is_dir():
        return digest_of(path)
    summary = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        for name in sorted(filenames):
            if TEMPORARY.match(name):
                continue
            file_path = Path(dirpath) / name
            rel = file_path.relative_to(path).as_posix()
            summary.update(f"{rel}\0{content_digest(file_path)}\n".encode("utf-8", "replace"))
    return summary.hexdigest()


def file_before(root: Path, rel: str) -> Before:
    """A file a step rewrites in place, with its bytes kept (or absent)."""
    try:
        raw = (Path(root) / rel).read_bytes()
    except FileNotFoundError:
        return Before(rel, None)
    return Before(rel, digest_bytes(raw), raw)


def temporary_files(root: Path) -> list[str]:
    """The atomic writer's leftovers under `.ai/` (a write killed part way), root-relative."""
    found: list[str] = []
    start = Path(root) / ".ai"
    for dirpath, dirnames, filenames in os.walk(start):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        base = Path(dirpath)
        found.extend(
            (base / name).relative_to(root).as_posix()
            for name in sorted(filenames)
            if TEMPORARY.match(name)
        )
    return found


def leftovers(root: Path) -> bool:
    """True when a journal folder is there without a plan: its removal was cut short."""
    base = _folder(root)
    return base.exists() and not (base / PLAN_FILE).exists()


def remove_leftovers(root: Path) -> None:
    """Remove a journal folder left without its plan (nothing in it is pending)."""
    if leftovers(root):
        shutil.rmtree(_folder(root))


def problems(root: Path) -> tuple[Problem, ...]:
    """An interrupted batch as the problem `check` reports; none when nothing waits.

    A batch another process is running is a warning (it is no fault of the tree) naming it.
    """
    try:
        found = current(root)
    except StoreError as error:
        return (Problem(JOURNAL_DIR, str(error)),)
    if found is None:
        return ()
    if isinstance(found, InProgress):
        message = f"{found.describe()}; it is not interrupted: let it finish"
        return (Problem(JOURNAL_DIR, message, severity=Severity.WARNING),)
    message = (
        f"an earlier change was interrupted: {found.describe()}; "
        "run `samantha-tui recover` to finish or roll it back"
    )
    return (Problem(JOURNAL_DIR, message),)

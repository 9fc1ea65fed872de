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
import shlex
import shutil
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..basics.json_read import loads, read_regular
from ..basics.model import Problem, Severity
from . import journal_paths, tree_lock
from .atomic import StoreError, digest_bytes, digest_of, failure, irregular_digest, write_atomic
from .journal_paths import JOURNAL_DIR
from .journal_records import Before, Done, Journal

PLAN_FILE = "plan.json"
INDEXES_FILE = "indexes.json"
FORMAT = 1
_STEP = re.compile(r"^(step|done)-(\d+)\.json$")
# The atomic writer's temporary files: `.<name>.<8 random characters>.tmp` beside the file.
TEMPORARY = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")


def _folder(root: Path) -> Path:
    return Path(root) / JOURNAL_DIR


def pending(root: Path) -> Journal | None:
    """The interrupted batch in this tree, or None; reads only. A damaged journal raises, and so
    does one naming any path recovery may not act on (see journal_paths): it is refused whole."""
    journal_paths.check_folder(root)
    base = _folder(root)
    plan_path = base / PLAN_FILE
    if not os.path.lexists(plan_path):
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
        if os.path.lexists(indexes_path):
            indexes = tuple(_before(item) for item in _load(indexes_path)["before"])
        if not isinstance(plan["operations"], list):
            raise ValueError("its operations are not a list")
        found = Journal(
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
    journal_paths.check(root, found)
    return found


def skipped_steps(root: Path) -> dict[int, str]:
    """The steps of the pending batch it left out (their file changed since its plan), by
    number, with the reason; read apart from `pending`, which reads them as done."""
    found: dict[int, str] = {}
    base = _folder(root)
    if not base.is_dir():
        return found
    for path in base.iterdir():
        match = _STEP.match(path.name)
        if match is None or match.group(1) != "done":
            continue
        try:
            reason = _load(path).get("skipped")
        except (OSError, ValueError):
            continue  # `pending` has already said what is wrong with it
        if isinstance(reason, str):
            found[int(match.group(2))] = reason
    return found


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
            f"Finish or roll it back first: {what_to_run(root)}"
        )


def what_to_run(root: Path) -> str:
    """The very commands that finish or roll back the interrupted batch of this tree."""
    recover = f"samantha-tui recover --{{}} --tree {shlex.quote(str(root))}"
    return (
        f"run `{recover.format('finish')}` to complete it, or "
        f"`{recover.format('rollback')}` to put every file back as it was "
        "(`samantha-tui recover` alone shows what each would change; restarting samantha-tui "
        "asks too)"
    )


def notice(root: Path) -> str | None:
    """For a command that only reads: one line when an interrupted batch waits, saying what
    the next change will do about it or what to run; None when nothing waits. Never raises."""
    try:
        found = current(root)
    except StoreError as error:
        return str(error)
    if not isinstance(found, Journal):
        return None
    if len(found.done) >= found.total:
        return (
            f"an earlier change stopped before writing its index files ({found.describe()}); "
            f"the next change finishes it, or {what_to_run(root)}"
        )
    return f"an earlier change was interrupted ({found.describe()}); {what_to_run(root)}"


def begin(root: Path, name: str, operations: Sequence[Mapping[str, Any]], started: str) -> Writer:
    """Start the journal of a batch: its plan is on disk before any operation runs."""
    refuse_if_pending(root)
    base = _folder(root)
    if (Path(root) / ".ai").is_symlink():
        # The journal would be made wherever the link points, outside the tree.
        raise StoreError(
            ".ai is a symbolic link, so no change is recorded there; nothing was written"
        )
    if base.exists():
        _remove_folder(base)  # the leftovers of a journal whose removal was cut short
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
        _remove_folder(base, ignore_errors=True)
        if isinstance(error, StoreError):
            raise
        raise StoreError(f"cannot record this change ({error}); nothing was written") from None
    return writer


class Writer:
    """Writes a batch's progress into its journal; `close` removes the journal."""

    def __init__(self, root: Path) -> None:
        self.base = _folder(root)

    def write(self, name: str, data: Mapping[str, Any], outcome: str = "no step was taken") -> None:
        path = self.base / name
        raw = json.dumps(data, indent=2).encode("utf-8") + b"\n"
        try:
            # A step run again (finishing after a crash) replaces the record of its first try.
            write_atomic(path, raw, f"{JOURNAL_DIR}/{name}", digest_of(path))
        except OSError as error:
            raise failure("write", f"{JOURNAL_DIR}/{name}", error, outcome) from None

    # Each record's failure says what it left of its own step, no more: earlier steps may have
    # run, and what becomes of them (undone, or the journal kept) is the batch's to say.

    def step(self, index: int, before: Iterable[Before]) -> None:
        """Operation `index` is about to run; this is what it changes, as it is now."""
        record = {"before": [_record(item) for item in before]}
        self.write(f"step-{index}.json", record, f"step {index + 1} was not taken")

    def done(self, index: int, done: Done) -> None:
        """Operation `index` completed."""
        record = {"after": dict(done.after), "trash_id": done.trash_id}
        self.write(f"done-{index}.json", record, f"step {index + 1} had been taken")

    def skipped(self, index: int, reason: str) -> None:
        """Operation `index` was left out (its file changed since the plan): nothing of it is
        done, and recovery neither redoes nor undoes it."""
        record: dict[str, Any] = {"after": {}, "trash_id": None, "skipped": reason}
        self.write(f"done-{index}.json", record, f"step {index + 1} was left out")

    def undoing(self, index: int) -> None:
        """Operation `index` is about to be undone: from now on it is judged by what is on disk."""
        _unlink(self.base / f"done-{index}.json")

    def undone(self, index: int) -> None:
        """Operation `index` is undone: as far as the journal knows, it never ran."""
        _unlink(self.base / f"step-{index}.json")

    def indexes(self, before: Iterable[Before]) -> None:
        """Every operation completed; regeneration of these index files begins."""
        record = {"before": [_record(item) for item in before]}
        # Every step already ran: only the index files are still to write.
        self.write(INDEXES_FILE, record, "the index files were not written")

    def indexes_undone(self) -> None:
        """The index files have their old bytes back; later steps may change them again."""
        _unlink(self.base / INDEXES_FILE)

    def close(self) -> None:
        """The batch is over (done or wholly undone): remove its journal, plan first."""
        _unlink(self.base / PLAN_FILE)
        _remove_folder(self.base, ignore_errors=True)


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


def _remove_folder(base: Path, ignore_errors: bool = False) -> None:
    """rmtree of the journal folder itself, never of what a link in its place points to."""
    if base.is_symlink() or not base.is_dir():
        if ignore_errors:
            return
        raise StoreError(f"{JOURNAL_DIR} is not a plain folder; move it away, then try again")
    shutil.rmtree(base, ignore_errors=ignore_errors)


def _load(path: Path) -> dict[str, Any]:
    # O_NOFOLLOW: a journal file that is a link would read bytes from anywhere into the plan;
    # O_NONBLOCK: a FIFO in its place must not hang the start.
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise ValueError(f"{path.name} is not a plain file")
        raw = file.read()
    data = loads(raw)  # too deep is a ValueError: a damaged journal, not a crash
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
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return digest_bytes(os.readlink(path).encode("utf-8", "surrogateescape"))
    if not stat.S_ISDIR(info.st_mode):
        # A named pipe or a device is listed by its type, never opened: reading one waits.
        regular = stat.S_ISREG(info.st_mode)
        return digest_of(path) if regular else irregular_digest(info.st_mode)
    summary = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        for name in sorted(filenames):
            if TEMPORARY.match(name):
                continue
            file_path = Path(dirpath) / name
            rel = file_path.relative_to(path).as_posix()
            # surrogateescape: a name with a byte that is not UTF-8 is summed as its very bytes.
            line = f"{rel}\0{content_digest(file_path)}\n".encode("utf-8", "surrogateescape")
            summary.update(line)
    return summary.hexdigest()


def file_before(root: Path, rel: str) -> Before:
    """A file a step rewrites in place, with its bytes kept (or absent)."""
    try:
        raw = read_regular(Path(root) / rel)
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
    # A link in its place is no leftover of ours: pending() refuses it, nothing removes it.
    return base.is_dir() and not base.is_symlink() and not os.path.lexists(base / PLAN_FILE)


def remove_leftovers(root: Path) -> None:
    """Remove a journal folder left without its plan (nothing in it is pending)."""
    if leftovers(root):
        _remove_folder(_folder(root))


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

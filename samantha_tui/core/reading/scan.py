"""Walk a cerebrum and read every memory, pending update and staged session into a Tree."""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import stat
from pathlib import Path

from ..basics.json_read import kind_of, read_json
from ..basics.model import (
    CONFIDENCE_WORDS,
    Delta,
    Kind,
    Memory,
    PendingUpdate,
    Problem,
    Severity,
    StagedSession,
    Tree,
)
from ..basics.progress import report as report_progress
from .catalog import Catalog, Refreshed, collector_paused

INDEX_FILES = frozenset({"index.md", "index.json"})
PENDING_DIR = "pending-updates"
STATUS_FILE = "status.md"
SUBCONSCIOUS = ".ai/subconscious/.ai"


def _visible(name: str) -> bool:
    return not name.startswith(".")


def memory_paths(
    root: Path, kind: Kind, under: str | None = None
) -> list[tuple[str, tuple[str, ...]]]:
    """(memory path, companion paths) for every memory of a kind, relative to root, sorted.

    `under` limits the walk to one file or folder of the kind (after a change there), so one
    operation does not list the whole kind again.
    """
    folder = root / kind.folder
    found: list[tuple[str, tuple[str, ...]]] = []
    if not folder.is_dir():
        return found
    if kind.is_project_kind:
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            rel = f"{kind.folder}/{entry.name}"
            if under is not None and not (under == rel or under.startswith(rel + "/")):
                continue
            if entry.is_dir(follow_symlinks=False) and _visible(entry.name):
                if entry.name == PENDING_DIR and kind is Kind.CURRENT_TASKS:
                    continue
                found.append((f"{rel}/{STATUS_FILE}", project_files(root, rel)))
            elif (_is_memory_file(entry.name) and not entry.is_dir()) or _leads_out(root, entry):
                found.append((rel, ()))  # a link out is listed for the reader to report
        return found
    start = root / under if under is not None else folder
    if start.is_file():
        return [(under, ())] if under is not None and _is_memory_file(start.name) else []
    bases = {str(start): start.relative_to(root).as_posix()}
    for dirpath, dirnames, filenames in os.walk(str(start)):
        dirnames[:] = sorted(d for d in dirnames if _visible(d))
        base = _folders_below(bases, dirpath, dirnames)
        # _is_memory_file, spelled out: this runs for every file of the tree at every search.
        found.extend(
            (f"{base}/{name}", ())
            for name in sorted(filenames)
            if name.endswith(".md") and not name.startswith(".") and name not in INDEX_FILES
        )
        # os.walk never enters a linked folder; one leading out of the tree is listed, so the
        # reader reports it instead of the folder vanishing without a word.
        found.extend(
            (f"{base}/{name}", ()) for name in dirnames if _leads_out(root, Path(dirpath, name))
        )
    return sorted(found)


def _folders_below(bases: dict[str, str], dirpath: str, dirnames: list[str]) -> str:
    """dirpath's path relative to the root, from `bases` (walked folder -> relative path), which
    learns those of the folders the walk enters next: os.walk joins each to its parent's path,
    so no path is parsed again (pathlib's parsing was a good part of a listing's time)."""
    base = bases[dirpath]
    for name in dirnames:
        bases[os.path.join(dirpath, name)] = f"{base}/{name}"
    return base


def project_files(root: Path, folder: str) -> tuple[str, ...]:
    """Every file of a project folder but its status.md, at any depth, relative to root, sorted.

    They move and go to the trash with the project, so they are its companions. Hidden files and
    folders are left to `unlisted_markdown`. A top-level companion has no `/` after the folder.
    """
    files: list[str] = []
    # A folder as the walk names it is normal already: pathlib is asked only about others.
    base = folder if posixpath.normpath(folder) == folder else None
    if base is None:
        base = (root / folder).relative_to(root).as_posix()
    top = f"{root}/{base}"
    bases = {top: base}

    def unreadable(error: OSError) -> None:
        if error.filename == top:
            raise error  # the scan reports a project folder it cannot list
        # A subfolder that cannot be listed still goes with the project: it is named.
        files.append(bases[error.filename])

    for dirpath, dirnames, filenames in os.walk(top, onerror=unreadable):
        dirnames[:] = [d for d in dirnames if _visible(d)]
        base = _folders_below(bases, dirpath, dirnames)
        # A linked folder is not entered, but the link itself goes with the project.
        links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        files.extend(f"{base}/{name}" for name in (*filenames, *links) if _visible(name))
    top_status = f"{folder}/{STATUS_FILE}"
    return tuple(sorted(f for f in files if f != top_status))


# Why each Markdown file that samantha-llm's search reads is not a memory here.
HIDDEN_FILE = "hidden file: samantha-llm's search reads it, samantha-tui lists no hidden files"
HIDDEN_FOLDER = (
    "in a hidden folder ({folder}/): samantha-llm's search reads it, "
    "samantha-tui lists no hidden files"
)
PENDING_MARKDOWN = (
    f"Markdown in {PENDING_DIR}/: samantha-llm's search reads it, "
    "samantha-tui reads only the .json updates there"
)


def unlisted_markdown(root: Path, kind: Kind, under: str | None = None) -> list[Problem]:
    """A warning for each `.md` under a kind folder that samantha-llm's local search reads but
    samantha-tui lists neither as a memory nor as a project's file: hidden files, the contents of
    hidden folders (`.archive/`) and Markdown in `pending-updates/`. Sorted by path.

    `under` limits the walk to one file or folder of the kind, as in `memory_paths`.
    """
    start = root / under if under is not None else root / kind.folder
    if under is not None and not start.is_dir():
        warning = _unlisted_warning(kind, under) if os.path.lexists(start) else None
        return [warning] if warning is not None else []
    if os.path.islink(start) or not start.is_dir():
        return []
    warnings: list[Problem] = []
    # Like the search (pathlib's rglob), the walk does not enter linked folders.
    for dirpath, _dirnames, filenames in os.walk(start):
        base = Path(dirpath).relative_to(root).as_posix()
        inside = base != kind.folder and _unlisted_folder(kind, base)
        for name in filenames:
            # Only names that can be unlisted are looked at: a kind folder holds thousands.
            if name.endswith(".md") and (inside or name.startswith(".")):
                warning = _unlisted_warning(kind, f"{base}/{name}")
                if warning is not None:
                    warnings.append(warning)
    return sorted(warnings, key=lambda w: w.path)


def _unlisted_folder(kind: Kind, base: str) -> bool:
    """True when files in this folder are never memories: it is hidden, or holds pending updates."""
    parts = base.removeprefix(kind.folder + "/").split("/")
    return any(p.startswith(".") for p in parts) or (
        kind is Kind.CURRENT_TASKS and parts[0] == PENDING_DIR
    )


def _unlisted_warning(kind: Kind, rel: str) -> Problem | None:
    """Why samantha-tui does not list rel although samantha-llm's search reads it, or None."""
    name = rel.rsplit("/", 1)[-1]
    # The search reads every `*.md` except `index.md`, which it skips by name at any depth.
    if not name.endswith(".md") or name == "index.md":
        return None
    parts = rel.removeprefix(kind.folder + "/").split("/")
    hidden = next((i for i, part in enumerate(parts[:-1]) if part.startswith(".")), None)
    if hidden is not None:
        folder = "/".join(parts[: hidden + 1])
        return Problem(rel, HIDDEN_FOLDER.format(folder=folder), severity=Severity.WARNING)
    if name.startswith("."):
        return Problem(rel, HIDDEN_FILE, severity=Severity.WARNING)
    if kind is Kind.CURRENT_TASKS and len(parts) > 1 and parts[0] == PENDING_DIR:
        return Problem(rel, PENDING_MARKDOWN, severity=Severity.WARNING)
    return None


IRREGULAR = "not a regular file ({what}); skipped: never read, it goes where its project goes"


def irregular_files(root: Path, rels: tuple[str, ...]) -> list[Problem]:
    """A warning for each of a project's files that is a named pipe, a socket or a device: no
    digest, index or preview opens it (a pipe would wait for a writer forever)."""
    found: list[Problem] = []
    for rel in rels:
        try:
            mode = os.lstat(f"{root}/{rel}").st_mode
        except OSError:
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            message = IRREGULAR.format(what=kind_of(mode))
            found.append(Problem(rel, message, severity=Severity.WARNING))
    return found


def _leads_out(root: Path, path: Path | os.DirEntry[str]) -> bool:
    """A symlink that takes its path outside the tree."""
    if not os.path.islink(path):
        return False
    from .reader import outside_root  # imported for links only: most trees have none

    return outside_root(root, Path(path)) is not None


def _is_memory_file(name: str) -> bool:
    return name.endswith(".md") and _visible(name) and name not in INDEX_FILES


def read_pending(root: Path) -> tuple[list[PendingUpdate], list[Problem]]:
    """Pending project updates, and a problem for each file that cannot be one."""
    folder = root / Kind.CURRENT_TASKS.folder / PENDING_DIR
    updates: list[PendingUpdate] = []
    problems: list[Problem] = []
    if not folder.is_dir():
        return updates, problems
    for path in sorted(folder.glob("*.json")):
        rel = path.relative_to(root).as_posix()
        try:
            data = read_json(path)
        except (OSError, ValueError) as error:
            problems.append(Problem(rel, f"pending update is not readable JSON: {error}"))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("proposed_changes"), dict):
            problems.append(Problem(rel, "pending update has no `proposed_changes` mapping"))
            continue
        session_id = data.get("session_id")
        updates.append(
            PendingUpdate(
                path=rel,
                project=str(data.get("project_name") or path.stem.split("_", 2)[-1]),
                session_date=data.get("session_date"),
                confidence=_confidence(data.get("confidence")),
                proposed_changes=data["proposed_changes"],
                reasoning=str(data.get("reasoning") or ""),
                session_id=str(session_id) if session_id else None,
            )
        )
    return updates, problems


def _confidence(value: object) -> str | float | None:
    """samantha-llm writes a word (`low`, `medium`, `high`); a number is kept too. Other text is
    kept as written, so a person sees what the file says."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and value.strip():
        word = value.strip()
        return word.lower() if word.lower() in CONFIDENCE_WORDS else word
    return None


def read_sessions(root: Path) -> list[StagedSession]:
    """Subconscious staging sessions, each with its status and generated memories."""
    folder = root / SUBCONSCIOUS / "sessions"
    sessions: list[StagedSession] = []
    if not folder.is_dir():
        return sessions
    for path in sorted(p for p in folder.iterdir() if p.is_dir() and _visible(p.name)):
        try:
            status = read_json(path / "status.json").get("status")
        except (OSError, ValueError, AttributeError):
            status = "unknown"
        memories = tuple(
            p.relative_to(root).as_posix() for p in sorted((path / "memories").glob("*.md"))
        )
        sessions.append(StagedSession(path.relative_to(root).as_posix(), str(status), memories))
    return sessions


READING = "Reading {count} memory files"


def _list(
    root: Path, with_unlisted: bool = True
) -> tuple[list[tuple[Kind, list[tuple[str, tuple[str, ...]]]]], list[Problem], list[Problem]]:
    """Every kind's (memory path, companions), sorted by full path (the store finds records by
    bisection in this order); the problems of folders that cannot be listed; and, when asked,
    the Markdown that samantha-llm's search reads but that is not listed."""
    problems: list[Problem] = []
    unlisted: list[Problem] = []
    listed: list[tuple[Kind, list[tuple[str, tuple[str, ...]]]]] = []
    for kind in Kind:
        not_folders = [
            path
            for path in (root / ".ai" / kind.folder_name, root / kind.folder)
            if path.exists() and not path.is_dir()
        ]
        if not_folders:
            rel = not_folders[0].relative_to(root).as_posix()
            problems.append(Problem(rel, "expected a folder of memories, found a file"))
            continue
        try:
            paths = memory_paths(root, kind)
            if with_unlisted:
                unlisted.extend(unlisted_markdown(root, kind))
        except OSError as error:
            problems.append(Problem(kind.folder, f"cannot list folder: {error.strerror or error}"))
            continue
        listed.append((kind, sorted(paths)))
    return listed, problems, unlisted


def _read_memories(
    root: Path, today: dt.date, catalog: Catalog
) -> tuple[list[Memory], list[Problem], list[Problem], Delta]:
    memories: list[Memory] = []
    listed, problems, unlisted = _list(root)
    # Every folder is listed before the first file is read, so progress knows the total.
    total, done = sum(len(paths) for _kind, paths in listed), 0
    for kind, paths in listed:
        for rel, companions in paths:
            report_progress(done, total, READING)
            memories.append(catalog.read(rel, kind, today, companions))
            if companions:
                problems.extend(irregular_files(root, companions))
            done += 1
    report_progress(total, total, READING)
    delta = catalog.save()
    return memories, problems, unlisted, delta


def refresh(root: Path, today: dt.date, catalog: Catalog) -> Refreshed:
    """Bring the catalog's rows in step with the tree's memory files, listed as a scan lists
    them, without loading the record of an unchanged file (see `Catalog.refresh`).

    For a caller that needs a few records, not the whole tree: a headless search.
    """
    listed, _problems, _unlisted = _list(root, with_unlisted=False)
    return catalog.refresh(today, listed)


def scan(root: Path, today: dt.date, catalog: Catalog | None = None) -> Tree:
    """Read the whole tree. Bad files become records with problems; nothing in it is written.

    Records of files unchanged since the last scan come from the tree's catalog (the one given,
    else the user's, opened and closed here). The tree carries what the scan changed in it
    (`Tree.delta`) and any notice of the catalog's (`Tree.notices`).
    """
    own = catalog is None
    used = Catalog.open(root) if catalog is None else catalog
    try:
        with collector_paused():
            memories, problems, unlisted, delta = _read_memories(root, today, used)
        notice = used.notice
    finally:
        if own:
            used.close()
    updates, update_problems = read_pending(root)
    return Tree(
        root=str(root),
        memories=tuple(memories),
        pending_updates=tuple(updates),
        sessions=tuple(read_sessions(root)),
        problems=tuple(problems + update_problems),
        unlisted=tuple(unlisted),
        notices=(notice,) if notice else (),
        delta=delta,
    )

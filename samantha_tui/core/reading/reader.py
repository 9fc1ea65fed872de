"""One memory file on disk -> one immutable Memory record, problems included; never raises."""

from __future__ import annotations

import datetime as dt
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..basics import schema
from ..basics.digest import digest_bytes
from ..basics.json_read import NotRegular, kind_of, read_regular
from ..basics.model import Kind, Memory, Problem, Severity
from . import frontmatter

MAX_FILE_BYTES = 5 * 1024 * 1024
_HEADING = re.compile(r"^# +(.+)$", re.MULTILINE)


def title_of(body: str, path: str) -> str:
    """The first `# ` heading, else the file name's stem with `_`/`-` as spaces."""
    match = _HEADING.search(body)
    if match:
        # Closing `#`s and spaces are cut here, not by the regex: `(.+?)\s*#*\s*$` backtracks
        # cubically on a long run of spaces (20 s for 2,000).
        line = match.group(1)
        return line.rstrip().rstrip("#").rstrip() or line[:1]
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if stem == "status" and "/" in path:
        stem = path.rsplit("/", 2)[-2]
    return re.sub(r"[_-]+", " ", stem).strip() or stem


def _key_lines(text: str) -> dict[str, int]:
    """File line of each top-level key in the frontmatter, for messages; a nested key's line as
    its dotted path (`triggers.positive.repo_signals`)."""
    lines: dict[str, int] = {}
    path: list[tuple[int, str]] = []  # (indent, key) of the keys the current line is under
    for number, line in enumerate(frontmatter.split_lines(text)[1:], start=2):
        stripped = line.rstrip("\r\n")
        if stripped in ("---", "..."):
            break
        # Greedy up to the first `:` and stripped after: a lazy key then `\s*` is quadratic.
        match = re.match(r"( *)((?!- )[^\s#:][^:]*):(\s|$)", stripped)
        if match:
            indent = len(match.group(1))
            while path and path[-1][0] >= indent:
                path.pop()
            path.append((indent, match.group(2).rstrip().strip("'\"")))
            lines.setdefault(".".join(key for _, key in path), number)
    return lines


def outside_root(root: Path, path: Path) -> Path | None:
    """Where a path really leads when links take it outside the tree; else None."""
    # realpath, not resolve(): on a symlink loop resolve() raises RuntimeError (the whole scan
    # fell over); realpath stops inside the loop, and reading the link then reports ELOOP.
    target = Path(os.path.realpath(path))
    return None if target.is_relative_to(os.path.realpath(root)) else target


def _typed(mapping: Mapping[str, Any], key: str, kind: type) -> Any:
    value = mapping.get(key)
    if kind is int and isinstance(value, bool):
        return None
    return value if isinstance(value, kind) else None


def read_memory(
    root: Path,
    rel: str,
    kind: Kind,
    today: dt.date,
    companions: tuple[str, ...] = (),
    info: os.stat_result | None = None,
) -> Memory:
    """Read `root/rel` into a record; every fault becomes a Problem on it.

    `info` is the file's lstat when the caller already took it (the scan does, for its cache).
    Plain `os` calls rather than pathlib: a scan makes tens of thousands of them.
    """
    path = f"{root}/{rel}"

    def failed(message: str, size: int = 0) -> Memory:
        return Memory(
            kind=kind,
            path=rel,
            title=title_of("", rel),
            problems=(Problem(rel, message),),
            size=size,
            companions=companions,
        )

    try:
        if info is None:
            info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            leaves = outside_root(root, Path(path))
            if leaves is not None:
                return failed(
                    f"symlink leads outside the tree (to {leaves}); not read, never written"
                )
            info = os.stat(path)
    except FileNotFoundError:
        if kind.is_project_kind and rel.endswith("/status.md"):
            return failed("project folder has no status.md; add one with date, topics and status")
        return failed("file vanished while reading")
    except OSError as error:
        return failed(f"cannot read: {error.strerror or error}")
    if not stat.S_ISREG(info.st_mode):
        # A folder, a pipe or a device: opening a pipe would wait forever for a writer.
        return failed(not_regular(info.st_mode))
    if info.st_size > MAX_FILE_BYTES:
        mb = info.st_size / (1024 * 1024)
        too_big = f"file is {mb:.1f} MB, over the 5 MB limit; its text was not loaded"
        return failed(too_big, info.st_size)
    try:
        # Checked again on the open file: a pipe may have taken the file's place since lstat.
        raw = _read_bytes(path)
    except FileNotFoundError:
        return failed("file vanished while reading")
    except NotRegular:
        return failed(not_regular(os.stat(path).st_mode))
    except OSError as error:
        return failed(f"cannot read: {error.strerror or error}")
    return memory_from_bytes(rel, kind, raw, today, companions)


def _read_bytes(path: str) -> bytes:
    # One unbuffered read sized by fstat, after fstat says it is a regular file.
    return read_regular(path)


def not_regular(mode: int) -> str:
    """Why something found where a memory file should be was not read."""
    return f"not a regular file ({kind_of(mode)}); skipped: only regular files are read as memories"


def _decode(rel: str, raw: bytes) -> tuple[str, list[Problem]]:
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        bad = raw[error.start : error.start + 1].hex()
        message = (
            f"not UTF-8 text (byte 0x{bad} at offset {error.start}); "
            "shown with replacements, not editable"
        )
        return raw.decode("utf-8", errors="replace"), [Problem(rel, message, line)]


def refresh_future_date(
    problems: tuple[Problem, ...], date: dt.date | None, today: dt.date
) -> tuple[Problem, ...] | None:
    """A stored record's problems as of `today`: the future-date warning dropped once the date
    has come; None when the record needs reading again (the date is ahead and was not)."""
    kept = tuple(p for p in problems if schema.FUTURE_DATE not in p.message)
    ahead = date is not None and date > today
    if ahead and len(kept) == len(problems):
        return None
    return problems if ahead else kept


def memory_from_bytes(
    rel: str, kind: Kind, raw: bytes, today: dt.date, companions: tuple[str, ...] = ()
) -> Memory:
    """Build the record for a file's bytes (the scan and the store both come through here)."""
    text, problems = _decode(rel, raw)
    parsed = frontmatter.parse(text)
    problems += [Problem(rel, message, line) for line, message in parsed.errors]
    problems += [Problem(rel, message, line, Severity.WARNING) for line, message in parsed.warnings]
    mapping = parsed.mapping or {}
    date = _typed(mapping, "date", dt.date) or schema.quoted_date(mapping.get("date"))
    if isinstance(date, dt.datetime):
        date = date.date()
    if parsed.mapping is not None:
        broken = schema.check(mapping, kind)
        broken += [
            (key, message, False)
            for key, message in schema.date_warnings(date, rel.rsplit("/", 1)[-1], today)
        ]
        # Finding each key's line costs a pass over the text: only files with problems need it.
        key_lines = _key_lines(text) if broken else {}
        for key, message, is_error in broken:
            severity = Severity.ERROR if is_error else Severity.WARNING
            problems.append(Problem(rel, message, key_lines.get(key, 1), severity))

    topics = mapping.get("topics")
    reference_count = _typed(mapping, "reference_count", int)
    importance = mapping.get("importance")
    # Every field, in the dataclass's order; from_state skips __init__'s checks and copies.
    return Memory.from_state(
        {
            "kind": kind,
            "path": rel,
            "title": title_of(parsed.body, rel),
            "frontmatter": MappingProxyType(mapping),
            "body": parsed.body,
            "problems": tuple(problems),
            "date": date,
            "age_days": (today - date).days if date else None,
            "importance": importance if importance in schema.IMPORTANCE else None,
            "critical": mapping.get("critical") is True,
            "reference_count": reference_count if reference_count and reference_count > 0 else 0,
            "project": str(mapping["project"]) if mapping.get("project") else None,
            "topics": tuple(str(t) for t in topics) if isinstance(topics, list) else (),
            "type": str(mapping["type"]) if mapping.get("type") else None,
            "status": str(mapping["status"]) if mapping.get("status") else None,
            "companions": companions,
            "size": len(raw),
            "chars": len(text),
            "lines": text.count("\n") + (1 if text and not text.endswith("\n") else 0),
            "digest": digest_bytes(raw),
        }
    )

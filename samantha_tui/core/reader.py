"""One memory file on disk -> one immutable Memory record, problems included; never raises."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import frontmatter, schema
from .atomic import digest_bytes
from .model import Kind, Memory, Problem, Severity

MAX_FILE_BYTES = 5 * 1024 * 1024
_HEADING = re.compile(r"^# +(.+?)\s*#*\s*$", re.MULTILINE)


def title_of(body: str, path: str) -> str:
    """The first `# ` heading, else the file name's stem with `_`/`-` as spaces."""
    match = _HEADING.search(body)
    if match:
        return match.group(1)
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if stem == "status" and "/" in path:
        stem = path.rsplit("/", 2)[-2]
    return re.sub(r"[_-]+", " ", stem).strip() or stem


def _key_lines(text: str) -> dict[str, int]:
    """File line of each top-level key in the frontmatter, for messages."""
    lines: dict[str, int] = {}
    for number, line in enumerate(frontmatter.split_lines(text)[1:], start=2):
        stripped = line.rstrip("\r\n")
        if stripped in ("---", "..."):
            break
        match = re.match(r"([^\s#:][^:]*?)\s*:(\s|$)", stripped)
        if match:
            lines.setdefault(match.group(1).strip("'\""), number)
    return lines


def outside_root(root: Path, path: Path) -> Path | None:
    """Where a path really leads when links take it outside the tree; else None."""
    target = path.resolve()
    return None if target.is_relative_to(root.resolve()) else target


def _typed(mapping: Mapping[str, Any], key: str, kind: type) -> Any:
    value = mapping.get(key)
    if kind is int and isinstance(value, bool):
        return None
    return value if isinstance(value, kind) else None


def read_memory(
    root: Path, rel: str, kind: Kind, today: dt.date, companions: tuple[str, ...] = ()
) -> Memory:
    """Read `root/rel` into a record; every fault becomes a Problem on it."""
    path = root / rel

    def failed(message: str, size: int = 0) -> Memory:
        return Memory(
            kind=kind,
            path=rel,
            title=title_of("", rel),
            problems=(Problem(rel, message),),
            size=size,
            companions=companions,
        )

    leaves = outside_root(root, path) if path.is_symlink() else None
    if leaves is not None:
        return failed(f"symlink leads outside the tree (to {leaves}); not read, never written")
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        if kind.is_project_kind and rel.endswith("/status.md"):
            return failed("project folder has no status.md; add one with date, topics and status")
        return failed("file vanished while reading")
    except OSError as error:
        return failed(f"cannot read: {error.strerror or error}")
    if size > MAX_FILE_BYTES:
        mb = size / (1024 * 1024)
        return failed(f"file is {mb:.1f} MB, over the 5 MB limit; its text was not loaded", size)
    try:
        raw = path.read_bytes()
    except OSError as error:
        return failed(f"cannot read: {error.strerror or error}")
    return memory_from_bytes(rel, kind, raw, today, companions)


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


def memory_from_bytes(
    rel: str, kind: Kind, raw: bytes, today: dt.date, companions: tuple[str, ...] = ()
) -> Memory:
    """Build the record for a file's bytes (the scan and the store both come through here)."""
    text, problems = _decode(rel, raw)
    parsed = frontmatter.parse(text)
    problems += [Problem(rel, message, line) for line, message in parsed.errors]
    mapping = parsed.mapping or {}
    if parsed.mapping is not None:
        broken = schema.check(mapping, kind)
        # Finding each key's line costs a pass over the text: only files with problems need it.
        key_lines = _key_lines(text) if broken else {}
        for key, message, is_error in broken:
            severity = Severity.ERROR if is_error else Severity.WARNING
            problems.append(Problem(rel, message, key_lines.get(key, 1), severity))

    date = _typed(mapping, "date", dt.date)
    if isinstance(date, dt.datetime):
        date = date.date()
    topics = mapping.get("topics")
    reference_count = _typed(mapping, "reference_count", int)
    importance = mapping.get("importance")
    return Memory(
        kind=kind,
        path=rel,
        title=title_of(parsed.body, rel),
        frontmatter=mapping,
        body=parsed.body,
        problems=tuple(problems),
        date=date,
        age_days=(today - date).days if date else None,
        importance=importance if importance in schema.IMPORTANCE else None,
        critical=mapping.get("critical") is True,
        reference_count=reference_count if reference_count and reference_count > 0 else 0,
        project=str(mapping["project"]) if mapping.get("project") else None,
        topics=tuple(str(t) for t in topics) if isinstance(topics, list) else (),
        type=str(mapping["type"]) if mapping.get("type") else None,
        status=str(mapping["status"]) if mapping.get("status") else None,
        companions=companions,
        size=len(raw),
        chars=len(text),
        lines=text.count("\n") + (1 if text and not text.endswith("\n") else 0),
        digest=digest_bytes(raw),
    )

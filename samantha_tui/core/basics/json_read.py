"""Read JSON from the tree without trusting its shape: nesting too deep to handle is a reason, not
a RecursionError, and only regular files are opened (a named pipe would wait for a writer forever).

Every JSON file in a tree (indexes, pending updates, session status, trash notes) may come from
another program or a person's editor; a 2 KB file of a thousand `[` must be reported like any
other broken file, at any depth of the caller's own stack.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_DEPTH = 100
"""The deepest nesting read. samantha-llm's files are four levels deep; a hundred leaves room for
hand-made ones and keeps every later walk (comparing, dumping, rendering) far from the
interpreter's recursion limit, whatever the caller's stack."""

TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep"


class TooDeep(ValueError):
    """JSON nested deeper than MAX_DEPTH (a ValueError, as a parse error is)."""

    def __init__(self) -> None:
        super().__init__(TOO_DEEP)


class NotRegular(OSError):
    """The path is there but is not a regular file (a pipe, a socket, a device, a folder)."""


def loads(text: str | bytes, object_hook: Callable[[dict[str, Any]], Any] | None = None) -> Any:
    """json.loads, raising TooDeep for data nested beyond MAX_DEPTH instead of recursing on."""
    try:
        data = json.loads(text, object_hook=object_hook)
    except RecursionError:
        raise TooDeep from None
    if not within_depth(data):
        raise TooDeep
    return data


def within_depth(data: Any, limit: int = MAX_DEPTH) -> bool:
    """True when no list or object in data is nested more than `limit` levels deep.

    Level by level, never by recursion: the check itself must not be what overflows.
    """
    level = [data] if isinstance(data, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return False
        below: list[Any] = []
        for value in level:
            items = value.values() if isinstance(value, dict) else value
            below.extend(item for item in items if isinstance(item, dict | list))
        level = below
    return True


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words, for messages."""
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most `limit`), following a final link as open() does.

    Opened without blocking, then checked with fstat before any read, so a named pipe or a
    device put where a file was expected raises NotRegular instead of hanging the program.
    """
    fd, info = _open_regular(path)
    try:
        chunks: list[bytes] = []
        left = limit
        # Sized by fstat (one byte more, to see the end at once): a small file takes one read.
        size = info.st_size + 1
        while left is None or left > 0:
            chunk = os.read(fd, size if left is None else min(size, left))
            if not chunk:
                break
            chunks.append(chunk)
            if left is not None:
                left -= len(chunk)
            size = 1 << 16  # it grew while being read
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def _open_regular(path: str | os.PathLike[str]) -> tuple[int, os.stat_result]:
    """A descriptor open for reading, and its fstat, once fstat says it is a regular file."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"not a regular file ({kind_of(info.st_mode)})")
    except BaseException:
        os.close(fd)
        raise
    return fd, info


PIECE = 1 << 20
"""How much of a file a digest holds at once."""


def sha256_of_regular(path: str | os.PathLike[str]) -> str:
    """The sha256 (hex) of a regular file's bytes, read a piece at a time: a 100 MB memory is
    summed in a megabyte of memory, where reading it whole held all of it (trash, restore and
    recovery take the digest of every file they move)."""
    fd, _ = _open_regular(path)
    try:
        summed = hashlib.sha256()
        while piece := os.read(fd, PIECE):
            summed.update(piece)
        return summed.hexdigest()
    finally:
        os.close(fd)


def read_json(path: Path) -> Any:
    """The JSON of a regular file; OSError (NotRegular for a pipe), ValueError (TooDeep too)."""
    return loads(read_regular(path).decode("utf-8"))

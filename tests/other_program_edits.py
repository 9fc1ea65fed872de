"""What another program does to a note between a plan and its batch (it marks the note critical, in
place or by replacing the file), and what each trash entry holds, to compare with."""

from __future__ import annotations

import os
from pathlib import Path

from samantha_tui.core.writing import journal, trash


def marked_critical(raw: bytes) -> bytes:
    """What another program's edit leaves: the same note, now read every session."""
    return raw.replace(b"importance: low\n", b"importance: low\ncritical: true\n", 1)


def replace_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.other")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def trash_digests(root: Path) -> dict[str, str | None]:
    """What each trash entry holds, by the path it came from."""
    return {e.path: journal.content_digest(e.item(root)) for e in trash.entries(root)}

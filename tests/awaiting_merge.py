"""Sessions awaiting `samantha-llm subconscious merge`: a session the worker finalized and marked
complete, staging a memory short-term memory holds too and one it does not, a session still
processing, and the warning that a memory about to be trashed comes back with the merge."""

from __future__ import annotations

import json
from pathlib import Path

from samantha_tui.core.writing.store import Store

from .conftest import ST, TODAY, make_tree

SESSIONS = ".ai/subconscious/.ai/sessions"
SID = "20261128_140000"
STAGED = f"{SESSIONS}/{SID}/memories"
X = f"{ST}/2026-11-28_x.md"
WANTED = (
    "2026-11-28_x.md will come back: session 20261128_140000 is complete and not merged yet; "
    "its merge copies it again"
)


def note(title: str, importance: str = "medium", refs: int = 0, body: str = "") -> str:
    return (
        f"---\ndate: 2026-05-01\ntopics: [ci]\nimportance: {importance}\n"
        f"reference_count: {refs}\nsession_id: {SID}\n---\n\n# {title}\n\n"
        f"{body or f'What the session of {title} found.'}\n"
    )


def status(state: str) -> str:
    return json.dumps({"status": state, "session_id": SID})


def store_of(tmp_path: Path, files: dict[str, str]) -> Store:
    store = Store(make_tree(tmp_path / "cerebrum", files), lambda: TODAY)
    store.scan()
    return store


def finalized(tmp_path: Path, extra: dict[str, str] | None = None) -> Store:
    """A session the worker finalized (its x is in short-term memory too) and marked complete,
    staging a second file (z) that is not in short-term memory; and a session still processing."""
    x = note("x", importance="low")
    files = {
        X: x,
        f"{STAGED}/2026-11-28_x.md": x,
        f"{STAGED}/2026-11-28_z.md": note("z"),
        f"{SESSIONS}/{SID}/status.json": status("complete"),
        f"{ST}/2026-11-29_y.md": note("y", importance="low"),
        f"{SESSIONS}/20261129_090000/memories/2026-11-29_y.md": note("y", importance="low"),
        f"{SESSIONS}/20261129_090000/status.json": status("processing"),
    }
    return store_of(tmp_path, files | (extra or {}))

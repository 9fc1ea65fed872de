"""A tree of two memories, alpha and beta, and a trash laid into it by hand: one good entry, every
kind of damage an entry can have, a stray file, and what a failed trashing leaves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.core.writing import trash

from .conftest import ST
from .pilot import ALPHA, BETA, alpha_and_beta, memory

A, B = ALPHA, BETA


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return alpha_and_beta(tmp_path)


# --- a missing or damaged trash --------------------------------------------------------------

GOOD = "20260614-101500"


def trash_entry(root: Path, entry_id: str, origin: object | None, item: str | None) -> Path:
    """Write a trash entry by hand: origin.json (raw text when a str), and a file named item."""
    folder = root / trash.TRASH_DIR / entry_id
    folder.mkdir(parents=True)
    if isinstance(origin, str):
        (folder / trash.ORIGIN_FILE).write_text(origin)
    elif origin is not None:
        (folder / trash.ORIGIN_FILE).write_text(json.dumps(origin))
    if item is not None:
        (folder / item).write_text(memory("Trashed"))
    return folder


def origin_of(path: str) -> dict[str, object]:
    return {"path": path, "trashed_at": "2026-06-14T10:15:00", "folder": False}


DAMAGED = {
    "20260601-000001": (None, "lost.md", "no origin.json, so where lost.md came from is unknown"),
    "20260601-000002": ("{not json", "x.md", "origin.json is damaged"),
    "20260601-000003": (origin_of("../../outside.md"), "outside.md", "outside the memory folders"),
    "20260601-000004": (origin_of("/etc/cron.d/x.md"), "x.md", "outside the memory folders"),
    "20260601-000005": (origin_of(".git/hooks/post-checkout"), "post-checkout", "outside the"),
    "20260601-000006": (origin_of(f"{ST}/named.md"), "other.md", "holds other.md where"),
    "20260601-000007": ([1, 2], "y.md", "origin.json is damaged"),
}


@pytest.fixture
def damaged_trash(root: Path) -> Path:
    """One good entry, every kind of damage, a stray file, and the debris of a failed trashing
    (an origin.json with no item), which holds nothing of the person's and is passed over."""
    trash_entry(root, GOOD, origin_of(f"{ST}/2026-06-01_good.md"), "2026-06-01_good.md")
    for entry_id, (origin, item, _) in DAMAGED.items():
        trash_entry(root, entry_id, origin, item)
    (root / trash.TRASH_DIR / "stray.txt").write_text("not an entry\n")
    trash_entry(root, "20260601-000009", origin_of(f"{ST}/gone.md"), None)
    return root

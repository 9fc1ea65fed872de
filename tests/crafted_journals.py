"""Journals laid into a tree by hand, as someone shipping the tree would craft them: each case
of CASES tries to make recovery touch what it must not, and names the path its refusal must
name. Their tree holds a git repository, and a folder of someone's files beside it."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.core.basics import plans
from samantha_tui.core.writing import journal
from samantha_tui.core.writing.atomic import digest_bytes

from .conftest import ST
from .interrupted_batch import KEEP, everything

GIT_CONFIG = b"[core]\n\trepositoryformatversion = 0\n"
EVIL = b"[core]\n\tfsmonitor = touch /tmp/owned\n"
JOURNAL = journal.JOURNAL_DIR


def digest(data: bytes | None) -> str | None:
    return None if data is None else digest_bytes(data)


def record(path: str, kept: bytes | None = None, known: str | None = "x") -> dict[str, Any]:
    """A step-N.json / indexes.json item, as the journal writes it."""
    digest_of_kept = digest(kept) if kept is not None else known
    encoded = None if kept is None else base64.b64encode(kept).decode("ascii")
    return {"path": path, "digest": digest_of_kept, "kept": encoded}


def op(action: str, path: str, target: str | None = None) -> dict[str, Any]:
    return plans.encode(plans.Operation(action, path, target=target))


def craft(
    folder: Path,
    operations: Sequence[Mapping[str, Any]],
    steps: Mapping[int, list[dict[str, Any]]] | None = None,
    done: Mapping[int, dict[str, Any]] | None = None,
    indexes: list[dict[str, Any]] | None = None,
) -> None:
    """Lay a journal into `folder` by hand, as an attacker would ship it."""
    folder.mkdir(parents=True, exist_ok=True)
    plan = {"format": 1, "name": "prune", "started": "2026-06-15T10:00:00"}
    (folder / "plan.json").write_text(json.dumps({**plan, "operations": list(operations)}))
    for number, before in (steps or {}).items():
        (folder / f"step-{number}.json").write_text(json.dumps({"before": before}))
    for number, after in (done or {}).items():
        (folder / f"done-{number}.json").write_text(json.dumps(after))
    if indexes is not None:
        (folder / "indexes.json").write_text(json.dumps({"before": indexes}))


def outside_of(root: Path) -> Path:
    return root.parent / "outside"


@pytest.fixture
def tree(root: Path) -> Path:
    """test_journal's tree, with a git repository and a folder of someone's files beside it."""
    (root / ".git").mkdir()
    (root / ".git" / "config").write_bytes(GIT_CONFIG)
    outside = outside_of(root)
    outside.mkdir()
    (outside / "secret").write_bytes(b"private key\n")
    (root / ST / "linked").symlink_to(outside, target_is_directory=True)
    return root


EDIT_KEEP = op("edit", KEEP)
# Each crafted journal: (what it tries, how to lay it, the path the refusal must name).
CASES: dict[str, tuple[Any, str]] = {
    "rollback of an edit writes .git/config": (
        lambda root: craft(
            root / JOURNAL,
            [op("edit", ".git/config")],
            {0: [record(".git/config", EVIL)]},
            {0: {"after": {".git/config": digest(GIT_CONFIG)}, "trash_id": None}},
        ),
        ".git/config",
    ),
    "rollback of a write writes .git/config": (
        lambda root: craft(
            root / JOURNAL,
            [op("write", ".git/config")],
            {0: [record(".git/config", EVIL)]},
        ),
        ".git/config",
    ),
    "an index operation on .git/config": (
        lambda root: craft(
            root / JOURNAL,
            [op("index", ".git/config")],
            {0: [record(".git/config", EVIL)]},
        ),
        ".git/config",
    ),
    "an index operation on a memory": (
        lambda root: craft(root / JOURNAL, [op("index", KEEP)], {0: [record(KEEP, EVIL)]}),
        KEEP,
    ),
    "indexes.json names .git/config": (
        lambda root: craft(
            root / JOURNAL,
            [EDIT_KEEP],
            {0: [record(KEEP, (root / KEEP).read_bytes())]},
            {0: {"after": {KEEP: "y"}, "trash_id": None}},
            [record(".git/config", EVIL)],
        ),
        ".git/config",
    ),
    "finishing trashes .git": (lambda root: craft(root / JOURNAL, [op("trash", ".git")]), ".git"),
    "an absolute path copied into step-0.json": (
        lambda root: craft(root / JOURNAL, [op("edit", "/etc/passwd")]),
        "/etc/passwd",
    ),
    "a path with ..": (
        lambda root: craft(root / JOURNAL, [op("edit", f"{ST}/../../../outside/secret")]),
        f"{ST}/../../../outside/secret",
    ),
    "a path through a linked folder": (
        lambda root: craft(root / JOURNAL, [op("edit", f"{ST}/linked/secret")]),
        f"{ST}/linked",
    ),
    "a move out of the memory folders": (
        lambda root: craft(root / JOURNAL, [op("move", KEEP, ".git/hooks/pre-commit")]),
        ".git/hooks/pre-commit",
    ),
    "a restore from a forged trash id": (
        lambda root: craft(root / JOURNAL, [op("restore", KEEP, "../../.git")]),
        "../../.git",
    ),
    "a done record's forged trash id": (
        lambda root: craft(
            root / JOURNAL,
            [op("trash", KEEP)],
            {0: [record(KEEP, known=digest((root / KEEP).read_bytes()))]},
            {0: {"after": {}, "trash_id": "../../../outside"}},
        ),
        "../../../outside",
    ),
    "a step record naming another file": (
        lambda root: craft(root / JOURNAL, [EDIT_KEEP], {0: [record(".git/config", EVIL)]}),
        ".git/config",
    ),
    "a step the plan does not have": (
        lambda root: craft(root / JOURNAL, [EDIT_KEEP], {5: [record(KEEP, EVIL)]}),
        "step-5.json",
    ),
    "a NUL in a path": (lambda root: craft(root / JOURNAL, [op("edit", f"{ST}/a\0b")]), "\\x00"),
    "the kind folder itself": (lambda root: craft(root / JOURNAL, [op("trash", ST)]), ST),
}


def world(root: Path) -> tuple[dict[str, bytes | None], dict[str, bytes | None]]:
    """Everything in the tree (journal and trash included) and in the folder beside it."""
    return everything(root), everything(outside_of(root))

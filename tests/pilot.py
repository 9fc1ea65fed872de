"""Helpers for tests of the real app: wait for it, and check the indexes as samantha-llm would."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.worker import WorkerCancelled

from samantha_tui.cli import main
from samantha_tui.core.curator import Curator
from samantha_tui.core.store import Store

from .conftest import ST, TODAY, make_tree


async def settle(pilot, rounds: int = 3) -> None:
    """Wait until every worker is done (the watcher is off in these tests) and the UI caught up.

    More than one round: a handler of one worker's message can start another (a change, then the
    drift check of the kinds it fed).
    """
    for _ in range(rounds):
        # A search replaced by a newer one ends cancelled while waited for: wait again, for the
        # newer one.
        for _attempt in range(100):
            try:
                await pilot.app.workers.wait_for_complete()
                break
            except WorkerCancelled:
                continue
        await pilot.pause()


def index_check(root: Path, capsys: pytest.CaptureFixture[str]) -> int:
    """`samantha-tui index --check` on the tree: 0 when every index matches the files."""
    code = main(["index", "--check", "--tree", str(root)])
    capsys.readouterr()
    return code


def reindexed(root: Path) -> Path:
    """The tree with its indexes regenerated, so any drift afterwards is the test's doing."""
    store = Store(root, lambda: TODAY)
    store.scan()
    Curator(store).reindex()
    return root


ALPHA = f"{ST}/2026-06-10_alpha_rule.md"
BETA = f"{ST}/2026-06-09_beta_note.md"


def memory(title: str, extra: str = "") -> str:
    """A short-term memory titled `title`, dated 2026-06-01, with `extra` frontmatter lines."""
    return f"---\ndate: 2026-06-01\ntopics: [ci]\n{extra}---\n\n# {title}\n\nBody of {title}.\n"


def alpha_and_beta(tmp_path: Path) -> Path:
    """A tree of two memories (Alpha of medium importance, Beta), indexes regenerated."""
    root = make_tree(
        tmp_path / "cerebrum",
        {ALPHA: memory("Alpha rule", "importance: medium\n"), BETA: memory("Beta note")},
    )
    return reindexed(root)

"""The one harness for tests of the real app: wait for it to settle or for a condition (the waits
live in tests/waiting.py), and check the indexes as samantha-llm would.

Wait on what the app is doing, never on the clock: `settle` returns once no worker, queued change,
debounce or pending body is left; `until` polls a condition and raises, naming it, only when it
has not held within a minute (a hang)."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from .conftest import ST, TODAY, make_tree
from .waiting import (  # noqa: F401 (the harness's waits, where the app tests look for them)
    WITHIN,
    busy,
    is_short_one_shot,
    open_nodes,
    pending_short_timers,
    queues_empty,
    settle,
    until,
)


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

"""The trees a benchmark can run on, by name; `BENCH_TREE` picks one for `make bench`.

- `generated` (the default, what results.json has always measured): bench/generate.py, notes
  drawn from 30 words, with a share of nested YAML and problems to exercise the slow paths.
- `samantha-llm`: bench/samantha_llm_like.py, a tree made the way samantha-llm makes one (the
  worker's session analyses, merge copies, merge-drafted runbooks, staged sessions, indexes with
  entries no file backs). SAMANTHA_LLM_SIZE is its size for timings that want one real-looking
  tree (the health report's, say): `samantha_llm_tree(workdir)` writes it.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path

from .generate import generate
from .samantha_llm_like import write_tree

SAMANTHA_LLM_SIZE = 10000
VARIABLE = "BENCH_TREE"


def _samantha_llm(root: Path, size: int, today: dt.date) -> Path:
    write_tree(root, size, seed=7, today=today)
    return root


TREES: dict[str, Callable[[Path, int, dt.date], Path]] = {
    "generated": generate,
    "samantha-llm": _samantha_llm,
}


def chosen() -> str:
    """The tree named by BENCH_TREE, `generated` when unset; an unknown name is refused."""
    name = os.environ.get(VARIABLE, "generated")
    if name not in TREES:
        raise SystemExit(f"{VARIABLE}={name!r}: choose one of {', '.join(TREES)}")
    return name


def build(root: Path, size: int, today: dt.date, name: str | None = None) -> Path:
    """Write the named tree (BENCH_TREE's by default) of `size` memories at root."""
    return TREES[name or chosen()](root, size, today)


def samantha_llm_tree(workdir: Path, today: dt.date | None = None) -> Path:
    """The 10,000-memory samantha-llm-like tree in workdir (written once, then reused)."""
    root = workdir / f"samantha-llm-{SAMANTHA_LLM_SIZE}"
    if not root.exists():
        build(root, SAMANTHA_LLM_SIZE, today or dt.date.today(), "samantha-llm")
    return root

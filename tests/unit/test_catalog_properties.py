"""Random edits, renames, deletions, additions, same-size rewrites with the mtime set back and
project-companion changes: after each, a scan through the catalog gives exactly the records of a
scan without it, `catalogued()` gives them too, and the Delta says what changed. Two processes
scanning one tree at once both get correct records, and the database stays sound."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.generate import generate
from samantha_tui.core.basics.model import Memory, Tree
from samantha_tui.core.reading import catalog
from samantha_tui.core.reading.catalog import Catalog
from samantha_tui.core.reading.catalog_list import entry_of
from samantha_tui.core.reading.scan import scan

from ..conftest import LT, ST, TASKS, TODAY, make_tree, memory_text
from ..processes import next_tick
from ..tiers import examples

# A day in 2025, well before the catalog's racy window: every file's mtime is set near it.
OLD_NS = 1_750_000_000 * 10**9
PATHS = (
    f"{ST}/2026-06-01_a.md",
    f"{ST}/2026-06-02_b.md",
    f"{LT}/topic/c.md",
    f"{TASKS}/alpha/status.md",
    f"{TASKS}/beta/status.md",
)
COMPANIONS = (f"{TASKS}/alpha/notes.md", f"{TASKS}/beta/docs/design.md")
IMPORTANCE = ("low", "mid", "top")  # the same length: a rewrite keeps the size


def text(importance: str, extra: int) -> str:
    return memory_text(date="2026-06-01", topics="[x, y]", importance=importance) + "z" * extra


def write(root: Path, rel: str, content: str, mtime_ns: int) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    os.utime(path, ns=(mtime_ns, mtime_ns))


def existing(root: Path) -> list[str]:
    return [rel for rel in PATHS if (root / rel).is_file()]


def apply(root: Path, step: tuple) -> None:
    """One change to the tree; a change that does not apply (no such file) does nothing."""
    what, index, value = step
    rel = PATHS[index % len(PATHS)]
    path = root / rel
    here = existing(root)
    if what == "edit":
        write(root, rel, text(IMPORTANCE[value % 3], value % 5), OLD_NS + value * 10**9)
    elif what == "same-size" and path.is_file():
        info = path.stat()
        old = path.read_text(encoding="utf-8")
        now = next(i for i in IMPORTANCE if f"importance: {i}\n" in old)
        new = IMPORTANCE[(IMPORTANCE.index(now) + 1) % 3]
        path.write_text(old.replace(f"importance: {now}", f"importance: {new}"), "utf-8")
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))  # the mtime set back
        assert path.stat().st_size == info.st_size
    elif what == "delete" and path.is_file():
        path.unlink()
    elif what == "rename" and path.is_file():
        target = PATHS[value % len(PATHS)]
        if target != rel and target not in here and not rel.endswith("status.md"):
            (root / target).parent.mkdir(parents=True, exist_ok=True)
            os.rename(path, root / target)  # same inode, size and mtime at another path
    elif what == "rename-over" and path.is_file():
        target = PATHS[value % len(PATHS)]
        if target != rel and target in here:
            os.replace(path, root / target)
    elif what == "companion":
        companion = root / COMPANIONS[index % len(COMPANIONS)]
        if companion.exists():
            companion.unlink()
        else:
            write(root, COMPANIONS[index % len(COMPANIONS)], "notes\n", OLD_NS)
    elif what == "touch" and path.is_file():
        stamp = OLD_NS + value * 10**9
        os.utime(path, ns=(stamp, stamp))  # bytes as they were, other times


STEPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["edit", "same-size", "delete", "rename", "rename-over", "companion", "touch"]
        ),
        st.integers(0, 9),
        st.integers(0, 9),
    ),
    min_size=1,
    max_size=10,
)


def by_path(tree: Tree) -> dict[str, Memory]:
    return {m.path: m for m in tree.memories}


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS, reopen=st.lists(st.booleans(), min_size=10, max_size=10))
def test_scans_through_the_catalog_equal_scans_without(steps, reopen, monkeypatch) -> None:
    # The catalog's clock a minute on: every file counts as settled, so rows are trusted and
    # only their stat can tell a change (the racy rule has tests of its own).
    monkeypatch.setattr(catalog, "_now_ns", lambda: time.time_ns() + 60 * 10**9)
    with tempfile.TemporaryDirectory() as scratch:
        root = make_tree(Path(scratch) / "tree", {})
        cache = {catalog.CACHE_ENV: str(Path(scratch) / "cache")}
        off = {catalog.CACHE_ENV: "off"}
        for number, rel in enumerate(PATHS[:4]):
            write(root, rel, text(IMPORTANCE[number % 3], number), OLD_NS)
        opened = Catalog.open(root, cache)
        previous = by_path(scan(root, TODAY, opened))
        try:
            for step, fresh in zip(steps, reopen, strict=False):
                next_tick(Path(scratch))
                apply(root, step)
                if fresh:  # a new process, as it were
                    opened.close()
                    opened = Catalog.open(root, cache)
                warm = scan(root, TODAY, opened)
                with Catalog.open(root, off) as without:
                    expected = scan(root, TODAY, without)
                assert warm.memories == expected.memories, step
                assert warm.notices == ()
                with Catalog.open(root, cache) as other:
                    assert other.catalogued(TODAY) == list(expected.memories)
                    assert other.listed() == [entry_of(m) for m in expected.memories]
                now = by_path(warm)
                assert warm.delta is not None
                changed = {m.path for m in warm.delta.changed}
                assert {p for p, m in now.items() if previous.get(p) != m} <= changed
                assert set(warm.delta.removed) == previous.keys() - now.keys()
                previous = now
        finally:
            opened.close()


SCANNER = """
import datetime as dt, json, sys, time
from pathlib import Path
from samantha_tui.core.reading import catalog
from samantha_tui.core.reading.scan import scan
catalog._now_ns = lambda: time.time_ns() + 60 * 10**9
root, rounds, today = Path(sys.argv[1]), int(sys.argv[2]), dt.date.fromisoformat(sys.argv[3])
print("ready", flush=True)
sys.stdin.readline()
for _ in range(rounds):
    tree = scan(root, today)
    records = [[m.path, m.digest, m.title, m.importance] for m in tree.memories]
    print(json.dumps({"notices": list(tree.notices), "records": records}), flush=True)
"""


def digest(tree: Tree) -> list[list[object]]:
    return [[m.path, m.digest, m.title, m.importance] for m in tree.memories]


def together(root: Path, rounds: int) -> list[dict]:
    """Two processes that scan the tree `rounds` times each, started at the same moment."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", SCANNER, str(root), str(rounds), TODAY.isoformat()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    for process in processes:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    results = []
    for process in processes:
        out, _ = process.communicate(timeout=300)
        assert process.returncode == 0
        results.extend(json.loads(line) for line in out.splitlines())
    assert len(results) == 2 * rounds
    return results


def test_two_processes_scanning_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = generate(tmp_path / "gen", 400, TODAY)
    stamp = OLD_NS
    for path in root.rglob("*.md"):
        os.utime(path, ns=(stamp, stamp))
    monkeypatch.setenv(catalog.CACHE_ENV, "off")
    expected = digest(scan(root, TODAY))
    monkeypatch.setenv(catalog.CACHE_ENV, str(tmp_path / "cache"))
    # Both start on a catalog that does not exist yet: both create it, both save every row.
    for result in together(root, 3):
        assert result == {"notices": [], "records": expected}
    # Files change between rounds; both take in the changes.
    victims = sorted(root.rglob("*.md"))[::37]
    for path in victims:
        path.write_text(path.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
        os.utime(path, ns=(stamp, stamp))
    (victims[0]).unlink()
    monkeypatch.setenv(catalog.CACHE_ENV, "off")
    expected = digest(scan(root, TODAY))
    monkeypatch.setenv(catalog.CACHE_ENV, str(tmp_path / "cache"))
    for result in together(root, 3):
        assert result == {"notices": [], "records": expected}
    (file,) = (tmp_path / "cache").glob("*.sqlite")
    connection = sqlite3.connect(file)
    assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    connection.close()
    with Catalog.open(root) as opened:
        assert digest(Tree(root=str(root), memories=tuple(opened.catalogued(TODAY)))) == expected

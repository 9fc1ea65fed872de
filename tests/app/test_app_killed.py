"""The app killed in the middle of a bulk delete, of the undo of that delete, and of a review batch
(tests/killed_app.py: the real app in a child process, ended right after the first step is
journaled). Afterwards every file holds its old or its new bytes, nothing is lost, the next
command says exactly what to run and writes nothing, and `recover` gives back the whole tree from
before the change (rolled back) or the one the uninterrupted change left (finished)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.writing import journal, trash, tree_lock
from samantha_tui.core.writing.atomic import digest_bytes

from ..conftest import ST, make_tree, memory_text
from ..killed_app import KILLED, SCENARIOS
from ..pilot import reindexed

WORKTREE = Path(__file__).resolve().parents[2]
HANG = 120
"""Seconds a child may take before it counts as hung (a run takes two to four)."""

RECENT = {f"{ST}/2026-06-1{n}_recent_{n}.md": f"2026-06-1{n}" for n in range(4)}
"""Medium importance, days old: the list's first rows, marked and deleted."""
OLD_LOW = {f"{ST}/2026-0{n}-02_old_low_{n}.md": f"2026-0{n}-02" for n in (1, 2, 3)}
"""Low importance, months old: the review's prune candidates."""


def files(root: Path) -> dict[str, bytes]:
    """Every file outside the trash and the journal (the writer's leftovers and the lock aside)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_base = Path(dirpath).relative_to(root).as_posix()
        if rel_base in (trash.TRASH_DIR, journal.JOURNAL_DIR):
            dirnames.clear()
            continue
        for name in filenames:
            rel = f"{rel_base}/{name}"
            if not journal.TEMPORARY.match(name) and rel != tree_lock.LOCK_FILE:
                found[rel] = (Path(dirpath) / name).read_bytes()
    return dict(sorted(found.items()))


def every_digest(root: Path) -> set[str]:
    """Digests of every file in the tree and its trash (not the journal's kept copies)."""
    return {
        digest_bytes(path.read_bytes())
        for path in root.rglob("*")
        if path.is_file() and not path.relative_to(root).as_posix().startswith(journal.JOURNAL_DIR)
    }


def child(root: Path, scenario: str, snapshot: Path, mode: str) -> subprocess.Popen[str]:
    """The app's run in a child process, started (the test waits on it with a timeout)."""
    env = {**os.environ, "PYTHONPATH": str(WORKTREE)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.killed_app", str(root), scenario, str(snapshot), mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=WORKTREE,
    )


def ended(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    """Its exit status and output; a child still running after HANG seconds is a hang."""
    try:
        out, err = process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
    return process.returncode, out, err


def cli(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> tuple[int, str]:
    """A command run here, as a person runs it next: its exit status and what it said."""
    code = main([*args, "--tree", str(root)])
    said = capsys.readouterr()
    return code, said.out + said.err


@pytest.fixture
def pristine(tmp_path: Path) -> Path:
    notes = {
        rel: memory_text(date=date, topics="[kill]", importance="medium")
        for rel, date in RECENT.items()
    }
    stale = {
        rel: memory_text(date=date, topics="[kill]", importance="low")
        for rel, date in OLD_LOW.items()
    }
    return reindexed(make_tree(tmp_path / "pristine", notes | stale))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_app_killed_after_the_first_step_loses_nothing_and_recovers_whole(
    pristine: Path, tmp_path: Path, scenario: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The uninterrupted run (what finishing the killed change must give), beside the killed one.
    reference, killed = tmp_path / "reference", tmp_path / "killed"
    shutil.copytree(pristine, reference)
    shutil.copytree(pristine, killed)
    before_dir = tmp_path / "killed-before"
    running = child(reference, scenario, tmp_path / "reference-before", "run")
    dying = child(killed, scenario, before_dir, "kill")
    code, out, err = ended(running)
    assert code == 0 and "ran whole" in out, err
    after = files(reference)
    code, _, err = ended(dying)
    assert code == KILLED, (code, err[-3000:])
    before = files(before_dir)
    assert before != after, "the change changed nothing"
    assert journal.pending(killed) is not None, "a kill after a step leaves its journal"

    # Every file is its old or its new bytes; nothing is gone from tree and trash together.
    now = files(killed)
    for rel, data in now.items():
        assert data in (before.get(rel), after.get(rel)), f"{rel} is torn or foreign"
    held = every_digest(killed)
    for rel, data in before.items():
        assert digest_bytes(data) in held, f"{rel} is lost"

    # The next command of another kind (on a copy) either says exactly what to run and writes
    # nothing, or settles the journal itself: then the tree is whole, before or after.
    following = tmp_path / "following"
    shutil.copytree(killed, following, symlinks=True)
    target = next(rel for rel in RECENT if rel in now)
    code, said = cli(capsys, following, "set", str(following / target), "importance=high")
    if journal.pending(following) is not None:
        assert code == 1 and "samantha-tui recover" in said, said
        assert files(following) == now
    else:

        def others(tree: dict[str, bytes]) -> dict[str, bytes]:
            # The index files and the target carry the new command's own change too.
            return {
                rel: data for rel, data in tree.items() if rel != target and "/index." not in rel
            }

        assert others(files(following)) in (others(before), others(after)), said

    finished = tmp_path / "finished"
    shutil.copytree(killed, finished, symlinks=True)
    for copy, how, whole in ((killed, "--rollback", before), (finished, "--finish", after)):
        code, said = cli(capsys, copy, "recover", how)
        assert code == 0, said
        assert journal.pending(copy) is None
        assert files(copy) == whole, f"recover {how} did not give the whole tree"
        listing = trash.listing(copy)
        assert listing.damaged == () and listing.problem is None
        assert cli(capsys, copy, "index", "--check")[0] == 0

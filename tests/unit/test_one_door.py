"""The one door: the headless commands and the app's session apply a change the same way.

A change and its index files are one journaled unit from either side: killed after the memory
files were written and while the index files were being written, both leave a journal that
`recover` finishes or rolls back to the very same tree. And the same change made from either
side leaves the very same bytes on disk.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics import plans
from samantha_tui.core.basics.model import Tree
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import door, edits, index_writes, journal
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.recovery import FINISH, ROLLBACK, recover
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY
from ..interrupted_batch import KEEP, batch, root, snapshot, store_of
from ..pilot import index_check

__all__ = ["root"]  # the fixture, from interrupted_batch.py


class Killed(BaseException):
    """The process dying: nothing in the app or the commands catches it."""


def kill_after_first_index_file(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make the next index write land its first file, then die: every memory file is written
    by then, and the indexes are half done. Returns the index files written before the kill."""
    written: list[str] = []
    real = index_writes.write_updates

    def dies(store: Store, updates: object) -> None:
        first = list(updates)[:1]  # type: ignore[call-overload]
        real(store, first)
        written.extend(update.path for update in first)
        raise Killed

    monkeypatch.setattr(index_writes, "write_updates", dies)
    return written


def the_cli(root: Path, make: Callable[[Store], plans.Plan]) -> None:
    store = store_of(root)
    door.apply(store, make(store))


def the_app(root: Path, make: Callable[[Store], plans.Plan]) -> None:
    curator = Curator(store_of(root))
    curator.load()
    curator.apply(make(curator.store))


def mark_critical(store: Store) -> plans.Plan:
    """The app's `c` on one memory: a single edit, then its index entries."""
    memory = store.get(KEEP)
    assert memory is not None
    return edits.toggle_critical(memory)


CHANGES = {"a batch of 7 steps": batch, "one edit": mark_critical}
SIDES = {"cli": the_cli, "app": the_app}


@pytest.mark.parametrize("mode", [FINISH, ROLLBACK])
@pytest.mark.parametrize("change", CHANGES)
def test_a_kill_between_the_memory_files_and_the_index_files_recovers_alike_from_both(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    change: str,
    mode: str,
) -> None:
    make = CHANGES[change]
    before = snapshot(root)
    done = tmp_path / "done"
    shutil.copytree(root, done)
    the_cli(done, make)  # uninterrupted: what finishing must reach
    after = snapshot(done)
    assert after != before

    recovered: dict[str, dict[str, bytes]] = {}
    for side, run in SIDES.items():
        tree = tmp_path / side
        shutil.copytree(root, tree)
        with monkeypatch.context() as patch:
            written = kill_after_first_index_file(patch)  # type: ignore[arg-type]
            with pytest.raises(Killed):
                run(tree, make)
        assert written, f"{side}: the kill came before any index file was written"
        found = journal.pending(tree)
        assert found is not None, f"{side}: the kill left no journal"
        assert found.indexes is not None, f"{side}: the index files' old bytes were not kept"
        assert len(found.done) == found.total, f"{side}: not every step was recorded done"
        assert index_check(tree, capsys) == 1, f"{side}: the kill left the indexes in step"

        result = recover(store_of(tree), mode)
        assert result.name == found.name
        assert journal.pending(tree) is None
        assert index_check(tree, capsys) == 0
        recovered[side] = snapshot(tree)

    assert recovered["app"] == recovered["cli"]
    assert recovered["app"] == (after if mode == FINISH else before)


def test_the_apps_index_writes_are_journaled_while_they_are_made(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen from inside the index step: the journal is there, naming the memory's edit done."""
    curator = Curator(store_of(root))
    curator.load()
    seen: list[journal.Journal | None] = []
    real = index_writes.write_updates

    def looks(store: Store, updates: object) -> None:
        seen.append(journal.pending(root))
        real(store, updates)  # type: ignore[arg-type]

    monkeypatch.setattr(index_writes, "write_updates", looks)
    outcome = curator.apply(mark_critical(curator.store))
    assert f"{ST}/index.json" in outcome.indexes
    assert seen and seen[0] is not None
    assert seen[0].done.keys() == {0} and seen[0].indexes is not None
    assert {item.path for item in seen[0].indexes} >= {f"{ST}/index.json", f"{ST}/index.md"}
    assert journal.pending(root) is None  # closed once the index files landed


RULES: dict[str, Callable[[Tree], lifecycle.Proposal]] = {
    "promote": lambda tree: lifecycle.promote(tree, TODAY),
    "escalate": lifecycle.escalate,
    "complete": lambda tree: lifecycle.complete(tree, TODAY),
}


@pytest.mark.parametrize("rule", RULES)
def test_a_rule_applied_from_the_cli_and_from_the_app_leaves_the_same_bytes(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], rule: str
) -> None:
    cli_tree, app_tree = tmp_path / "cli", tmp_path / "app"
    shutil.copytree(root, cli_tree)
    shutil.copytree(root, app_tree)
    assert main([rule, "--yes", str(cli_tree)]) == 0
    capsys.readouterr()

    curator = Curator(store_of(app_tree))
    curator.load()
    curator.apply(RULES[rule](curator.tree).plan())

    assert snapshot(cli_tree) != snapshot(root), f"{rule}: nothing to do in this tree"
    assert snapshot(app_tree) == snapshot(cli_tree)

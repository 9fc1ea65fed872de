"""A journal shipped inside a tree is someone else's data: crafted plans, step records and index
records naming `.git/config`, `.git`, absolute paths, `..`, a linked folder, a move out of the tree
or a forged trash id are refused whole, before anything is done, by `recover` (every mode) and
`check`; a linked journal folder is never followed. Also: what recovery would touch is listed
before it acts, a failed index step keeps its journal, and index drift a change left behind
without a journal is reported."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics import plans
from samantha_tui.core.writing import door, journal
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.recovery import FINISH, ROLLBACK, Preview, preview, recover
from samantha_tui.ui.screens.recover import PREVIEW_LINES, _touched_lines

from ..conftest import ST, TASKS
from ..crafted_journals import (
    CASES,
    EDIT_KEEP,
    GIT_CONFIG,
    JOURNAL,
    craft,
    outside_of,
    record,
    tree,
    world,
)
from ..faults import FAULTS, Faults
from ..interrupted_batch import KEEP, PROMOTE, batch, crash_after, everything, root, store_of
from ..pilot import index_check

__all__ = ["root", "tree"]  # the fixtures, from interrupted_batch.py and crafted_journals.py


@pytest.mark.parametrize("case", CASES)
def test_a_crafted_journal_is_refused_whole_by_every_way_in(
    tree: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lay, named = CASES[case]
    lay(tree)
    untouched = world(tree)
    with pytest.raises(StoreError, match="is refused") as refused:
        journal.pending(tree)
    assert named in str(refused.value)
    for mode in (FINISH, ROLLBACK):
        with pytest.raises(StoreError, match="is refused"):
            recover(store_of(tree), mode)
    for command in (["recover"], ["recover", "--finish"], ["recover", "--rollback"]):
        assert main([*command, str(tree)]) == 1
        assert named in capsys.readouterr().err
    assert main(["check", str(tree)]) == 1
    assert named in capsys.readouterr().out
    with pytest.raises(StoreError, match="is refused"):
        door.apply(store_of(tree), plans.Plan("mark", (plans.decode(EDIT_KEEP),)))
    assert world(tree) == untouched
    assert (tree / ".git" / "config").read_bytes() == GIT_CONFIG


def test_a_journal_of_our_own_shape_is_still_accepted(tree: Path) -> None:
    """The checks refuse only what a batch never writes: a real crash's journal passes them."""
    crash_after(pytest.MonkeyPatch(), store_of(tree), batch(store_of(tree)), 3)
    found = journal.pending(tree)
    assert found is not None and found.describe().endswith("3 of 7 steps done")
    recover(store_of(tree), ROLLBACK)
    assert journal.pending(tree) is None


def test_a_linked_journal_folder_is_never_followed(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = outside_of(tree)
    # Elsewhere, a journal that would be accepted in place, and a file rmtree would take.
    craft(
        outside / "journal",
        [EDIT_KEEP],
        {0: [record(KEEP, (tree / KEEP).read_bytes())]},
    )
    (tree / JOURNAL).symlink_to(outside / "journal", target_is_directory=True)
    untouched = world(tree)
    with pytest.raises(StoreError, match="is a symbolic link"):
        journal.pending(tree)
    for mode in (FINISH, ROLLBACK):
        with pytest.raises(StoreError, match="is a symbolic link"):
            recover(store_of(tree), mode)
    assert main(["recover", "--rollback", str(tree)]) == 1
    assert f"{JOURNAL} is a symbolic link" in capsys.readouterr().err
    assert main(["check", str(tree)]) == 1
    assert "is a symbolic link" in capsys.readouterr().out
    with pytest.raises(StoreError, match="is a symbolic link"):
        door.apply(store_of(tree), batch(store_of(tree)))
    assert world(tree) == untouched

    # A link left without a plan is no leftover: nothing removes through it.
    (outside / "journal" / "plan.json").unlink()
    untouched = world(tree)
    with pytest.raises(StoreError, match="is a symbolic link"):
        recover(store_of(tree), FINISH)
    assert not journal.leftovers(tree)
    assert world(tree) == untouched


def test_a_journal_folder_that_is_a_file_or_holds_links_is_refused(tree: Path) -> None:
    (tree / JOURNAL).write_text("not a folder\n")
    with pytest.raises(StoreError, match="is not a folder"):
        journal.pending(tree)
    with pytest.raises(StoreError, match="is not a folder"):
        door.apply(store_of(tree), batch(store_of(tree)))
    assert (tree / JOURNAL).read_text() == "not a folder\n"

    (tree / JOURNAL).unlink()
    (tree / JOURNAL).mkdir()
    (tree / JOURNAL / "plan.json").symlink_to(outside_of(tree) / "secret")
    with pytest.raises(StoreError, match="cannot be read"):
        journal.pending(tree)
    assert (outside_of(tree) / "secret").read_bytes() == b"private key\n"


# --- what recovery would touch ------------------------------------------------------------------


def test_recover_lists_the_files_each_choice_would_change(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_of(root)
    plan = batch(store)
    crash_after(monkeypatch, store, plan, 3)
    found = journal.pending(root)
    assert found is not None
    shown = preview(store_of(root), found)
    # Finishing does the 4 steps left, then the indexes of the 4 kinds; rolling back undoes
    # the 3 done.
    assert len(shown.rollback) == 3
    assert shown.finish[4:] == tuple(
        f"write {kind}/{name} (the entries of the changed files)"
        for kind in (ST, ".ai/long-term-memory/.ai", TASKS, ".ai/work-experience/.ai")
        for name in ("index.json", "index.md")
    )
    for done_op, line in zip(reversed(plan.operations[:3]), shown.rollback, strict=True):
        assert done_op.path in line or (done_op.target or "") in line
    for left, line in zip(plan.operations[3:], shown.finish[:4], strict=True):
        assert left.path in line
    assert f"move {PROMOTE} to the trash" in shown.finish
    untouched = everything(root)

    assert main(["recover", str(root)]) == 1
    out = capsys.readouterr().out
    listing = out[out.index("finish would:") :]
    assert listing.splitlines() == [
        "finish would:",
        *(f"  {line}" for line in shown.finish),
        "roll back would:",
        *(f"  {line}" for line in shown.rollback),
    ]
    assert everything(root) == untouched


def test_a_long_list_is_capped_and_markup_stays_text() -> None:
    many = tuple(f"move {ST}/[bold]n{i}[/].md to the trash" for i in range(20))
    lines = [str(line) for line in _touched_lines(Preview(many, ()))]
    assert lines[0] == "Finish would:"
    assert lines[1 : PREVIEW_LINES + 1] == [f"  {line}" for line in many[:PREVIEW_LINES]]
    assert lines[PREVIEW_LINES + 1] == f"  and {20 - PREVIEW_LINES} more"
    assert lines[-3:] == ["Roll back would:", "  nothing", ""]


# --- a failed index step, and drift a kill left -------------------------------------------------


def fail_index_writes(monkeypatch: pytest.MonkeyPatch, root: Path, scope: tuple[str, ...]):
    """Disk full for `scope` from the moment the index step begins (every step has run)."""
    faults = Faults(monkeypatch, root)
    real = door._reindex

    def reindex(*args: Any, **kwargs: Any) -> list[str]:
        faults.arm(FAULTS["disk full on write"], scope=scope)
        return real(*args, **kwargs)

    monkeypatch.setattr(door, "_reindex", reindex)
    return faults


@pytest.mark.parametrize("where", ["index files", "indexes.json"])
def test_a_full_disk_at_the_index_step_keeps_the_journal_to_finish(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    where: str,
) -> None:
    done = tmp_path / "done"
    shutil.copytree(root, done)
    door.apply(store_of(done), batch(store_of(done)))
    scope = (ST, ".ai/long-term-memory/.ai", TASKS) if where == "index files" else (JOURNAL,)
    faults = fail_index_writes(monkeypatch, root, scope)
    with pytest.raises(StoreError) as refused:
        door.apply(store_of(root), batch(store_of(root)))
    said = str(refused.value)
    assert "every step was applied, but the index files were not written" in said
    assert "samantha-tui recover" in said and "free some space" in said
    assert "no step was taken" not in said and "nothing was changed" not in said
    faults.clear()
    found = journal.pending(root)
    assert found is not None and found.describe().endswith("7 of 7 steps done")
    assert index_check(root, capsys) == 1

    assert main(["recover", "--finish", str(root)]) == 0
    assert "index drift" not in capsys.readouterr().out
    assert journal.pending(root) is None and index_check(root, capsys) == 0
    memories = {m.path: m.digest for m in store_of(root).tree.memories}
    assert memories == {m.path: m.digest for m in store_of(done).tree.memories}


def test_recover_reports_the_drift_a_change_without_its_index_writes_left(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A change that left its indexes as they were (`set --no-index` here; another program's
    # edit alike) leaves drift that no journal records.
    assert (
        main(["set", "--no-index", "--tree", str(root), str(root / KEEP), "importance=high"]) == 0
    )
    capsys.readouterr()
    assert journal.pending(root) is None and index_check(root, capsys) == 1

    assert main(["recover", str(root)]) == 1
    shown = capsys.readouterr()
    assert "index files lag behind" in shown.out
    drifting = [line for line in shown.out.splitlines() if line.startswith("index drift: ")]
    assert f"index drift: {ST}/index.json (Short-term) drifted from the memory files" in drifting
    assert "`samantha-tui index`" in shown.err
    assert main(["recover", "--finish", str(root)]) == 0
    assert f"index drift: {ST}/index.json" in capsys.readouterr().out

    assert main(["index", str(root)]) == 0
    capsys.readouterr()
    assert main(["recover", str(root)]) == 0
    assert capsys.readouterr().out == "nothing was interrupted\n"

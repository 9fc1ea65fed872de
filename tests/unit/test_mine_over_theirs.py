"""Writing mine over theirs after a conflict, through the curator: a retried undo or a whole-bytes
write lands over the file as it is now, once, and their version stays one undo away."""

from __future__ import annotations

import pytest

from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.atomic import ConflictError, StoreError, digest_bytes
from samantha_tui.core.writing.curator import Curator, UndoConflict

from ..conftest import ST
from ..curating import ONE, TWO, on_disk, ready


def text(extra: str = "") -> str:
    return (
        f"---\ndate: 2026-06-01\ntopics: [ci]\nimportance: medium\n{extra}---\n\n# One\n\nBody.\n"
    )


@pytest.fixture
def curator(tree) -> Curator:
    return ready(tree({ONE: text(), TWO: text()}))


def theirs_over(cur: Curator, rel: str) -> bytes:
    """Another program rewrites the file."""
    theirs = on_disk(cur, rel).replace(b"Body.", b"Rewritten by another program.")
    (cur.store.root / rel).write_bytes(theirs)
    return theirs


def test_an_undo_whose_file_changed_is_refused_with_its_plan(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    theirs = theirs_over(curator, ONE)
    with pytest.raises(UndoConflict) as refused:
        curator.undo()
    assert refused.value.path == ONE
    assert [op.action for op in refused.value.plan.operations] == ["write"]
    assert on_disk(curator, ONE) == theirs and curator.can_undo


def test_overwrite_of_a_whole_bytes_write_lands_over_the_file_as_it_is(curator: Curator) -> None:
    original = on_disk(curator, ONE)
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    theirs = theirs_over(curator, ONE)
    with pytest.raises(UndoConflict) as refused:
        curator.undo()
    # The plan the dialog was shown, retried with "write mine over theirs": never a second
    # conflict against an empty digest.
    curator.overwrite(refused.value.plan)
    assert on_disk(curator, ONE) == original
    curator.undo()
    assert on_disk(curator, ONE) == theirs


def test_undo_over_theirs_puts_mine_back_and_the_next_undos_walk_on(curator: Curator) -> None:
    two = on_disk(curator, TWO)
    curator.apply(edits.toggle_critical(curator.get(TWO)))
    original = on_disk(curator, ONE)
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    theirs = theirs_over(curator, ONE)
    with pytest.raises(UndoConflict) as refused:
        curator.undo()

    outcome = curator.undo_over_theirs(refused.value.plan)

    assert on_disk(curator, ONE) == original
    assert outcome.message == "undone over their version: 2026-06-01_one.md: marked critical"
    assert not curator.get(ONE).critical
    curator.undo()  # their version back, as the dialog says
    assert on_disk(curator, ONE) == theirs
    curator.undo()  # and on to the change before: no conflict loop
    assert on_disk(curator, TWO) == two
    assert not curator.can_undo


def test_undo_over_theirs_refuses_an_undo_that_is_no_longer_next(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    theirs = theirs_over(curator, ONE)
    with pytest.raises(UndoConflict) as refused:
        curator.undo()
    curator.apply(edits.toggle_critical(curator.get(TWO)))
    with pytest.raises(StoreError, match="no longer the next one"):
        curator.undo_over_theirs(refused.value.plan)
    assert on_disk(curator, ONE) == theirs


def test_overwrite_of_an_index_write_takes_the_index_as_it_is_now(curator: Curator) -> None:
    rel = f"{ST}/index.json"
    (curator.store.root / rel).write_text('{"memories": []}\n', encoding="utf-8")
    stale = Operation("index", rel, data=b"{}\n", expected=digest_bytes(b"what was read"))
    plan = Plan("index: regenerate", (stale,))
    with pytest.raises(ConflictError):
        curator.apply(plan)
    curator.overwrite(plan)
    assert on_disk(curator, rel) == b"{}\n"


def test_overwrite_of_a_write_whose_file_is_gone_says_so(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    theirs_over(curator, ONE)
    with pytest.raises(UndoConflict) as refused:
        curator.undo()
    (curator.store.root / ONE).unlink()
    with pytest.raises(StoreError, match="is no longer there"):
        curator.undo_over_theirs(refused.value.plan)

"""Emptying the trash and this session's history: the changes whose undo or redo needs an item
deleted for good leave the history, named in a count; every other change stays undoable in order."""

from __future__ import annotations

import pytest

from samantha_tui.core.writing import edits
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.curator import Curator, Emptied
from tests.conftest import ST
from tests.curating import on_disk, ready

A = f"{ST}/2026-06-01_alpha.md"
B = f"{ST}/2026-06-02_beta.md"
C = f"{ST}/2026-06-03_gamma.md"


def text(title: str, extra: str = "") -> str:
    return f"---\ndate: 2026-06-01\ntopics: [ci]\nimportance: medium\n{extra}---\n\n# {title}\n"


@pytest.fixture
def curator(tree) -> Curator:
    return ready(tree({A: text("Alpha"), B: text("Beta"), C: text("Gamma")}))


def every_entry(cur: Curator) -> list[str]:
    return [entry.id for entry in cur.store.trash_entries()]


def test_emptying_drops_the_deletes_and_undo_reaches_the_edit_between(curator: Curator) -> None:
    beta = on_disk(curator, B)
    curator.apply(edits.delete([curator.get(A)]))
    curator.apply(edits.toggle_critical(curator.get(B)))
    curator.apply(edits.delete([curator.get(C)]))

    emptied = curator.empty_trash(every_entry(curator))

    assert len(emptied.removed) == 2
    assert emptied.no_undo == 2
    assert emptied.message == (
        "deleted 2 items for good · 2 earlier changes can no longer be undone"
    )
    outcome = curator.undo()  # not refused: the delete of C is no longer in the way
    assert outcome.message == "undone: 2026-06-02_beta.md: marked critical"
    assert on_disk(curator, B) == beta
    assert not curator.can_undo  # the delete of A went from the history too
    with pytest.raises(StoreError, match="nothing to undo"):
        curator.undo()
    assert not (curator.store.root / A).exists() and not (curator.store.root / C).exists()


def test_only_the_changes_needing_a_deleted_item_go(curator: Curator) -> None:
    curator.apply(edits.delete([curator.get(A)]))
    first = every_entry(curator)
    curator.apply(edits.toggle_critical(curator.get(B)))
    curator.apply(edits.delete([curator.get(C)]))

    emptied = curator.empty_trash(first)  # only A's entry; C's stays in the trash

    assert emptied.no_undo == 1
    assert emptied.message == "deleted 1 item for good · 1 earlier change can no longer be undone"
    curator.undo()
    assert (curator.store.root / C).exists()  # C comes back from the trash it still holds
    curator.undo()
    assert not curator.get(B).critical
    assert not curator.can_undo


def test_a_change_whose_bytes_another_entry_holds_stays_undoable(curator: Curator) -> None:
    alpha = on_disk(curator, A)
    curator.apply(edits.delete([curator.get(A)]))
    (old,) = every_entry(curator)
    # Written again by another program and trashed outside this history: a second entry
    # holding the very same bytes.
    (curator.store.root / A).write_bytes(alpha)
    curator.absorb([A])
    curator.store.trash(A)
    (second,) = [entry for entry in every_entry(curator) if entry != old]
    emptied = curator.empty_trash([old])
    assert emptied.no_undo == 0 and emptied.message == "deleted 1 item for good"
    curator.undo()  # follows the bytes into the other entry
    assert on_disk(curator, A) == alpha
    assert second not in every_entry(curator)


def test_a_redo_that_needs_a_deleted_item_goes_from_the_redo_history(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(B)))
    curator.apply(edits.create(f"{ST}/2026-06-04_new.md", text("New").encode()))
    curator.undo()  # the new memory goes to the trash; its redo takes it back from there
    curator.undo()
    emptied = curator.empty_trash(every_entry(curator))
    assert (emptied.no_undo, emptied.no_redo) == (0, 1)
    assert emptied.message.endswith("1 undone change can no longer be redone")
    curator.redo()  # the edit of B, made again
    assert curator.get(B).critical
    assert not curator.can_redo


def test_emptying_nothing_from_the_history_says_only_what_went(curator: Curator) -> None:
    curator.apply(edits.toggle_critical(curator.get(B)))
    emptied = curator.empty_trash([])
    assert emptied == Emptied((), 0, 0)
    assert emptied.message == "deleted 0 items for good"
    assert curator.can_undo


def test_an_edit_of_a_file_whose_delete_was_emptied_leaves_the_history_with_it(
    curator: Curator,
) -> None:
    # Found by key mashing on the trash screen: `+` on a restored copy, `d`, then emptying the
    # trash; the next `u` tried the importance change on a file that is not coming back.
    beta = on_disk(curator, B)
    curator.apply(edits.toggle_critical(curator.get(B)))
    curator.apply(edits.step_importance(curator.get(A), 1))
    curator.apply(edits.delete([curator.get(A)]))

    emptied = curator.empty_trash(every_entry(curator))

    assert emptied.no_undo == 2, "the delete of A and the edit of A before it"
    outcome = curator.undo()
    assert outcome.message == "undone: 2026-06-02_beta.md: marked critical"
    assert on_disk(curator, B) == beta
    assert not curator.can_undo

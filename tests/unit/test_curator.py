"""The curator: everyday edits as plans, undo through the session, indexes kept in sync."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views import indexes as indexes_package
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.atomic import ConflictError, StoreError
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store
from tests.conftest import ST, TODAY, make_tree
from tests.curating import ONE, TWO, index_clean, on_disk, ready, text


@pytest.fixture
def curator(tree) -> Curator:
    return ready(tree({ONE: text("importance: medium\n"), TWO: text()}))


def test_toggle_critical_writes_one_line_and_keeps_indexes_clean(curator: Curator) -> None:
    before = on_disk(curator, ONE)
    outcome = curator.apply(edits.toggle_critical(curator.get(ONE)))
    after = on_disk(curator, ONE)
    assert after == before.replace(b"importance: medium\n", b"importance: medium\ncritical: true\n")
    assert outcome.changed == (ONE,)
    assert f"{ST}/index.json" in outcome.indexes
    assert curator.get(ONE).critical
    assert index_clean(curator)

    curator.apply(edits.toggle_critical(curator.get(ONE)))
    assert on_disk(curator, ONE) == before
    assert index_clean(curator)


def test_importance_steps_and_refuses_past_the_ends(curator: Curator) -> None:
    curator.apply(edits.step_importance(curator.get(ONE), 1))
    assert curator.get(ONE).importance == "high"
    with pytest.raises(StoreError, match="already at high"):
        edits.step_importance(curator.get(ONE), 1)
    with pytest.raises(StoreError, match="no importance to lower"):
        edits.step_importance(curator.get(TWO), -1)
    curator.apply(edits.step_importance(curator.get(TWO), 1))
    assert curator.get(TWO).importance == "low"


def test_undo_walks_back_through_the_session_to_the_exact_bytes(curator: Curator) -> None:
    original = on_disk(curator, ONE)
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    curator.apply(edits.step_importance(curator.get(ONE), -1))
    curator.undo()
    assert curator.get(ONE).importance == "medium" and curator.get(ONE).critical
    curator.undo()
    assert on_disk(curator, ONE) == original
    assert not curator.can_undo
    with pytest.raises(StoreError, match="nothing to undo"):
        curator.undo()
    assert index_clean(curator)


def test_delete_goes_to_the_trash_and_undo_brings_it_back(curator: Curator) -> None:
    original = on_disk(curator, TWO)
    curator.apply(edits.delete([curator.get(TWO)]))
    assert curator.get(TWO) is None
    assert not (curator.store.root / TWO).exists()
    assert len(curator.store.trash_entries()) == 1
    assert curator.search_index is not None
    assert all(hit.path != TWO for hit in curator.search_index.search("one").hits)
    curator.undo()
    assert on_disk(curator, TWO) == original
    assert curator.get(TWO) is not None
    assert index_clean(curator)


def test_search_index_follows_changes(curator: Curator) -> None:
    data = b"---\ndate: 2026-06-03\ntopics: [zebra]\n---\n\n# Zebra crossing\n"
    curator.apply(edits.create(f"{ST}/2026-06-03_zebra.md", data))
    assert curator.search_index is not None
    assert [hit.path for hit in curator.search_index.search("zebra").hits] == [
        f"{ST}/2026-06-03_zebra.md"
    ]
    curator.undo()
    assert curator.search_index.search("zebra").hits == ()


def test_a_form_save_against_an_old_digest_is_a_conflict_and_writes_nothing(
    curator: Curator,
) -> None:
    seen = curator.get(ONE)
    theirs = on_disk(curator, ONE).replace(b"# One", b"# One, edited elsewhere")
    (curator.store.root / ONE).write_bytes(theirs)
    plan = edits.edit_fields(ONE, {"importance": "high"}, (), seen.digest)
    with pytest.raises(ConflictError) as raised:
        curator.apply(plan)
    assert raised.value.path == ONE
    assert on_disk(curator, ONE) == theirs
    assert not curator.can_undo


def test_keep_mine_sets_my_keys_over_theirs_and_undo_brings_theirs_back(
    curator: Curator,
) -> None:
    seen = curator.get(ONE)
    theirs = on_disk(curator, ONE).replace(b"# One", b"# One, edited elsewhere")
    (curator.store.root / ONE).write_bytes(theirs)
    plan = edits.edit_fields(ONE, {"importance": "high"}, (), seen.digest)
    curator.overwrite(plan)
    assert on_disk(curator, ONE) == theirs.replace(b"importance: medium", b"importance: high")
    curator.undo()
    assert on_disk(curator, ONE) == theirs


def test_an_edit_made_in_an_editor_is_taken_in_and_undoable(curator: Curator) -> None:
    before = curator.read_bytes(ONE)
    (curator.store.root / ONE).write_bytes(before.replace(b"Body.", b"Body, rewritten."))
    outcome = curator.record_outside_edit(ONE, before)
    assert outcome is not None and outcome.changed == (ONE,)
    assert "rewritten" in curator.get(ONE).body
    assert curator.record_outside_edit(ONE, curator.read_bytes(ONE)) is None
    curator.undo()
    assert on_disk(curator, ONE) == before


def test_without_automatic_indexes_a_change_leaves_them_to_regenerate(curator: Curator) -> None:
    curator.auto_index = False
    outcome = curator.apply(edits.toggle_critical(curator.get(ONE)))
    assert outcome.indexes == ()
    assert curator.drift().drifted
    assert curator.reindex()
    assert not curator.drift().drifted


def test_the_app_own_index_writes_are_told_apart_from_another_programs(
    curator: Curator,
) -> None:
    curator.drift()
    assert curator.index_files_changed() == set()
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    assert curator.index_files_changed() == set(), "the app wrote these itself"
    index_md = curator.store.root / ST / "index.md"
    index_md.write_bytes(index_md.read_bytes() + b"\nHand-written line.\n")
    assert curator.index_files_changed() == {Kind.SHORT_TERM}
    # A line someone else wrote is theirs, not drift: every later write keeps it.
    assert not curator.drift([f"{ST}/x.md"]).drifted
    assert curator.index_files_changed() == set(), "compared now: known"
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    assert index_md.read_bytes().endswith(b"\nHand-written line.\n")


@pytest.fixture
def comparisons(monkeypatch: pytest.MonkeyPatch) -> list[set[Kind]]:
    """The kinds of every index comparison the curator runs from now on."""
    compared: list[set[Kind]] = []
    real = indexes_package.drift

    def counting(tree, root, today, kinds=None):
        compared.append(set(kinds) if kinds is not None else set(Kind))
        return real(tree, root, today, kinds)

    # The curator looks the comparison up in the indexes package when it runs one.
    monkeypatch.setattr(indexes_package, "drift", counting)
    return compared


def test_after_a_change_the_regenerated_kinds_need_no_second_comparison(
    curator: Curator, comparisons: list[set[Kind]]
) -> None:
    curator.drift()
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    comparisons.clear()
    assert not curator.drift([ONE]).drifted
    assert comparisons == []  # known from the regeneration itself
    # Another program rewrites the short-term index: that kind is compared again, and drifts.
    (curator.store.root / ST / "index.json").write_text("{}", encoding="utf-8")
    assert curator.drift([ONE]).drifted
    assert comparisons == [{Kind.SHORT_TERM}]


def test_a_settled_kind_is_compared_again_the_next_day(
    tmp_path: Path, comparisons: list[set[Kind]]
) -> None:
    day = [TODAY]
    store = Store(make_tree(tmp_path / "cerebrum", {ONE: text(), TWO: text()}), lambda: day[0])
    cur = Curator(store)
    cur.load()
    cur.reindex()
    cur.drift()
    cur.apply(edits.toggle_critical(cur.get(ONE)))
    comparisons.clear()
    cur.drift([ONE])
    assert comparisons == []
    day[0] = TODAY + dt.timedelta(days=1)
    cur.drift([ONE])
    assert comparisons == [{Kind.SHORT_TERM}]


def test_a_change_never_rebuilds_an_index_json_that_is_not_json_until_asked(
    curator: Curator,
) -> None:
    broken = curator.store.root / ST / "index.json"
    broken.write_bytes(b'{"last_updated": "2026-06-1')  # half written, or a person's typo
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    assert broken.read_bytes() == b'{"last_updated": "2026-06-1'
    short = next(k for k in curator.drift().kinds if k.kind is Kind.SHORT_TERM)
    assert short.drifted and "not valid JSON" in short.files[0]
    curator.reindex()  # what `r` and `samantha-tui index` do
    assert index_clean(curator)

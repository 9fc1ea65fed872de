"""After any sequence of changes through the curator (toggles, edits, new memories, deletions,
undos), every index file holds the bytes a full regeneration from the files writes, made
without anything the write path keeps between writes."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.reading import known_files
from samantha_tui.core.views.indexes import entries, markdown, memories, merge, plan, scope
from samantha_tui.core.views.indexes.patch import patch_list
from samantha_tui.core.views.indexes.tracked import Tracked
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.index_writes import regenerate
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TODAY, write_demo
from ..curating import ONE, TWO, ready, text
from ..processes import in_memory_folder
from ..tiers import examples

KEPT_STATE = [
    (plan, "_PARSED", dict),
    (plan, "_DUMPED", dict),
    (plan, "_RENDERED", dict),
    (plan, "_FIRSTS", dict),
    (memories, "_MERGED", dict),
    (memories, "_SHORT_TERM", memories.ShortTermOrder),
    (entries, "_MADE", dict),
    (merge, "_LAST", dict),
    (markdown, "_BLOCKS", dict),
    (scope, "_KEYS", dict),
    (known_files, "_KNOWN", dict),
]
"""Everything the index write path keeps between writes (a test below proves the list whole)."""


@contextlib.contextmanager
def _nothing_kept() -> Iterator[None]:
    """Fresh kept state for the block, the write path's own put back after it."""
    saved = [(module, name, getattr(module, name)) for module, name, _ in KEPT_STATE]
    try:
        for module, name, make in KEPT_STATE:
            setattr(module, name, make())
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


def _indexes(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("index.*"))
        if path.name in ("index.json", "index.md")
    }


def _regenerated(root: Path, scratch: Path) -> dict[str, bytes]:
    """The index files a full `index` writes into a copy of the tree, from scratch."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(root, scratch, symlinks=True)
    with _nothing_kept():
        store = Store(scratch, lambda: TODAY)
        store.scan()
        regenerate(store, None, TODAY)
    return _indexes(scratch)


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                *("toggle", "toggle", "importance", "references", "topics", "date"),
                *("create", "delete", "undo", "undo"),
            ]
        ),
        st.integers(min_value=0, max_value=10_000),
    ),
    min_size=1,
    max_size=10,
)


def _editable(curator: Curator) -> list:
    return [
        m
        for m in curator.tree.memories
        if m.kind in (Kind.SHORT_TERM, Kind.LONG_TERM) and m.frontmatter and not m.problems
    ]


def _act(curator: Curator, action: str, number: int, step: int) -> None:
    found = _editable(curator)
    memory = found[number % len(found)]
    if action == "toggle":
        curator.apply(edits.toggle_critical(memory))
    elif action == "importance":
        with contextlib.suppress(StoreError):  # already at the end of the scale
            curator.apply(edits.step_importance(memory, 1 if number % 2 else -1))
    elif action in ("references", "topics", "date"):
        values = {
            "references": {"reference_count": number % 12},
            "topics": {"topics": [["api"], ["db", "ci"], []][number % 3]},
            "date": {"date": TODAY - dt.timedelta(days=number % 120)},
        }[action]
        curator.apply(edits.edit_fields(memory.path, values, (), memory.digest))
    elif action == "create":
        folder = ST if number % 3 else LT
        rel = f"{folder}/2026-0{number % 9 + 1}-1{number % 10}_note_{step}_{number}.md"
        text = (
            f"---\ndate: 2026-0{number % 9 + 1}-1{number % 10}\ntopics: [api]\n"
            f"importance: {['low', 'medium', 'high'][number % 3]}\n"
            f"reference_count: {number % 7}\n---\n\n# Note {number}\n\nA line.\n"
        )
        curator.apply(edits.create(rel, text.encode("utf-8")))
    elif action == "delete":
        curator.apply(edits.delete([memory]))
    elif curator.can_undo:
        curator.undo()


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=ACTIONS)
def test_every_index_file_is_what_a_full_regeneration_writes(
    tmp_path_factory: pytest.TempPathFactory, actions: list[tuple[str, int]]
) -> None:
    # In memory: each example's writes are fsynced, which the comparison cannot see.
    with in_memory_folder(tmp_path_factory.mktemp("patched"), "samantha-patched-") as base:
        root = write_demo(base / "demo", TODAY)
        curator = Curator(Store(root, lambda: TODAY), auto_index=True)
        curator.load()
        curator.reindex()
        for step, (action, number) in enumerate(actions):
            _act(curator, action, number, step)
            assert _indexes(root) == _regenerated(root, base / f"full{step}"), (step, action)


def test_the_kept_state_listed_is_all_there_is() -> None:
    """Every module-level cache of the write path is in KEPT_STATE, so the reference above
    really starts from nothing."""
    listed = {(module.__name__, name) for module, name, _ in KEPT_STATE}
    modules = [entries, markdown, memories, merge, plan, scope, known_files]
    found = {
        (module.__name__, name)
        for module in modules
        for name, value in vars(module).items()
        if name.startswith("_")
        and name[1:].isupper()
        and isinstance(value, dict | memories.ShortTermOrder)
    }
    constants = {(markdown.__name__, "_RENDERERS")}
    assert found - constants <= listed, found - constants - listed


@pytest.mark.parametrize("trust", [False, True], ids=["just-written", "trusted-by-stat"])
def test_entries_another_program_rewrote_in_place_are_the_ones_patched_from(
    tree, monkeypatch: pytest.MonkeyPatch, trust: bool
) -> None:
    """The entries kept by file for the index last planned from are never used once its file
    changed, even by a same-size rewrite in place with its mtime put back."""
    curator = ready(tree({ONE: text("importance: medium\n"), TWO: text()}))
    index = curator.store.root / ST / "index.json"
    curator.apply(edits.toggle_critical(curator.get(TWO)))
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    if trust:
        monkeypatch.setattr(known_files, "MARGIN_NS", 0)
        time.sleep(0.05)
        known_files.read(index)
    info = index.stat()
    data = index.read_bytes()
    assert data.count(b'"summary": "Body."') >= 2
    with open(index, "r+b") as handle:  # in place, same size: the inode stays
        handle.write(data.replace(b'"summary": "Body."', b'"summary": "Mine."'))
    os.utime(index, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert (index.stat().st_size, index.stat().st_mtime_ns) == (info.st_size, info.st_mtime_ns)
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    written = index.read_bytes()
    # Their summaries are the index's to keep: the changed memory's entry keeps theirs too.
    assert b'"summary": "Body."' not in written
    assert written.count(b'"summary": "Mine."') >= 2


def _entry(key: str | None, tag: int) -> object:
    if key is None:
        return ["not an entry", tag]
    return {"file": key, "tag": tag}


ENTRY_LISTS = st.lists(
    st.tuples(st.sampled_from(["a.md", "b.md", "c.md", "d.md", None]), st.integers(0, 3)),
    max_size=12,
)


@settings(max_examples=examples(300), deadline=None)
@given(old=ENTRY_LISTS, new=ENTRY_LISTS, exact=st.frozensets(st.sampled_from(["a.md", "b.md"])))
def test_the_fast_list_patch_equals_the_general_one(old, new, exact) -> None:
    old_items = [_entry(key, tag) for key, tag in old]
    new_items = [_entry(key, tag) for key, tag in new if key is not None]
    known = {"a.md", "b.md", "c.md"}

    def key_of(entry):
        value = entry.get("file")
        return value if isinstance(value, str) and value in known else None

    general = patch_list(old_items, new_items, exact.__contains__, key_of)
    fast = patch_list(old_items, new_items, exact.__contains__, key_of, exact)
    assert fast == general
    assert all(a is b for a, b in zip(fast, general, strict=True))


def test_a_replaced_record_equal_in_value_is_no_change_and_any_other_is() -> None:
    records = tuple(
        Memory(Kind.SHORT_TERM, f"{ST}/{number}.md", f"T{number}") for number in range(50)
    )
    tracked = Tracked({Kind.SHORT_TERM})
    tracked.reset(records)
    same = (*records[:20], dataclasses.replace(records[20]), *records[21:])
    assert tracked.diff(same) == ([], [])
    changed = (*same[:30], dataclasses.replace(same[30], title="new"), *same[31:])
    added, removed = tracked.diff(changed)
    assert [m.title for m in added] == ["new"] and removed == [same[30]]
    fewer = changed[:5] + changed[6:]
    assert tracked.diff(fewer) == ([], [changed[5]])


def test_a_new_date_that_puts_a_memory_first_in_its_topic_moves_its_line_there(
    tmp_path: Path,
) -> None:
    """Found by the property above: the unit kept the place it stood in index.md's by-topic
    group although the rendering now lists it first there."""
    root = write_demo(tmp_path / "demo", TODAY)
    curator = Curator(Store(root, lambda: TODAY), auto_index=True)
    curator.load()
    curator.reindex()
    _act(curator, "date", 0, 0)  # the demo's first editable memory, dated today
    assert _indexes(root) == _regenerated(root, tmp_path / "full")


def test_deleting_an_original_lists_its_merge_copy_as_a_full_regeneration_does(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A merge copy is left out of the index while its original is beside it: the patch of the
    original's delete must bring the copy in, as regenerating every index would (found by the
    property above)."""
    with in_memory_folder(tmp_path_factory.mktemp("copy"), "samantha-copy-") as base:
        root = write_demo(base / "demo", TODAY)
        curator = Curator(Store(root, lambda: TODAY), auto_index=True)
        curator.load()
        curator.reindex()
        original = curator.get(f"{ST}/2026-05-12_retry_budget_upstream_calls.md")
        assert original is not None
        copy = "2026-05-12_retry_budget_upstream_calls_20260513_020114.md"
        assert copy.encode() not in _indexes(root)[f"{ST}/index.json"]
        curator.apply(edits.delete([original]))
        assert copy.encode() in _indexes(root)[f"{ST}/index.json"]
        assert _indexes(root) == _regenerated(root, base / "full")

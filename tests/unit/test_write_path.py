"""The write path of a change: the index files it patches match a full `samantha-tui index`
byte for byte, the path lookup follows the store's swaps, and the file contents the app remembers
never hide another program's write."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from samantha_tui.core.basics.digest import digest_bytes
from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.reading import known_files
from samantha_tui.core.writing import atomic, edits
from samantha_tui.core.writing.atomic import ConflictError, StoreError, write_atomic
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.name_swap import exchange
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY, make_tree
from ..curating import ONE, TWO, ready, text

INDEX_FILES = [f"{kind.folder}/{name}" for kind in Kind for name in ("index.json", "index.md")]

# Run in a fresh process, so nothing the session under test kept in memory can agree with it:
# `samantha-tui index` over each snapshot, printing the index files it would change.
REGENERATE = """
import json, sys
from pathlib import Path
from samantha_tui.cli import main
files = json.loads(sys.argv[1])
changed = {}
for root in sys.argv[2:]:
    before = {rel: (Path(root) / rel).read_bytes() for rel in files if (Path(root) / rel).exists()}
    assert main(["index", root]) == 0, root
    after = {rel: (Path(root) / rel).read_bytes() for rel in files if (Path(root) / rel).exists()}
    changed[root] = sorted(rel for rel in after if before.get(rel) != after[rel])
print(json.dumps(changed))
"""


def _indexed(cur: Curator) -> list[Memory]:
    return [m for m in cur.tree.memories if m.frontmatter and not m.has_errors]


def _step(cur: Curator, rng: random.Random, number: int) -> str:
    """One random change through the curator; what it was, for the failure message."""
    memories = _indexed(cur)
    memory = rng.choice(memories)
    action = rng.choice(
        ["critical", "critical", "importance", "refs", "topics", "delete", "create", "undo", "redo"]
    )
    try:
        if action == "critical":
            cur.apply(edits.toggle_critical(memory))
        elif action == "importance":
            cur.apply(edits.step_importance(memory, rng.choice([1, -1])))
        elif action == "refs":
            refs = {"reference_count": rng.choice([0, 3, 5, 12])}
            cur.apply(edits.edit_fields(memory.path, refs, (), memory.digest))
        elif action == "topics":
            topics = {"topics": rng.sample(["ci", "gateway", "zeta", "alpha"], rng.randint(1, 3))}
            cur.apply(edits.edit_fields(memory.path, topics, (), memory.digest))
        elif action == "delete" and memory.kind in (Kind.SHORT_TERM, Kind.LONG_TERM):
            cur.apply(edits.delete([memory]))
        elif action == "create":
            day = f"2026-06-{rng.randint(1, 14):02d}"
            extra = rng.choice(["", "critical: true\n", "importance: high\nreference_count: 7\n"])
            data = f"---\ndate: {day}\ntopics: [new]\n{extra}---\n\n# New {number}\n\nBody.\n"
            cur.apply(edits.create(f"{ST}/{day}_new_{number}.md", data.encode()))
        elif action == "undo" and cur.can_undo:
            cur.undo()
        elif action == "redo" and cur.can_redo:
            cur.redo()
    except StoreError as error:  # a refused step (importance past an end) writes nothing
        return f"{action} {memory.path}: refused ({error})"
    return f"{action} {memory.path}"


@pytest.mark.parametrize("seed", range(4))
def test_every_index_after_random_changes_is_what_a_full_index_writes(
    demo_root: Path, tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    cur = ready(Store(demo_root, lambda: TODAY))
    snapshots: list[Path] = []
    done: list[str] = []
    for number in range(14):
        done.append(_step(cur, rng, number))
        # The lookup, kept from the store's swaps alone, is the tree's, record for record.
        whole = {m.path: m for m in cur.tree.memories}
        assert cur._by_path.keys() == whole.keys(), done
        assert all(cur._by_path[path] is whole[path] for path in whole), done
        snapshot = tmp_path / f"after-{number}"
        shutil.copytree(demo_root, snapshot, symlinks=True)
        snapshots.append(snapshot)
    found = subprocess.run(
        [sys.executable, "-c", REGENERATE, json.dumps(INDEX_FILES), *map(str, snapshots)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SAMANTHA_TUI_CACHE": "off"},
    )
    changed = json.loads(found.stdout.strip().splitlines()[-1])
    for number, snapshot in enumerate(snapshots):
        assert changed[str(snapshot)] == [], (number, done[: number + 1])
    assert sum("refused" not in step for step in done) >= 8, done  # most steps changed something


def _same_size_rewrite(path: Path, old: bytes, new: bytes) -> None:
    """Another program's edit that keeps the size, written in place, its old mtime put back."""
    info = path.stat()
    data = path.read_bytes()
    assert len(old) == len(new) and data.count(old) >= 1
    with open(path, "r+b") as handle:  # in place: the inode stays
        handle.write(data.replace(old, new, 1))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = path.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        info.st_ino,
        info.st_size,
        info.st_mtime_ns,
    )


def _trusted(path: Path) -> bool:
    known = known_files._KNOWN.get(os.path.realpath(path))
    return known is not None and known.trusted


@pytest.fixture
def curator(tree) -> Curator:
    return ready(tree({ONE: text("importance: medium\n"), TWO: text()}))


@pytest.mark.parametrize("trust", [False, True], ids=["just-written", "trusted-by-stat"])
def test_another_programs_same_size_rewrite_of_an_index_is_never_overwritten(
    curator: Curator, monkeypatch: pytest.MonkeyPatch, trust: bool
) -> None:
    index = curator.store.root / ST / "index.json"
    curator.apply(edits.toggle_critical(curator.get(ONE)))
    if trust:
        # Every write older than the margin is trusted on its stat key: with no margin, one
        # clock tick after the write is enough, and a read records the file as trusted.
        monkeypatch.setattr(known_files, "MARGIN_NS", 0)
        time.sleep(0.05)
        known_files.read(index)
        assert _trusted(index)
    _same_size_rewrite(index, b'"title": "One"', b'"title": "Eno"')
    curator.apply(edits.toggle_critical(curator.get(TWO)))
    # Their edit to the other memory's entry is kept; only the changed memory's entry moved.
    written = index.read_bytes()
    assert b'"title": "Eno"' in written
    critical = {entry["file"] for entry in json.loads(written)["critical"]}
    assert critical == {ONE.rsplit("/", 1)[1], TWO.rsplit("/", 1)[1]}


def test_a_kind_whose_index_another_program_rewrote_is_compared_again(
    curator: Curator, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = curator.store.root / ST / "index.json"
    monkeypatch.setattr(known_files, "MARGIN_NS", 0)
    time.sleep(0.05)
    assert curator.index_files_changed() == set()
    assert _trusted(index)
    _same_size_rewrite(index, b'"title": "One"', b'"title": "Eno"')
    assert curator.index_files_changed() == {Kind.SHORT_TERM}


def test_a_remembered_file_is_read_again_once_its_stat_moves(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "index.json"
    path.write_bytes(b"0123456789")
    monkeypatch.setattr(known_files, "MARGIN_NS", 0)
    time.sleep(0.05)
    first = known_files.read(path)
    assert first == b"0123456789" and _trusted(path)
    assert known_files.read(path) is first  # unread: its stat proves it unchanged
    _same_size_rewrite(path, b"0123", b"abcd")
    assert known_files.read(path) == b"abcd456789"
    replaced = tmp_path / "other"
    replaced.write_bytes(b"abcd456789")  # same bytes, by a rename: a new inode
    os.replace(replaced, path)
    assert known_files.read(path) == b"abcd456789"
    path.unlink()
    with pytest.raises(FileNotFoundError):
        known_files.read(path)


def test_a_file_changed_in_the_last_margin_is_never_trusted_on_its_stat(tmp_path: Path) -> None:
    path = tmp_path / "index.md"
    path.write_bytes(b"fresh")
    known_files.read(path)
    assert not _trusted(path)  # written just now: the next read compares its bytes
    _same_size_rewrite(path, b"fresh", b"stale")
    assert known_files.read(path) == b"stale"


def test_an_atomic_write_against_expected_bytes_refuses_a_changed_file(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    path.write_bytes(b'{"a": 1}')
    write_atomic(path, b'{"a": 2}', "index.json", b'{"a": 1}')
    assert path.read_bytes() == b'{"a": 2}'
    _same_size_rewrite(path, b"2", b"3")
    with pytest.raises(ConflictError):
        write_atomic(path, b'{"a": 4}', "index.json", b'{"a": 2}')
    assert path.read_bytes() == b'{"a": 3}'


def test_the_store_logs_its_swaps_and_a_scan_resets_them(tmp_path: Path) -> None:
    store = Store(make_tree(tmp_path / "c", {ONE: text(), TWO: text()}), lambda: TODAY)
    store.scan()
    assert store.take_swaps() is None  # a scan replaced the tree: compare it whole
    before = store.get(ONE)
    store.edit(ONE, {"importance": "high"})
    swaps = store.take_swaps()
    assert swaps is not None and len(swaps) == 1
    (removed, added) = swaps[0]
    assert removed == [before] and [m.path for m in added] == [ONE]
    assert store.take_swaps() == []
    assert store.get(ONE) is added[0] and store.get(f"{ST}/missing.md") is None
    assert [m.path for m in store.records_at(ST)] == [ONE, TWO]


# --- another program's write between the last check and the swap ----------------------------------


def _write_between_check_and_swap(
    monkeypatch: pytest.MonkeyPatch, path: Path, how: str, theirs: bytes
) -> None:
    """The last check before the swap passes, and at that very moment another program writes:
    in place (a naive tool) or by its own rename (samantha-llm's worker, an editor)."""
    checks = []
    real = atomic.holds

    def holds_then_they_write(at: Path, expected: object) -> bool:
        held = real(at, expected)
        checks.append(held)
        if len(checks) == 2:  # the check at the last moment
            if how == "in place":
                with open(path, "r+b") as handle:
                    handle.write(theirs)
                    handle.truncate()
            else:
                side = path.with_name(".theirs.tmp")
                side.write_bytes(theirs)
                os.replace(side, path)
        return held

    monkeypatch.setattr(atomic, "holds", holds_then_they_write)


@pytest.mark.parametrize("how", ["in place", "by rename"])
@pytest.mark.parametrize("expected", ["bytes", "digest"])
def test_a_write_landing_between_the_last_check_and_the_swap_is_kept_and_ours_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, expected: str
) -> None:
    if not _swaps(tmp_path):
        pytest.skip("this system cannot swap two names in one step")
    path = tmp_path / "memory.md"
    path.write_bytes(b"Revision 1.\n")
    seen = b"Revision 1.\n" if expected == "bytes" else digest_bytes(b"Revision 1.\n")
    _write_between_check_and_swap(monkeypatch, path, how, b"Revision 2.\n")
    with pytest.raises(ConflictError):
        write_atomic(path, b"Revision 1, edited.\n", "memory.md", seen)
    assert path.read_bytes() == b"Revision 2.\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_write_swapped_in_while_nobody_else_writes_lands_and_leaves_no_file_behind(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.md"
    path.write_bytes(b"Revision 1.\n")
    write_atomic(path, b"Revision 1, edited.\n", "memory.md", b"Revision 1.\n")
    assert path.read_bytes() == b"Revision 1, edited.\n"
    assert [p.name for p in tmp_path.iterdir()] == ["memory.md"]


def _swaps(folder: Path) -> bool:
    first, second = folder / "probe-a", folder / "probe-b"
    first.write_bytes(b"a")
    second.write_bytes(b"b")
    swapped = exchange(first, second) and first.read_bytes() == b"b"
    first.unlink()
    second.unlink()
    return swapped


def test_their_file_is_never_removed_when_putting_it_back_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not _swaps(tmp_path):
        pytest.skip("this system cannot swap two names in one step")
    path = tmp_path / "memory.md"
    path.write_bytes(b"Revision 1.\n")
    _write_between_check_and_swap(monkeypatch, path, "by rename", b"Revision 2.\n")
    real, calls = atomic.name_swap.exchange, []

    def swap_back_fails(first: Path, second: Path) -> bool:
        calls.append(first)
        if len(calls) > 1:
            raise OSError(5, "Input/output error")
        return real(first, second)

    monkeypatch.setattr(atomic.name_swap, "exchange", swap_back_fails)
    with pytest.raises(OSError):
        write_atomic(path, b"Revision 1, edited.\n", "memory.md", b"Revision 1.\n")
    kept = [p.read_bytes() for p in tmp_path.iterdir()]
    assert b"Revision 2.\n" in kept

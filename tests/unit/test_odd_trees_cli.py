"""Odd trees met by the core and the commands: odd file names, symbolic links, no memories, a
kind folder that is a file, and an index.json that is not JSON. Nothing outside the tree is ever
written, nothing is lost, and every oddity is reported in words."""

from __future__ import annotations

import json
import os
import shutil
import unicodedata
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.reading.triggers import Signals
from samantha_tui.core.views import bootstrap
from samantha_tui.core.views.indexes import drift
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.edits import toggle_critical
from samantha_tui.core.writing.store import Store
from samantha_tui.core.writing.trash import TRASH_DIR
from samantha_tui.core.writing.tree_lock import LOCK_FILE

from ..broken_index import BROKEN, TEXT, broken
from ..conftest import LT, ST, TASKS, TODAY, make_tree
from ..pilot import index_check

__all__ = ["broken"]  # the fixture, from broken_index.py

NFC = unicodedata.normalize("NFC", "café.md")
NFD = unicodedata.normalize("NFD", "café.md")
LONG = "2026-06-01_" + "é" * 120 + "x.md"  # 255 bytes, the most a file name may have
ODD_NAMES = ["with space.md", NFC, NFD, "-rf.md", "--help.md", "[bold]x.md"]


def store_over(root: Path) -> Store:
    store = Store(root, lambda: TODAY)
    store.scan()
    return store


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root (links as their target path), to prove what changed; the lock file
    aside (it holds only who is writing)."""
    found: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == LOCK_FILE:
            continue
        if path.is_symlink():
            found[rel] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            found[rel] = path.read_bytes()
    return found


# --- odd names -----------------------------------------------------------------------------------


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    files = {f"{ST}/{name}": TEXT.replace("# A memory", f"# {name}") for name in ODD_NAMES}
    return make_tree(tmp_path / "cerebrum", files)


def test_odd_names_are_distinct_memories_with_their_exact_names(odd: Path) -> None:
    assert len(LONG.encode("utf-8")) == 255 and NFC != NFD
    store = store_over(odd)
    assert sorted(m.name for m in store.tree.memories) == sorted(ODD_NAMES)
    for memory in store.tree.memories:
        assert memory.problems == () and memory.title == memory.name


@pytest.mark.parametrize("name", ODD_NAMES)
def test_an_odd_name_is_edited_trashed_restored_and_moved_with_its_bytes(
    odd: Path, name: str
) -> None:
    store = store_over(odd)
    rel = f"{ST}/{name}"
    before = (odd / rel).read_bytes()
    store.edit(rel, {"importance": "high"}, touch_updated=False)
    edited = (odd / rel).read_bytes()
    assert edited == before.replace(b"importance: low", b"importance: high")
    others = {n for n in ODD_NAMES if n != name}
    assert all(
        (odd / ST / n).read_bytes() == before.replace(name.encode(), n.encode()) for n in others
    )
    entry = store.trash(rel)
    assert not (odd / rel).exists() and entry.item(odd).name == name
    assert store.restore(entry.id) == rel and (odd / rel).read_bytes() == edited
    store.move(rel, f"{LT}/{name}")
    assert (odd / LT / name).read_bytes() == edited and store.get(f"{LT}/{name}") is not None


def test_odd_names_go_into_the_indexes_exactly(odd: Path, capsys) -> None:
    assert main(["index", "--tree", str(odd)]) == 0
    index = json.loads((odd / ST / "index.json").read_text(encoding="ascii"))
    listed = sorted(entry["file"] for entry in index["recent"]["medium_importance"])
    assert listed == sorted(ODD_NAMES)  # NFC and NFD both, each as its own bytes
    markdown = (odd / ST / "index.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in markdown for name in ODD_NAMES)
    assert index_check(odd, capsys) == 0


def test_the_longest_name_is_read_trashed_restored_and_moved(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "cerebrum", {f"{ST}/{LONG}": TEXT})
    store = store_over(root)
    (memory,) = store.tree.memories
    assert memory.name == LONG and memory.problems == ()
    entry = store.trash(f"{ST}/{LONG}")
    assert store.restore(entry.id) == f"{ST}/{LONG}"
    store.move(f"{ST}/{LONG}", f"{LT}/{LONG}")
    assert (root / LT / LONG).read_text() == TEXT


def test_the_longest_name_can_be_edited(tmp_path: Path) -> None:
    store = store_over(make_tree(tmp_path / "cerebrum", {f"{ST}/{LONG}": TEXT}))
    store.edit(f"{ST}/{LONG}", {"importance": "high"}, touch_updated=False)
    assert "importance: high" in (store.root / ST / LONG).read_text()


def test_a_leading_dash_is_never_read_as_an_option(odd: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(odd / ST)
    before = snapshot(odd)
    for argv in (["set", "-rf.md", "critical=true"], ["set", "--help.md", "critical=true"]):
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 2
    assert snapshot(odd) == before  # refused by argparse: nothing written
    assert main(["set", "--", "-rf.md", "critical=true"]) == 0
    assert main(["set", "./--help.md", "critical=true"]) == 0
    assert main(["unset", "--", "-rf.md", "importance"]) == 0
    assert "critical: true\n" in (odd / ST / "-rf.md").read_text()
    assert "importance" not in (odd / ST / "-rf.md").read_text()
    assert "critical: true\n" in (odd / ST / "--help.md").read_text()
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["set", "--help"])
    assert "samantha-tui set -- -rf.md critical=true" in capsys.readouterr().out.replace("\n", " ")
    assert main(["search", "--tree", str(odd), "rf"]) == 0
    assert f"-rf.md  ({ST}/-rf.md)" in capsys.readouterr().out
    assert main(["check", "--tree", str(odd)]) == 0
    assert "6 memories, 0 problems" in capsys.readouterr().err


# --- symbolic links ------------------------------------------------------------------------------


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """A tree with links inside it, loops, and links out of it; and the folder outside."""
    outside = tmp_path / "outside"
    (outside / "topic").mkdir(parents=True)
    (outside / "o.md").write_text(TEXT)
    (outside / "topic" / "t.md").write_text(TEXT)
    (outside / "proj").mkdir()
    (outside / "proj" / "status.md").write_text(TEXT + "status: active\n")
    (outside / "index.json").write_text("{}")
    root = make_tree(
        tmp_path / "cerebrum",
        {f"{ST}/real.md": TEXT, f"{LT}/topic/deep.md": TEXT, f"{TASKS}/p/status.md": TEXT},
    )
    links = {
        f"{ST}/in-link.md": "real.md",
        f"{LT}/folder-link": "topic",
        f"{ST}/loop.md": "loop.md",
        f"{ST}/loop-a.md": "loop-b.md",
        f"{ST}/loop-b.md": "loop-a.md",
        f"{LT}/topic/back": "..",
        f"{ST}/out-link.md": str(outside / "o.md"),
        f"{LT}/out-folder": str(outside / "topic"),
        f"{TASKS}/out-project": str(outside / "proj"),
        f"{LT}/index.json": str(outside / "index.json"),
    }
    for rel, target in links.items():
        (root / rel).symlink_to(target)
    return root, outside


def test_links_and_loops_are_read_or_reported_without_a_crash(linked) -> None:
    root, _ = linked
    store = store_over(root)
    problems = {m.path: [p.message for p in m.problems] for m in store.tree.memories}
    assert problems[f"{ST}/in-link.md"] == [] and problems[f"{ST}/real.md"] == []
    for loop in ("loop.md", "loop-a.md", "loop-b.md"):
        assert problems[f"{ST}/{loop}"] == ["cannot read: Too many levels of symbolic links"]
    assert problems[f"{ST}/out-link.md"][0].startswith("symlink leads outside the tree (to ")
    # A folder link inside the tree is not walked: its memories are listed once, where they are.
    assert [p for p in problems if "deep.md" in p] == [f"{LT}/topic/deep.md"]


def test_nothing_is_written_or_deleted_through_a_link_out_of_the_tree(linked, capsys) -> None:
    root, outside = linked
    store = store_over(root)
    before = snapshot(outside)
    for rel in (f"{ST}/out-link.md", f"{LT}/out-folder/t.md", f"{TASKS}/out-project/status.md"):
        for attempt in (
            lambda rel=rel: store.edit(rel, {"importance": "high"}),
            lambda rel=rel: store.trash(rel),
            lambda rel=rel: store.move(rel, f"{LT}/moved.md"),
            lambda rel=rel: store.write_bytes(rel, b"x", "0" * 64),
        ):
            with pytest.raises(StoreError, match=r"leads outside the tree .* never written"):
                attempt()
    with pytest.raises(StoreError, match="leads outside the tree"):
        store.move(f"{ST}/real.md", f"{LT}/out-folder/real.md")  # into a folder link
    with pytest.raises(StoreError, match="leads outside the tree"):
        store.create(f"{LT}/out-folder/new.md", {"date": TODAY, "topics": ["x"]}, "# New\n")
    assert main(["index", "--tree", str(root)]) == 1  # the long-term index.json is a link out
    assert "leads outside the tree" in capsys.readouterr().err
    assert snapshot(outside) == before


def test_a_restore_never_goes_through_a_link_out_of_the_tree(linked) -> None:
    root, outside = linked
    store = store_over(root)
    entry = store.trash(f"{ST}/real.md")
    origin = root / TRASH_DIR / entry.id / "origin.json"
    data = json.loads(origin.read_text())
    data["path"] = f"{LT}/out-folder/real.md"  # as if the folder had been swapped for a link
    origin.write_text(json.dumps(data))
    before = snapshot(outside)
    with pytest.raises(StoreError, match="leads outside the tree"):
        store.restore(entry.id)
    assert snapshot(outside) == before
    assert (root / TRASH_DIR / entry.id / "real.md").read_text() == TEXT


def test_a_link_inside_the_tree_is_trashed_as_a_link_and_written_through(linked) -> None:
    root, outside = linked
    store = store_over(root)
    store.edit(f"{ST}/in-link.md", {"importance": "high"}, touch_updated=False)
    assert os.readlink(root / ST / "in-link.md") == "real.md"  # still a link
    assert "importance: high" in (root / ST / "real.md").read_text()
    entry = store.trash(f"{ST}/in-link.md")
    assert (root / ST / "real.md").is_file()  # the file it pointed to stays
    assert store.restore(entry.id) == f"{ST}/in-link.md"
    assert os.readlink(root / ST / "in-link.md") == "real.md"
    for loop in (f"{ST}/loop.md", f"{ST}/loop-a.md"):
        with pytest.raises(StoreError, match=r"symbolic links|does not exist"):
            store.edit(loop, {"importance": "high"})
    assert snapshot(outside)["o.md"] == TEXT.encode()


def test_a_folder_link_out_of_the_tree_is_reported(linked) -> None:
    root, _ = linked
    problems = [p.format() for p in store_over(root).tree.all_problems]
    for rel in (f"{LT}/out-folder", f"{TASKS}/out-project"):
        assert any(p.startswith(f"{rel}: symlink leads outside the tree") for p in problems)


# --- a tree of no memories -----------------------------------------------------------------------


@pytest.mark.parametrize("kind_folders", [False, True], ids=["only .ai", "empty kind folders"])
def test_a_tree_without_memories_works_everywhere(tmp_path: Path, kind_folders, capsys) -> None:
    root = tmp_path / "cerebrum"
    (root / ".ai").mkdir(parents=True)
    if kind_folders:
        make_tree(root, {})
    store = store_over(root)
    assert store.tree.memories == () and store.tree.all_problems == []
    assert bootstrap.plan(store.tree, Signals(), TODAY).items == ()
    assert main(["check", "--tree", str(root)]) == 0
    assert "0 memories, 0 problems" in capsys.readouterr().err
    assert main(["index", "--tree", str(root)]) == 0
    written = sorted(p.name for p in root.rglob("index.*"))
    assert written == (sorted(["index.json", "index.md"] * 5) if kind_folders else [])
    assert index_check(root, capsys) == 0
    for argv in (["bootstrap"], ["search", "x"], ["trash", "list"], ["bootstrap", "--json"]):
        assert main([*argv, "--tree", str(root)]) == 0
    assert "Total: 0 files, 0 tokens" in capsys.readouterr().out


# --- a kind folder that is a file ----------------------------------------------------------------


def test_a_kind_folder_that_is_a_file_is_reported_and_left_alone(tmp_path: Path, capsys) -> None:
    root = make_tree(tmp_path / "cerebrum", {f"{LT}/a.md": TEXT})
    shutil.rmtree(root / ST)
    (root / ST).write_text("not a folder\n")
    shutil.rmtree(root / ".ai/procedural-memory")
    (root / ".ai/procedural-memory").write_text("not a folder either\n")
    store = store_over(root)
    assert [p.format() for p in store.tree.problems] == [
        f"{ST}: expected a folder of memories, found a file",
        ".ai/procedural-memory: expected a folder of memories, found a file",
    ]
    assert [m.path for m in store.tree.memories] == [f"{LT}/a.md"]
    before = snapshot(root)
    with pytest.raises(StoreError, match="a folder on its way is a file"):
        store.create(f"{ST}/new.md", {"date": TODAY, "topics": ["x"]}, "# New\n")
    with pytest.raises(StoreError, match="a folder on its way is a file"):
        store.move(f"{LT}/a.md", f"{ST}/a.md")
    assert snapshot(root) == before
    assert main(["check", "--tree", str(root)]) == 1
    assert f"{ST}: expected a folder of memories, found a file" in capsys.readouterr().out
    assert main(["index", "--tree", str(root)]) == 0
    assert (root / ST).read_text() == "not a folder\n"
    assert (root / LT / "index.json").is_file()


def test_a_broken_index_is_reported_and_kept_until_the_person_asks(broken: Path, capsys) -> None:
    store = store_over(broken)
    Curator(store).load()
    report = drift(store.tree, broken, TODAY)
    short = next(kind for kind in report.kinds if kind.kind is Kind.SHORT_TERM)
    assert short.files[0] == "index.json is not valid JSON; `index` regenerates it from the files"
    assert main(["check", "--tree", str(broken)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{ST}/index.json:3: index.json is not valid JSON (Expecting property name enclosed in "
        "double quotes); `samantha-tui index` regenerates it from the memory files"
    ]
    assert index_check(broken, capsys) == 1
    assert (broken / ST / "index.json").read_text() == BROKEN
    assert main(["index", "--tree", str(broken)]) == 0
    assert "index.json is not valid JSON; regenerated from the files" in capsys.readouterr().out
    assert json.loads((broken / ST / "index.json").read_text())["total_memories"] == 1


def test_a_broken_index_is_kept_when_a_memory_of_its_kind_changes(broken: Path) -> None:
    curator = Curator(store_over(broken))
    curator.load()
    curator.apply(toggle_critical(curator.get(f"{ST}/a.md")))
    assert (broken / ST / "index.json").read_text() == BROKEN

"""Classes of input met through the commands a person runs (`check`, `search`, `index`, `health`,
`bootstrap`, `review`, `set`, `unset`, `trash restore`): a 100 MB memory, YAML alias bombs and
deep nesting in frontmatter, bodies that are not UTF-8, and file names holding a newline, a
carriage return, ESC, the byte 0xff, or 235 bytes. Each gives a message or a correct result,
never a traceback or a hang, and no byte of a file is lost or changed unless the person asked.

The reader's own handling of these is proven in test_fuzz_reader.py and test_reader.py; here it
is every command on a tree that holds them, and what the commands write.

A 100 MB memory is reported, never loaded: the reader's 5 MB limit already keeps its text out of
every record. What is proven here is that no command reads it whole anyway: `set` refuses it
before its change's journal copies the file (it used to read 538 MB and then wrongly say the
file had changed on disk), and a trash and its undo sum the file a piece at a time.
"""

from __future__ import annotations

import hashlib
import json
import os
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics import plans
from samantha_tui.core.views.indexes.odd_names import (
    markdown_bytes,
    markdown_file,
    markdown_name,
)
from samantha_tui.core.writing import journal, trash
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY, make_tree, memory_text
from ..pilot import reindexed
from .test_fuzz_reader import DEEP, PROCEDURAL, billion_laughs, finishes_within

MB = 1024 * 1024
HUGE = f"{ST}/2026-06-02_huge.md"
PLAIN = f"{ST}/2026-06-01_plain.md"
COMMANDS = (
    ("check",),
    ("search", "huge"),
    ("search", "topic:odd"),
    ("index", "--check"),
    ("index",),
    ("health",),
    ("bootstrap",),
    ("review",),
)
"""Every command that reads the whole tree, as a person types it (`--tree` added)."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """A command in this process, capped against a hang: its exit status and what it said."""
    with finishes_within():
        code = main(list(argv))
    said = capsys.readouterr()
    text = said.out + said.err
    assert code in (0, 1), (argv, code, text)
    assert "Traceback" not in text, text
    return code, text


@contextmanager
def peak_memory() -> Iterator[Callable[[], float]]:
    """The most memory Python held inside the block, in MB (read once it ends)."""
    tracemalloc.start()
    peak = [0.0]
    try:
        yield lambda: peak[0]
    finally:
        peak[0] = tracemalloc.get_traced_memory()[1] / MB
        tracemalloc.stop()


def streamed_digest(path: Path) -> str:
    summed = hashlib.sha256()
    with path.open("rb") as handle:
        while piece := handle.read(MB):
            summed.update(piece)
    return summed.hexdigest()


def snapshot(root: Path) -> dict[str, bytes]:
    """The bytes of every file of the tree but the huge one, the lock and the journal."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and rel != HUGE and not rel.startswith(journal.JOURNAL_DIR):
            found[rel] = path.read_bytes()
    return found


# --- a 100 MB memory -----------------------------------------------------------------------------


@pytest.fixture
def huge(tmp_path: Path) -> Path:
    """A tree with one memory of 100 MB: real frontmatter, then a body extended to the size (a
    sparse file: no disk is spent, yet every read returns all its bytes)."""
    root = make_tree(tmp_path / "cerebrum", {PLAIN: memory_text(date="2026-06-01", topics="[odd]")})
    with (root / HUGE).open("wb") as handle:
        handle.write(memory_text(date="2026-06-02", topics="[odd]", importance="high").encode())
        handle.truncate(100 * MB)
    return reindexed(root)


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_every_command_reports_a_100_mb_memory_without_loading_it(
    huge: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    digest = streamed_digest(huge / HUGE)
    run(capsys, *command, "--tree", str(huge))  # imports and caches first: not what is measured
    with peak_memory() as peak:
        _, said = run(capsys, *command, "--tree", str(huge))
    assert peak() < 24, f"{command}: {peak():.0f} MB held for a tree of 100 MB"
    if command == ("check",):
        assert f"{HUGE}: file is 100.0 MB, over the 5 MB limit" in said
    assert streamed_digest(huge / HUGE) == digest


@pytest.mark.parametrize("argv", [("set", "importance=low"), ("unset", "topics")])
def test_set_refuses_a_100_mb_memory_at_once_saying_why(
    huge: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, str]
) -> None:
    digest, others = streamed_digest(huge / HUGE), snapshot(huge)
    with peak_memory() as peak:
        code, said = run(capsys, argv[0], str(huge / HUGE), argv[1])
    assert code == 1
    assert f"{HUGE} is 100.0 MB, over the 5 MB limit" in said and "nothing was written" in said
    assert "changed on disk" not in said, "the file did not change: the message must not say so"
    assert peak() < 24, f"{peak():.0f} MB held to refuse"
    assert streamed_digest(huge / HUGE) == digest and snapshot(huge) == others
    assert journal.pending(huge) is None


def test_store_edit_refuses_a_100_mb_memory_before_reading_it(huge: Path) -> None:
    store = Store(huge, lambda: TODAY)
    store.scan()
    with peak_memory() as peak, pytest.raises(Exception, match="over the 5 MB limit"):
        store.edit(HUGE, {"importance": "low"})
    assert peak() < 24


def test_a_100_mb_memory_is_trashed_and_put_back_in_little_memory(huge: Path) -> None:
    digest = streamed_digest(huge / HUGE)
    store = Store(huge, lambda: TODAY)
    store.scan()
    curator = Curator(store)
    delete = plans.Plan("delete", (plans.Operation("trash", HUGE, "deleted by you"),))
    with peak_memory() as peak:
        curator.apply(delete)
        assert not (huge / HUGE).exists()
        (entry,) = trash.entries(huge)
        assert streamed_digest(entry.item(huge)) == digest
        curator.undo()
    assert peak() < 24, f"{peak():.0f} MB held to trash and restore 100 MB"
    assert streamed_digest(huge / HUGE) == digest
    assert trash.entries(huge) == [] and journal.pending(huge) is None


# --- alias bombs, deep nesting, bodies that are not UTF-8 ----------------------------------------

BOMB = f"{ST}/2026-06-03_bomb.md"
RUNBOOK_BOMB = f"{PROCEDURAL}/deploy.md"
DEEP_FLOW = f"{ST}/2026-06-04_deep_flow.md"
DEEP_OPEN = f"{ST}/2026-06-05_deep_open.md"
DEEP_BLOCK = f"{ST}/2026-06-06_deep_block.md"
NOT_UTF8 = f"{ST}/2026-06-07_not_utf8.md"
HOSTILE = {
    BOMB: "---\ndate: 2026-06-03\nimportance: high\n"
    + billion_laughs(key="topics")
    + "\n---\n\n# Laughs\n\nA bomb.\n",
    RUNBOOK_BOMB: "---\ndate: 2026-06-03\ndomain: deploy\n"
    + billion_laughs(key="triggers")
    + "\n---\n\n# Deploy\n\nA bomb in the triggers.\n",
    DEEP_FLOW: "---\ndate: 2026-06-04\ntopics: [odd]\nimportance: high\n"
    + DEEP["mixed"]
    + "\n---\n\n# Deep flow\n\nNested two thousand times.\n",
    DEEP_OPEN: "---\ndate: 2026-06-05\ntopics: [odd]\nimportance: high\n"
    + DEEP["5,000 [ open"]
    + "\n---\n\n# Deep open\n\nNever closed.\n",
    DEEP_BLOCK: "---\ndate: 2026-06-06\ntopics: [odd]\nimportance: high\n"
    + DEEP["2,000 block maps"]
    + "\n---\n\n# Deep block\n\nIndented two thousand times.\n",
    NOT_UTF8: b"---\ndate: 2026-06-07\ntopics: [odd]\nimportance: high\n---\n\n"
    b"# Not \xff UTF-8\n\nA lone \xc3\x28 pair, a surrogate \xed\xa0\x80, a cut \xe2\x82.\n",
}


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    root = make_tree(
        tmp_path / "cerebrum",
        {PLAIN: memory_text(date="2026-06-01", topics="[odd]", importance="low"), **HOSTILE},
    )
    return reindexed(root)


def test_every_command_reports_bombs_deep_nesting_and_odd_bytes(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(hostile)
    shown = {}
    for command in COMMANDS:
        if command != ("index",):  # the only one that writes: the indexes, checked below
            shown[command] = run(capsys, *command, "--tree", str(hostile))[1]
    for rel in (BOMB, RUNBOOK_BOMB):
        assert f"{rel}: aliases (`*name`) expand the frontmatter" in shown[("check",)]
    assert f"{NOT_UTF8}:7: not UTF-8 text (byte 0xff" in shown[("check",)]
    for rel in (DEEP_FLOW, DEEP_OPEN, DEEP_BLOCK):
        assert rel in shown[("check",)]
    assert snapshot(hostile) == before, "a command that reads wrote"
    run(capsys, "index", "--tree", str(hostile))
    assert run(capsys, "index", "--check", "--tree", str(hostile))[0] == 0
    memories = {rel: data for rel, data in snapshot(hostile).items() if "/index." not in rel}
    assert memories == {rel: data for rel, data in before.items() if "/index." not in rel}


@pytest.mark.parametrize("rel", [BOMB, RUNBOOK_BOMB, NOT_UTF8])
@pytest.mark.parametrize("argv", [("set", "importance=low"), ("unset", "date")])
def test_set_refuses_a_bomb_or_odd_bytes_and_keeps_every_byte(
    hostile: Path, capsys: pytest.CaptureFixture[str], rel: str, argv: tuple[str, str]
) -> None:
    before = snapshot(hostile)
    code, said = run(capsys, argv[0], str(hostile / rel), argv[1])
    assert code == 1 and "nothing was" in said, said
    assert snapshot(hostile) == before
    assert journal.pending(hostile) is None


@pytest.mark.parametrize("rel", [DEEP_FLOW, DEEP_OPEN, DEEP_BLOCK])
def test_set_beside_deep_nesting_changes_only_its_own_line_or_refuses(
    hostile: Path, capsys: pytest.CaptureFixture[str], rel: str
) -> None:
    """samantha-llm reads such frontmatter key by key, so another key may be set: every other
    byte stays, the deep value included."""
    old = (hostile / rel).read_bytes()
    code, said = run(capsys, "set", str(hostile / rel), "importance=low", "--keep-updated")
    new = (hostile / rel).read_bytes()
    if code == 1:
        assert "nothing was" in said and new == old
        return
    assert new == old.replace(b"importance: high\n", b"importance: low\n")
    assert run(capsys, "index", "--check", "--tree", str(hostile))[0] == 0


# --- odd file names ------------------------------------------------------------------------------

ODD_NAMES = {
    "newline": b"2026-06-08_new\nline.md",
    "carriage return": b"2026-06-08_carriage\rreturn.md",
    "ESC": b"2026-06-08_esc\x1b[31mred.md",
    "byte 0xff": b"2026-06-08_b\xffd.md",
    "235 bytes": b"2026-06-08_" + b"x" * (235 - len(b"2026-06-08_.md")) + b".md",
    # The text of the escapes above, as a name: never read back as a break or a byte.
    "backslash n": b"2026-06-08_back\\new.md",
    "backslash xff": b"2026-06-08_back\\xffd.md",
}
assert len(ODD_NAMES["235 bytes"]) == 235


def odd_rel(raw: bytes) -> str:
    return f"{ST}/{os.fsdecode(raw)}"


@pytest.fixture
def odd_named(tmp_path: Path) -> Path:
    root = make_tree(tmp_path / "cerebrum", {PLAIN: memory_text(date="2026-06-01", topics="[a]")})
    folder = os.fsencode(root / ST)
    for number, raw in enumerate(ODD_NAMES.values()):
        # Each its own body: alike memories would be dedupe candidates of each other.
        text = memory_text(date="2026-06-08", topics="[odd]", importance="high")
        with open(os.path.join(folder, raw), "wb") as handle:
            handle.write(text.replace("Body text.", f"Odd name number {number} here.").encode())
    return reindexed(root)


def test_odd_names_go_through_every_command(
    odd_named: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(odd_named)
    for command in COMMANDS:
        run(capsys, *command, "--tree", str(odd_named))
    assert run(capsys, "index", "--check", "--tree", str(odd_named))[0] == 0
    assert snapshot(odd_named) == before, "indexed already: nothing to write"
    entries = json.loads((odd_named / ST / "index.json").read_bytes())["recent"]["high_importance"]
    assert {entry["file"] for entry in entries} >= {os.fsdecode(raw) for raw in ODD_NAMES.values()}


def test_a_line_break_in_a_name_never_splits_a_line_of_output(
    odd_named: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each name stays on its line, its break shown as `\\n` or `\\r`: a script reading the
    output line by line (or a person) would otherwise take one file for two."""
    for name in ("index.json", "index.md"):
        (odd_named / ST / name).unlink()  # so that `index` lists every name it adds
    said = ""
    for command in (*COMMANDS, ("dedupe",), ("prune",), ("trash", "list")):
        said += run(capsys, *command, "--tree", str(odd_named))[1]
    said += run(capsys, "set", str(odd_named / odd_rel(ODD_NAMES["newline"])), "critical=true")[1]
    said += run(capsys, "set", str(odd_named / odd_rel(ODD_NAMES["carriage return"])), "x=1")[1]
    for shown in ("2026-06-08_new\\nline.md", "2026-06-08_carriage\\rreturn.md"):
        stem = shown.split("\\")[0]
        assert said.count(stem) > 0 and said.count(stem) == said.count(shown), said
    assert "\r" not in said


@pytest.mark.parametrize("raw", ODD_NAMES.values(), ids=ODD_NAMES.keys())
def test_an_odd_name_is_edited_and_both_indexes_follow(
    odd_named: Path, capsys: pytest.CaptureFixture[str], raw: bytes
) -> None:
    """A newline or carriage return in a name used to split its index.md line in two: the entry
    was never patched again, and `index --check` still called the index up to date."""
    rel = odd_rel(raw)
    old = (odd_named / rel).read_bytes()
    code, said = run(capsys, "set", str(odd_named / rel), "importance=low", "reference_count=7")
    assert code == 0, said
    assert (odd_named / rel).read_bytes().replace(b"importance: low\n", b"") == old.replace(
        b"importance: high\n", b""
    ).replace(b"---\n\n", f"reference_count: 7\nupdated: {TODAY.isoformat()}\n---\n\n".encode(), 1)
    index_md = (odd_named / ST / "index.md").read_text("utf-8")
    assert all(line.count("`") in (0, 2) for line in index_md.splitlines()), "a line split"
    assert run(capsys, "index", "--check", "--tree", str(odd_named))[0] == 0
    (line,) = [line for line in index_md.splitlines() if line.endswith("[refs: 7]")]
    written = markdown_bytes(markdown_file(os.fsdecode(raw))).decode()
    assert line.startswith(f"- `{written}` - Odd name number")
    assert markdown_name(line.encode().split(b"`")[1]) == os.fsdecode(raw)


@pytest.mark.parametrize("raw", ODD_NAMES.values(), ids=ODD_NAMES.keys())
def test_an_odd_name_is_trashed_and_restored_with_its_bytes(
    odd_named: Path, capsys: pytest.CaptureFixture[str], raw: bytes
) -> None:
    rel = odd_rel(raw)
    before = snapshot(odd_named)
    store = Store(odd_named, lambda: TODAY)
    store.scan()
    entry = store.trash(rel)
    assert not (odd_named / rel).exists()
    code, said = run(capsys, "trash", "list", "--tree", str(odd_named))
    assert entry.id in said
    code, said = run(capsys, "trash", "restore", entry.id, "--tree", str(odd_named))
    assert code == 0, said
    assert snapshot(odd_named) == before

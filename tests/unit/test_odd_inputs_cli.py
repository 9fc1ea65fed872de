"""Odd things trees from elsewhere hold, met by the core and the commands: named pipes, YAML's
other line breaks, JSON nested a thousand deep, broken indexes, file names that are not UTF-8,
files owned by someone else. Each is reported in words, never hangs or crashes, and nobody's
bytes are lost or rewritten."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.json_read import TooDeep, loads, read_regular
from samantha_tui.core.reading.scan import read_pending, read_sessions
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import journal
from samantha_tui.core.writing.atomic import StoreError, digest_of, write_atomic
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.edits import toggle_critical
from samantha_tui.core.writing.trash import TRASH_DIR, listing

from ..conftest import ST, TASKS, TODAY, make_tree
from ..interrupted_batch import crash_after
from ..odd_inputs import BROKEN, DEEP, DONE, LOW, OFTEN, deep, piped, store_over
from ..pilot import index_check, reindexed

__all__ = ["deep", "piped"]  # the fixtures, from odd_inputs.py

WE = ".ai/work-experience/.ai"


def cli(root: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command in a child process: a hang fails the test instead of hanging the suite."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    return subprocess.run(
        [sys.executable, "-m", "samantha_tui", *args, "--tree", str(root)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


# --- named pipes ---------------------------------------------------------------------------------


def test_a_pipe_is_reported_never_opened_by_the_scan_or_check(piped: Path) -> None:
    store = store_over(piped)
    problems = {p.path: p.message for p in store.tree.all_problems}
    assert problems[f"{TASKS}/proj/pipe"].startswith("not a regular file (a named pipe); skipped")
    assert problems[f"{ST}/pipe.md"].startswith("not a regular file (a named pipe); skipped")
    shown = cli(piped, "check", timeout=30)
    assert f"{TASKS}/proj/pipe: warning: not a regular file (a named pipe)" in shown.stdout


def test_digests_list_a_pipe_by_type_and_never_read_it(piped: Path) -> None:
    pipe = piped / TASKS / "proj" / "pipe"
    folder = journal.content_digest(piped / TASKS / "proj")
    assert digest_of(pipe) == journal.content_digest(pipe)
    assert digest_of(pipe) != digest_of(piped / TASKS / "proj" / "status.md")
    with pytest.raises(OSError, match="a named pipe"):
        read_regular(pipe)
    # The pipe counts, by name: another name is another folder.
    os.rename(pipe, pipe.with_name("tube"))
    assert journal.content_digest(piped / TASKS / "proj") != folder


def test_a_project_holding_a_pipe_completes_and_recovers(piped: Path, tmp_path: Path) -> None:
    done = cli(piped, "complete", "--yes")
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.lstat(piped / WE / "proj" / "pipe").st_mode)
    assert not (piped / TASKS / "proj").exists()
    # Interrupted half way, then finished: the journal's digests never wait on the pipe.
    again = make_tree(tmp_path / "again", {f"{TASKS}/proj/status.md": DONE})
    os.mkfifo(again / TASKS / "proj" / "pipe")
    store = store_over(again)
    plan = lifecycle.complete(store.tree, TODAY).plan()
    with pytest.MonkeyPatch.context() as patch:
        crash_after(patch, store, plan, 1)
    assert cli(again, "recover").returncode == 1
    finished = cli(again, "recover", "--finish")
    assert finished.returncode == 0, finished.stderr
    assert stat.S_ISFIFO(os.lstat(again / WE / "proj" / "pipe").st_mode)
    assert journal.pending(again) is None


def test_a_project_holding_a_pipe_rolls_back(piped: Path) -> None:
    store = store_over(piped)
    plan = lifecycle.complete(store.tree, TODAY).plan()
    with pytest.MonkeyPatch.context() as patch:
        crash_after(patch, store, plan, 1)
    back = cli(piped, "recover", "--rollback")
    assert back.returncode == 0, back.stderr
    assert stat.S_ISFIFO(os.lstat(piped / TASKS / "proj" / "pipe").st_mode)
    assert (piped / TASKS / "proj" / "status.md").read_text() == DONE


def test_trashing_a_project_with_a_pipe_completes_and_the_trash_lists_it(piped: Path) -> None:
    store = store_over(piped)
    entry = store.trash(f"{TASKS}/proj/status.md")
    assert stat.S_ISFIFO(os.lstat(entry.item(piped) / "pipe").st_mode)
    assert [e.path for e in listing(piped).entries] == [f"{TASKS}/proj"]


# --- YAML's other line breaks --------------------------------------------------------------------

BREAKS = ["\n", "\r", "\r\n", "\x85", "\u2028", "\u2029"]
PLACES = {
    "quoted": 'title: "a{b}b"\n',
    "single": "title: 'a{b}b'\n",
    "plain": "title: a{b} b\n",
    "comment": "# c{b}omment\n",
}


def broken_by(brk: str, place: str) -> str:
    line = PLACES[place].format(b=brk)
    return f"---\ndate: 2026-06-01\n{line}topics: [x]\nimportance: low\n---\n\n# T\n"


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("brk", BREAKS, ids=repr)
def test_every_yaml_line_break_edits_as_check_judges(
    tmp_path: Path, capsys, brk: str, place: str
) -> None:
    text = broken_by(brk, place)
    root = make_tree(tmp_path / "cerebrum", {f"{ST}/a.md": text})
    path = root / ST / "a.md"
    clean = main(["check", "--tree", str(root)]) == 0
    capsys.readouterr()
    before = store_over(root).get(f"{ST}/a.md")
    code = main(["set", str(path), "importance=high", "--no-index"])
    shown = capsys.readouterr()
    # Whatever check said, set agrees: an edit it can make it makes, or it says why, never
    # an IndexError, and nothing is half-written.
    assert "Error" not in shown.err and "Traceback" not in shown.err
    after = store_over(root).get(f"{ST}/a.md")
    if code == 0:
        assert after.frontmatter["importance"] == "high"
        assert after.frontmatter.get("title") == before.frontmatter.get("title")
        untouched = path.read_bytes().decode("utf-8")
        assert PLACES[place].format(b=brk) in untouched  # the odd line kept, byte for byte
        assert main(["unset", str(path), "importance", "--no-index"]) == 0
        assert "importance" not in store_over(root).get(f"{ST}/a.md").frontmatter
        assert PLACES[place].format(b=brk) in path.read_bytes().decode("utf-8")
    else:
        assert not clean or before.problems  # check had a word for what set refuses
        assert path.read_bytes().decode("utf-8") == text
    capsys.readouterr()


@pytest.mark.parametrize("brk", BREAKS, ids=repr)
def test_a_comment_hiding_a_yaml_break_is_a_warning_not_clean(tmp_path: Path, brk: str) -> None:
    root = make_tree(tmp_path / "cerebrum", {f"{ST}/a.md": broken_by(brk, "comment")})
    memory = store_over(root).get(f"{ST}/a.md")
    # After `\n` the hidden text is a line of the file too; after the others, within line 3.
    line = 4 if "\n" in brk else 3
    assert [p.line for p in memory.problems if "strict YAML cannot read" in p.message] == [line]


@pytest.mark.parametrize("brk", BREAKS, ids=repr)
def test_the_form_edit_path_keeps_a_quoted_break(tmp_path: Path, brk: str) -> None:
    root = make_tree(tmp_path / "cerebrum", {f"{ST}/a.md": broken_by(brk, "quoted")})
    curator = Curator(store_over(root))
    curator.load()
    curator.apply(toggle_critical(curator.get(f"{ST}/a.md")))
    memory = store_over(root).get(f"{ST}/a.md")
    assert memory.critical is True
    assert f'title: "a{brk}b"\n' in (root / ST / "a.md").read_bytes().decode("utf-8")


# --- JSON nested too deep ------------------------------------------------------------------------


def test_deep_json_is_too_deep_not_a_recursion_error() -> None:
    with pytest.raises(TooDeep):
        loads(DEEP)
    with pytest.raises(TooDeep):
        loads('{"a": ' + "[" * 150 + "]" * 150 + "}")
    assert loads("[" * 100 + "]" * 100) is not None


def test_deep_json_everywhere_is_reported(deep: Path, capsys) -> None:
    updates, problems = read_pending(deep)
    assert updates == [] and "nested more than 100 levels deep" in problems[0].message
    assert [s.status for s in read_sessions(deep)] == ["unknown"]
    assert main(["check", "--tree", str(deep)]) == 1
    out = capsys.readouterr().out
    assert f"{ST}/index.json:1: index.json is nested more than 100 levels deep" in out
    assert index_check(deep, capsys) == 1
    assert main(["bootstrap", "--tree", str(deep)]) == 0
    capsys.readouterr()
    assert main(["index", "--tree", str(deep)]) == 0
    assert json.loads((deep / ST / "index.json").read_text())["total_memories"] == 2


def test_a_deep_trash_note_is_a_damaged_entry(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "cerebrum", {})
    entry = root / TRASH_DIR / "20260601-120000"
    entry.mkdir(parents=True)
    (entry / "origin.json").write_text(DEEP)
    (entry / "x.md").write_text(LOW)
    assert "is damaged" in listing(root).damaged[0].reason


# --- a broken index is never rewritten by a change -----------------------------------------------


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_index_is_kept_by_prune_and_set(tmp_path: Path, capsys, name: str) -> None:
    raw = BROKEN[name]
    root = make_tree(
        tmp_path / "cerebrum",
        {
            f"{ST}/2026-01-01_old.md": LOW,
            f"{ST}/2026-06-01_often.md": OFTEN,
            f"{ST}/index.json": raw,
        },
    )
    assert main(["prune", "--yes", "--tree", str(root)]) == 0
    out = capsys.readouterr().out
    assert (root / ST / "index.json").read_bytes() == raw
    assert f"{ST}/index.json was not patched (it is " in out
    assert main(["set", str(root / ST / "2026-06-01_often.md"), "importance=high"]) == 0
    assert f"{ST}/index.json was not patched" in capsys.readouterr().out
    assert (root / ST / "index.json").read_bytes() == raw
    assert not (root / ST / "index.md").exists()
    # Asked for explicitly, it is rebuilt (and said so first by --check).
    assert main(["index", "--tree", str(root)]) == 0
    assert json.loads((root / ST / "index.json").read_text())["total_memories"] == 1


# --- file names that are not UTF-8 ---------------------------------------------------------------

ODD = "2026-05-02_b\udcffd.md"


@pytest.fixture
def odd_named(tmp_path: Path) -> Path:
    root = make_tree(tmp_path / "cerebrum", {f"{ST}/2026-06-01_often.md": OFTEN})
    (root / ST / ODD).write_bytes(OFTEN.encode())
    return reindexed(root)


def test_a_name_that_is_not_utf8_is_indexed_exactly(odd_named: Path, capsys) -> None:
    assert main(["index", "--tree", str(odd_named)]) == 0
    raw = (odd_named / ST / "index.json").read_bytes()
    assert b"2026-05-02_b\\udcffd.md" in raw  # json.dumps's own escape: valid ASCII JSON
    data = json.loads(raw)
    assert ODD in [entry["file"] for entry in data["high_priority"]]
    # What samantha-llm's json.load gives back opens the very file.
    assert (odd_named / ST / ODD).read_bytes() == OFTEN.encode()
    md = (odd_named / ST / "index.md").read_bytes()
    md.decode("utf-8")  # stays valid UTF-8
    assert b"`2026-05-02_b\\xffd.md`" in md
    assert index_check(odd_named, capsys) == 0
    # Indexed again by another process (nothing remembered): no line is doubled.
    assert cli(odd_named, "index").returncode == 0
    assert (odd_named / ST / "index.md").read_bytes() == md


def test_a_name_that_is_not_utf8_goes_through_escalate_prune_and_set(
    odd_named: Path, capsys
) -> None:
    assert main(["escalate", "--yes", "--tree", str(odd_named)]) == 0
    assert store_over(odd_named).get(f"{ST}/{ODD}").critical is True
    assert main(["set", str(odd_named / ST / ODD), "critical=false", "importance=low"]) == 0
    assert journal.pending(odd_named) is None
    capsys.readouterr()
    assert index_check(odd_named, capsys) == 0


@pytest.mark.parametrize("ending", ["--finish", "--rollback"])
def test_a_name_that_is_not_utf8_is_journaled_and_recovered(
    odd_named: Path, capsys, ending: str
) -> None:
    before = (odd_named / ST / ODD).read_bytes()
    store = store_over(odd_named)
    plan = toggle_critical(store.get(f"{ST}/{ODD}"))
    with pytest.MonkeyPatch.context() as patch:
        crash_after(patch, store, plan, 0)
    assert (
        ODD
        in json.loads((odd_named / journal.JOURNAL_DIR / "plan.json").read_bytes())["operations"][
            0
        ]["path"]
    )
    assert main(["recover", ending, "--tree", str(odd_named)]) == 0
    assert journal.pending(odd_named) is None
    critical = store_over(odd_named).get(f"{ST}/{ODD}").critical
    assert critical is (ending == "--finish")
    if ending == "--rollback":
        assert (odd_named / ST / ODD).read_bytes() == before


def test_a_trashed_name_that_is_not_utf8_comes_back(odd_named: Path) -> None:
    store = store_over(odd_named)
    entry = store.trash(f"{ST}/{ODD}")
    assert listing(odd_named).entries[0].path == f"{ST}/{ODD}"
    store.restore(entry.id)
    assert (odd_named / ST / ODD).read_bytes() == OFTEN.encode()


# --- write access and ownership ------------------------------------------------------------------

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="changing owners needs root")


@root_only
def test_an_edit_keeps_the_files_owner_group_and_mode(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "cerebrum", {f"{ST}/a.md": OFTEN})
    path = root / ST / "a.md"
    os.chown(path, 12345, 12345)
    os.chmod(path, 0o640)
    store = store_over(root)
    store.edit(f"{ST}/a.md", {"importance": "high"})
    info = os.stat(path)
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (12345, 12345, 0o640)
    assert store_over(root).get(f"{ST}/a.md").importance == "high"


def test_a_file_with_no_write_bit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"x")
    path.chmod(0o444)
    with pytest.raises(StoreError, match="the file is read-only"):
        write_atomic(path, b"y", "a.md", digest_of(path))
    assert path.read_bytes() == b"x"


CHILD = """
import sys
import tempfile
from pathlib import Path
from samantha_tui.core.writing.atomic import StoreError, digest_of, write_atomic
path = Path(sys.argv[1])
try:
    write_atomic(path, b"changed", "a.md", digest_of(path))
except StoreError as error:
    print(error)
"""


SYSTEM_PYTHON = Path("/usr/bin/python3")


@root_only
@pytest.mark.skipif(not SYSTEM_PYTHON.exists(), reason="needs a Python any user may run")
def test_write_access_is_judged_by_trying_as_the_running_user() -> None:
    # Outside pytest's own temporary folders, which only root may enter.
    folder = Path(tempfile.mkdtemp(prefix="samantha-tui-access-"))
    source = Path(tempfile.mkdtemp(prefix="samantha-tui-source-"))
    try:
        folder.chmod(0o777)
        path = folder / "a.md"
        path.write_bytes(b"root's own\n")
        path.chmod(0o644)
        # The package copied where that user may read it: a checkout under a root-only folder
        # (a fresh clone in a private temporary folder) is out of its reach.
        source.chmod(0o755)
        package = Path(__file__).parents[2] / "samantha_tui"
        shutil.copytree(package, source / "samantha_tui", ignore=shutil.ignore_patterns("demo"))
        for part in source.rglob("*"):
            part.chmod(0o755 if part.is_dir() else 0o644)
        env = {"PYTHONPATH": str(source), "PATH": os.environ.get("PATH", "")}
        shown = subprocess.run(
            [str(SYSTEM_PYTHON), "-B", "-c", CHILD, str(path)],
            user=65534,
            group=65534,
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            cwd="/",
        )
        # The mode bits say "writable by its owner", the folder lets anyone rename into it:
        # only trying tells that this user may not change the file.
        assert "the file is read-only" in shown.stdout, shown.stderr
        info = os.stat(path)
        assert path.read_bytes() == b"root's own\n" and info.st_uid == 0
        assert [p.name for p in folder.iterdir()] == ["a.md"]  # no temporary file left
    finally:
        shutil.rmtree(folder)
        shutil.rmtree(source, ignore_errors=True)


# --- set refuses files that are not memories, before writing -------------------------------------


@pytest.mark.parametrize(
    "rel",
    [
        ".ai/.trash/20260601-120000/a.md",
        ".ai/subconscious/.ai/sessions/20260601_120000/memories/x.md",
        "NOTES.md",
    ],
)
def test_set_refuses_a_file_outside_the_kind_folders(tmp_path: Path, capsys, rel: str) -> None:
    root = make_tree(tmp_path / "cerebrum", {rel: LOW})
    assert main(["set", str(root / rel), "importance=high", "--tree", str(root)]) == 1
    assert "nothing was written" in capsys.readouterr().err
    assert (root / rel).read_text() == LOW
    assert not (root / journal.JOURNAL_DIR).exists()

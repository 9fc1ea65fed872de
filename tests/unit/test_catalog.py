"""The catalog: a warm scan gives exactly the records of a cold one, never stale ones, and a
damaged, foreign, locked or misplaced database costs only time."""

from __future__ import annotations

import datetime as dt
import os
import pickle
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.generate import generate
from samantha_tui.core.basics.model import Tree
from samantha_tui.core.reading import catalog
from samantha_tui.core.reading.catalog import Catalog
from samantha_tui.core.reading.catalog_list import entry_of
from samantha_tui.core.reading.scan import scan

from ..conftest import ST, TASKS, TODAY, make_tree, memory_text

HOUR_NS = 3600 * 10**9


def age(root: Path, hours: int = 1) -> None:
    """Date every file an hour back (the mtime; the ctime stays now, see `settled`)."""
    stamp = time.time_ns() - hours * HOUR_NS
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(stamp, stamp))


@pytest.fixture(autouse=True)
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's clock runs a minute ahead, so files written by the test are not racy.

    A test that does not want it undoes it (`monkeypatch.setattr(catalog, "_now_ns", ...)`).
    """
    monkeypatch.setattr(catalog, "_now_ns", lambda: time.time_ns() + 60 * 10**9)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Paths the scan read from disk (rather than took from the catalog), in order."""
    seen: list[str] = []
    real = catalog.read_memory

    def counting(root, rel, *args):
        seen.append(rel)
        return real(root, rel, *args)

    monkeypatch.setattr(catalog, "read_memory", counting)
    return seen


@pytest.fixture
def cache_dir() -> Path:
    return Path(os.environ[catalog.CACHE_ENV])


def cold(root: Path, today: dt.date = TODAY) -> Tree:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(catalog.CACHE_ENV, "off")
        return scan(root, today)


def database(cache_dir: Path) -> Path:
    (found,) = (p for p in cache_dir.iterdir() if p.suffix == ".sqlite")
    return found


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def assert_same(warm: Tree, expected: Tree) -> None:
    assert len(warm.memories) == len(expected.memories)
    for got, want in zip(warm.memories, expected.memories, strict=True):
        assert got == want, got.path
        assert got.frontmatter == want.frontmatter and got.problems == want.problems
    assert warm.memories == expected.memories and warm.problems == expected.problems


def sql(file: Path, *statements: str) -> None:
    connection = sqlite3.connect(file, isolation_level=None)
    try:
        for statement in statements:
            connection.execute(statement)
    finally:
        connection.close()


@pytest.mark.parametrize("source", ["demo", "generated"])
def test_warm_scan_equals_cold_scan(source, demo_root, tmp_path, reads, cache_dir) -> None:
    root = demo_root if source == "demo" else generate(tmp_path / "gen", 300, TODAY)
    age(root)
    first = scan(root, TODAY)
    count = len(first.memories)
    assert count >= (300 if source == "generated" else 10)
    assert len(reads) == count
    assert database(cache_dir).name.startswith("catalog-")
    assert first.delta is not None and len(first.delta.changed) == count
    assert first.notices == ()
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == []
    assert warm.delta is not None and warm.delta.changed == () and warm.delta.removed == ()
    assert_same(warm, cold(root))
    assert_same(first, warm)
    with Catalog.open(root) as opened:
        assert opened.catalogued(TODAY) == list(warm.memories)


def test_catalogued_needs_no_memory_file(demo_root, monkeypatch) -> None:
    age(demo_root)
    tree = scan(demo_root, TODAY)
    monkeypatch.setattr(catalog, "read_memory", None)  # any read would fail
    with Catalog.open(demo_root) as opened:
        monkeypatch.setattr(os, "lstat", None)
        monkeypatch.setattr(os, "stat", None)
        assert opened.catalogued(TODAY) == list(tree.memories)
        later = TODAY + dt.timedelta(days=3)
        dated = [m for m in opened.catalogued(later) if m.date]
        monkeypatch.undo()
        assert dated and all(m.age_days == (later - m.date).days for m in dated)


def test_catalogued_is_empty_without_a_scan(demo_root) -> None:
    with Catalog.open(demo_root) as opened:
        assert opened.catalogued(TODAY) == []
        assert opened.notice is None


def test_warm_scan_in_a_second_process_reads_no_file(demo_root, cache_dir) -> None:
    age(demo_root)
    scan(demo_root, TODAY)
    before = database(cache_dir).read_bytes()
    code = (
        "import sys, time, datetime as dt; from pathlib import Path\n"
        "from samantha_tui.core.reading import catalog\n"
        "from samantha_tui.core.reading.scan import scan\n"
        "catalog.read_memory = None\n"  # any read from disk would fail
        "catalog._now_ns = lambda: time.time_ns() + 60 * 10**9\n"
        f"print(len(scan(Path(sys.argv[1]), dt.date.fromisoformat('{TODAY}')).memories))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(demo_root)], capture_output=True, text=True, check=True
    )
    assert int(out.stdout) == len(cold(demo_root).memories)
    assert database(cache_dir).read_bytes() == before  # nothing changed, nothing written


def test_a_different_today_gives_todays_age(demo_root, reads) -> None:
    age(demo_root)
    scan(demo_root, TODAY)
    later = TODAY + dt.timedelta(days=40)
    reads.clear()
    warm = scan(demo_root, later)
    assert reads == []
    expected = cold(demo_root, later)
    assert_same(warm, expected)
    dated = [m for m in warm.memories if m.date]
    assert dated and all(m.age_days == (later - m.date).days for m in dated)


def test_edited_file_same_size_new_mtime_is_read_again(tmp_path, reads) -> None:
    rel = f"{ST}/2026-06-01_a.md"
    root = make_tree(tmp_path / "t", {rel: memory_text(date="2026-06-01", importance="low")})
    other = f"{ST}/2026-06-02_b.md"
    (root / other).write_text(memory_text(date="2026-06-02"), encoding="utf-8")
    age(root, hours=2)
    scan(root, TODAY)
    old = (root / rel).read_bytes()
    new = old.replace(b"importance: low", b"importance: mid")
    assert len(new) == len(old)
    (root / rel).write_bytes(new)
    stamp = time.time_ns() - HOUR_NS
    os.utime(root / rel, ns=(stamp, stamp))
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == [rel]
    assert warm.memories[0].frontmatter["importance"] == "mid"
    assert warm.delta is not None and [m.path for m in warm.delta.changed] == [rel]
    assert_same(warm, cold(root))


def test_same_size_same_mtime_rewrite_is_read_again(tmp_path, reads) -> None:
    """What only the ctime tells: the bytes changed and the mtime was set back."""
    rel = f"{ST}/2026-06-01_a.md"
    root = make_tree(tmp_path / "t", {rel: memory_text(date="2026-06-01", importance="low")})
    age(root)
    scan(root, TODAY)
    info = (root / rel).stat()
    time.sleep(0.02)  # past one tick of the kernel's clock, which stamps the ctime
    (root / rel).write_bytes((root / rel).read_bytes().replace(b"low", b"mid"))
    os.utime(root / rel, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert (root / rel).stat().st_size == info.st_size
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == [rel]
    assert warm.memories[0].frontmatter["importance"] == "mid"


def test_rename_over_is_read_again(tmp_path, reads) -> None:
    """Same size, same mtime, another inode: a file renamed over the memory."""
    rel = f"{ST}/2026-06-01_a.md"
    root = make_tree(tmp_path / "t", {rel: memory_text(date="2026-06-01", importance="low")})
    age(root)
    scan(root, TODAY)
    info = (root / rel).stat()
    other = root / "elsewhere.txt"
    other.write_bytes((root / rel).read_bytes().replace(b"low", b"mid"))
    os.utime(other, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.replace(other, root / rel)
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == [rel]
    assert warm.memories[0].frontmatter["importance"] == "mid"


def test_edited_file_other_size_same_mtime_is_read_again(tmp_path, reads) -> None:
    rel = f"{ST}/2026-06-01_a.md"
    root = make_tree(tmp_path / "t", {rel: memory_text(date="2026-06-01", importance="low")})
    age(root)
    scan(root, TODAY)
    mtime = (root / rel).stat().st_mtime_ns
    (root / rel).write_text(memory_text(date="2026-06-01", importance="high"), encoding="utf-8")
    os.utime(root / rel, ns=(mtime, mtime))
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == [rel]
    assert warm.memories[0].importance == "high"


def test_recent_file_is_never_trusted(tmp_path, reads, monkeypatch) -> None:
    """Racy-git rule: a same-size rewrite within the mtime's granularity must still be seen."""
    monkeypatch.setattr(catalog, "_now_ns", time.time_ns)
    rel = f"{ST}/2026-06-01_a.md"
    root = make_tree(tmp_path / "t", {rel: memory_text(date="2026-06-01", importance="low")})
    mtime = (root / rel).stat().st_mtime_ns
    first = scan(root, TODAY)
    with Catalog.open(root) as opened:  # kept for the first frame all the same
        assert opened.catalogued(TODAY) == list(first.memories)
    (root / rel).write_text(memory_text(date="2026-06-01", importance="mid"), encoding="utf-8")
    os.utime(root / rel, ns=(mtime, mtime))
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == [rel]
    assert warm.memories[0].frontmatter["importance"] == "mid"


def test_companions_and_new_or_removed_files_come_from_this_scan(tmp_path, reads) -> None:
    status = f"{TASKS}/alpha/status.md"
    gone = f"{ST}/2026-06-01_gone.md"
    root = make_tree(
        tmp_path / "t",
        {status: memory_text(date="2026-06-01", status="active"), gone: memory_text()},
    )
    age(root)
    scan(root, TODAY)
    (root / TASKS / "alpha" / "notes.md").write_text("notes\n", encoding="utf-8")
    (root / gone).unlink()
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == []
    assert [m.path for m in warm.memories] == [status]
    assert warm.memories[0].companions == (f"{TASKS}/alpha/notes.md",)
    assert warm.delta is not None and warm.delta.removed == (gone,)
    assert [m.path for m in warm.delta.changed] == [status]  # its companions changed
    assert_same(warm, cold(root))
    with Catalog.open(root) as opened:
        assert opened.catalogued(TODAY) == list(warm.memories)


def test_a_file_name_that_is_not_utf8_is_catalogued(tmp_path, reads) -> None:
    root = make_tree(tmp_path / "t", {})
    name = os.fsencode(root / ST) + b"/2026-06-01_caf\xff.md"
    Path(os.fsdecode(name)).write_text(memory_text(date="2026-06-01"), encoding="utf-8")
    age(root)
    first = scan(root, TODAY)
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == [] and len(warm.memories) == 1 and "\udcff" in warm.memories[0].path
    assert_same(warm, first)
    with Catalog.open(root) as opened:
        assert opened.catalogued(TODAY) == list(first.memories)


def test_update_puts_and_drops_rows(tmp_path, reads) -> None:
    a, b = f"{ST}/2026-06-01_a.md", f"{ST}/2026-06-02_b.md"
    root = make_tree(tmp_path / "t", {a: memory_text(date="2026-06-01"), b: memory_text()})
    age(root)
    scan(root, TODAY)
    (root / a).write_text(memory_text(date="2026-06-01", importance="high"), encoding="utf-8")
    age(root)
    written = cold(root).memories[0]
    (root / b).unlink()
    with Catalog.open(root) as opened:
        opened.update([written], [b])
        assert opened.catalogued(TODAY) == [written]
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == []  # the record put was trusted: its file is as it was when put
    assert warm.memories == (written,)


def test_a_file_just_written_is_shown_but_read_again(tmp_path, reads, monkeypatch) -> None:
    monkeypatch.setattr(catalog, "_now_ns", time.time_ns)
    a = f"{ST}/2026-06-01_a.md"
    root = make_tree(tmp_path / "t", {a: memory_text(date="2026-06-01")})
    written = cold(root).memories[0]
    with Catalog.open(root) as opened:
        opened.update([written], [])
        assert opened.catalogued(TODAY) == [written]
    reads.clear()
    scan(root, TODAY)
    assert reads == [a]


def damage_truncated(file: Path) -> None:
    data = file.read_bytes()
    file.write_bytes(data[: len(data) // 3])


def damage_garbage(file: Path) -> None:
    file.write_bytes(b"\x00garbage" * 5000)


def damage_header(file: Path) -> None:
    data = bytearray(file.read_bytes())
    data[0:16] = b"not sqlite here!"
    file.write_bytes(bytes(data))


def damage_records_dropped(file: Path) -> None:
    sql(file, "DROP TABLE records")


def damage_meta_dropped(file: Path) -> None:
    sql(file, "DROP TABLE meta")


def damage_pages(file: Path) -> None:
    data = bytearray(file.read_bytes())
    page = 4096
    for start in range(page, len(data), page):  # every page's header but the first
        data[start : start + 8] = b"\xee" * 8
    file.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        damage_truncated,
        damage_garbage,
        damage_header,
        damage_records_dropped,
        damage_meta_dropped,
        damage_pages,
    ],
)
def test_damaged_database_is_rebuilt_with_a_notice(damage, demo_root, reads, cache_dir) -> None:
    age(demo_root)
    scan(demo_root, TODAY)
    damage(database(cache_dir))
    reads.clear()
    warm = scan(demo_root, TODAY)
    assert len(reads) == len(warm.memories)
    assert_same(warm, cold(demo_root))
    (notice,) = warm.notices
    assert "damaged" in notice or "could not be read" in notice
    reads.clear()
    again = scan(demo_root, TODAY)  # the scan wrote a sound catalog again
    assert reads == [] and again.notices == ()
    assert_same(again, warm)
    sql(database(cache_dir))  # opens
    connection = sqlite3.connect(database(cache_dir))
    assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    connection.close()


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE meta SET value = '0.0.0-old' WHERE key = 'version'",
        f"UPDATE meta SET value = '{catalog.FORMAT_VERSION + 1}' WHERE key = 'format'",
        "UPDATE meta SET value = '[]' WHERE key = 'fields'",
        "UPDATE meta SET value = '1.0' WHERE key = 'yaml'",
        "UPDATE meta SET value = '/somewhere/else' WHERE key = 'root'",
        "DELETE FROM meta WHERE key = 'format'",
    ],
)
def test_another_version_is_rebuilt_silently(statement, demo_root, reads, cache_dir) -> None:
    age(demo_root)
    scan(demo_root, TODAY)
    sql(database(cache_dir), statement, "CREATE TABLE search_postings (word TEXT)")
    reads.clear()
    warm = scan(demo_root, TODAY)
    assert len(reads) == len(warm.memories)
    assert warm.notices == ()
    assert warm.delta is not None and len(warm.delta.changed) == len(warm.memories)
    assert_same(warm, cold(demo_root))
    connection = sqlite3.connect(database(cache_dir))
    tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}
    connection.close()
    assert "search_postings" not in tables  # nothing derived from the old records outlives them


def test_a_row_with_a_bad_blob_is_read_from_its_file(demo_root, reads, cache_dir) -> None:
    age(demo_root)
    first = scan(demo_root, TODAY)
    victim = first.memories[3].path
    sql(
        database(cache_dir),
        f"UPDATE records SET record = X'8004deadbeef' WHERE path = CAST('{victim}' AS BLOB)",
    )
    with Catalog.open(demo_root) as opened:
        shown = opened.catalogued(TODAY)
        assert [m.path for m in shown] == [m.path for m in first.memories if m.path != victim]
        assert opened.notice is not None and victim in opened.notice
    reads.clear()
    warm = scan(demo_root, TODAY)
    assert reads == [victim]
    assert_same(warm, cold(demo_root))
    assert warm.notices and victim in warm.notices[0]


def test_a_flipped_bit_in_a_value_is_caught(demo_root, reads, cache_dir) -> None:
    age(demo_root)
    first = scan(demo_root, TODAY)
    victim = next(m for m in first.memories if "Body" in m.body or len(m.body) > 20)
    file = database(cache_dir)
    connection = sqlite3.connect(file)
    (body,) = connection.execute(
        "SELECT body FROM records WHERE path = ?", (victim.path.encode(),)
    ).fetchone()
    flipped = bytes([body[0] ^ 0x01]) + body[1:]
    connection.execute(
        "UPDATE records SET body = ? WHERE path = ?", (flipped, victim.path.encode())
    )
    connection.commit()
    connection.close()
    reads.clear()
    warm = scan(demo_root, TODAY)
    assert reads == [victim.path]
    assert_same(warm, cold(demo_root))


class MakesFolder:
    """Unpickling this calls os.mkdir: what a plain pickle.load would run."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return os.mkdir, (self.path,)


def test_a_row_naming_a_foreign_class_is_refused_not_run(demo_root, reads, cache_dir) -> None:
    age(demo_root)
    first = scan(demo_root, TODAY)
    marker = cache_dir / "ran"
    file = database(cache_dir)
    connection = sqlite3.connect(file)
    rows = connection.execute("SELECT path, body FROM records").fetchall()
    for path, body in rows:  # checksums made right: only the unpickler stands in the way
        record = pickle.dumps((MakesFolder(str(marker)),) * len(catalog._PICKLED))
        connection.execute(
            "UPDATE records SET record = ?, checksum = ? WHERE path = ?",
            (record, catalog._checksum(path, record, body), path),
        )
    connection.commit()
    connection.close()
    with Catalog.open(demo_root) as opened:
        assert opened.catalogued(TODAY) == []
    reads.clear()
    warm = scan(demo_root, TODAY)
    assert len(reads) == len(first.memories)
    assert_same(warm, cold(demo_root))
    assert not marker.exists()


@pytest.mark.parametrize("what", ["folder", "fifo", "symlink", "wal-fifo"])
def test_something_else_where_the_database_should_be(what, demo_root, tmp_path, cache_dir):
    age(demo_root)
    file = catalog.catalog_file(cache_dir, demo_root.resolve())
    target = tmp_path / "target.sqlite"
    if what == "folder":
        file.mkdir()
    elif what == "fifo":
        os.mkfifo(file)
    elif what == "wal-fifo":
        os.mkfifo(f"{file}-wal")
    else:
        file.symlink_to(target)
    first = scan(demo_root, TODAY)
    assert_same(first, cold(demo_root))
    (notice,) = first.notices
    assert "not a regular file" in notice
    assert not target.exists()  # nothing written through the link
    assert sorted(p.name for p in cache_dir.iterdir()) == [
        f"{file.name}-wal" if what == "wal-fifo" else file.name
    ]


def test_an_unusable_folder_costs_only_time(demo_root, tmp_path, monkeypatch, reads) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder should be", encoding="utf-8")
    monkeypatch.setenv(catalog.CACHE_ENV, str(blocker / "cache"))
    age(demo_root)
    first = scan(demo_root, TODAY)
    assert_same(first, cold(demo_root))
    assert first.notices and "cannot be used" in first.notices[0]


LOCK_HOLDER = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
connection.execute("DELETE FROM meta WHERE key = 'nothing'")
print("locked", flush=True)
sys.stdin.readline()
connection.execute("ROLLBACK")
"""


def test_a_database_locked_by_another_process(demo_root, reads, cache_dir, monkeypatch) -> None:
    monkeypatch.setattr(catalog, "BUSY_TIMEOUT_S", 0.2)
    age(demo_root)
    scan(demo_root, TODAY)
    (demo_root / ST / "2026-06-30_new.md").write_text(memory_text(date="2026-06-01"), "utf-8")
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(database(cache_dir))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        reads.clear()
        warm = scan(demo_root, TODAY)  # reads while the other holds the write lock
        assert reads == [f"{ST}/2026-06-30_new.md"]
        assert_same(warm, cold(demo_root))
        (notice,) = warm.notices
        assert "locked" in notice
    finally:
        holder.communicate("\n", timeout=10)
    reads.clear()
    again = scan(demo_root, TODAY)
    assert reads == [f"{ST}/2026-06-30_new.md"] and again.notices == ()
    reads.clear()
    scan(demo_root, TODAY)
    assert reads == []


def test_off_disables_the_catalog(demo_root, tmp_path, monkeypatch, reads) -> None:
    monkeypatch.setenv(catalog.CACHE_ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    age(demo_root)
    first = scan(demo_root, TODAY)
    scan(demo_root, TODAY)
    assert len(reads) == 2 * len(cold(demo_root).memories)
    assert first.notices == ()
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()
    with Catalog.open(demo_root) as opened:
        assert opened.file is None
        scan(demo_root, TODAY, opened)  # in memory, it serves this process's later scans
        reads.clear()
        assert_same(scan(demo_root, TODAY, opened), first)
        assert reads == []


def test_default_folder_follows_xdg_then_home(tmp_path) -> None:
    folder = catalog.cache_folder
    assert folder({"SAMANTHA_TUI_CACHE": "/c"}) == Path("/c")
    assert folder({"SAMANTHA_TUI_CACHE": "off", "XDG_CACHE_HOME": "/x"}) is None
    assert folder({"XDG_CACHE_HOME": "/x"}) == Path("/x/samantha-tui")
    assert folder({}) == Path.home() / ".cache" / "samantha-tui"


def test_xdg_cache_home_gets_one_database_per_tree(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv(catalog.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    first = make_tree(tmp_path / "one", {f"{ST}/a.md": memory_text()})
    second = make_tree(tmp_path / "two", {f"{ST}/a.md": memory_text()})
    age(first)
    age(second)
    scan(first, TODAY)
    scan(second, TODAY)
    files = sorted((tmp_path / "xdg" / "samantha-tui").iterdir())
    assert [f.suffix for f in files] == [".sqlite", ".sqlite"]
    assert files[0] != files[1]


def test_nothing_is_written_inside_the_tree(demo_root, monkeypatch) -> None:
    age(demo_root)
    before = snapshot(demo_root)
    scan(demo_root, TODAY)
    scan(demo_root, TODAY)
    assert snapshot(demo_root) == before
    # A cache folder inside the tree (even in `.ai/`) is not used at all.
    inside = demo_root / ".ai" / "cache"
    monkeypatch.setenv(catalog.CACHE_ENV, str(inside))
    tree = scan(demo_root, TODAY)
    assert not inside.exists() and tree.notices == ()
    assert snapshot(demo_root) == before


@pytest.mark.parametrize(
    "column, value",
    [
        ("title", "12"),  # text where bytes belong
        ("refs", "'three'"),  # INTEGER affinity keeps text that is no number
        ("critical", "2"),
        ("importance", "'urgent'"),
        ("day", "'2026-01-01'"),
        ("problems", "X'8004deadbeef'"),
        ("kind", "'nowhere'"),
    ],
)
def test_a_list_entry_of_the_wrong_type_is_left_out(column, value, demo_root, cache_dir) -> None:
    """The first frame's list entries are read without a checksum: a value no row of ours holds
    leaves that entry out (the scan reads its file), never a wrong row on screen or a crash."""
    age(demo_root)
    first = scan(demo_root, TODAY)
    victim = first.memories[3].path
    sql(
        database(cache_dir),
        f"UPDATE listed SET {column} = {value} WHERE path = CAST('{victim}' AS BLOB)",
    )
    with Catalog.open(demo_root) as opened:
        shown = opened.listed()
        assert [m.path for m in shown] == [m.path for m in first.memories if m.path != victim]
        assert opened.notice is not None and victim in opened.notice
    assert_same(scan(demo_root, TODAY), cold(demo_root))


def test_a_list_entry_naming_a_foreign_class_is_refused_not_run(demo_root, cache_dir) -> None:
    age(demo_root)
    first = scan(demo_root, TODAY)
    victim = first.memories[2].path
    marker = cache_dir / "ran"
    foreign = pickle.dumps((MakesFolder(str(marker)),))
    connection = sqlite3.connect(database(cache_dir))
    connection.execute("UPDATE listed SET problems = ? WHERE path = ?", (foreign, victim.encode()))
    connection.commit()
    connection.close()
    with Catalog.open(demo_root) as opened:
        assert victim not in [m.path for m in opened.listed()]
        assert opened.notice is not None and victim in opened.notice
    assert not marker.exists()


def test_list_entries_are_the_records_as_listed(demo_root) -> None:
    age(demo_root)
    first = scan(demo_root, TODAY)
    with Catalog.open(demo_root) as opened:
        assert opened.listed() == [entry_of(m) for m in first.memories]
        assert opened.notice is None

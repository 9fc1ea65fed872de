"""The record cache: a warm scan gives exactly the records a cold one does, and never stale ones."""

from __future__ import annotations

import datetime as dt
import json
import os
import pickle
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from bench.generate import generate
from samantha_tui.core import record_cache
from samantha_tui.core.model import Tree
from samantha_tui.core.scan import scan

from .conftest import ST, TASKS, TODAY, make_tree, memory_text

HOUR_NS = 3600 * 10**9


def age(root: Path, hours: int = 1) -> None:
    """Date every file an hour back, so none is too recent (racy) to cache."""
    stamp = time.time_ns() - hours * HOUR_NS
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(stamp, stamp))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Paths the scan read from disk (rather than took from the cache), in order."""
    seen: list[str] = []
    real = record_cache.read_memory

    def counting(root, rel, *args):
        seen.append(rel)
        return real(root, rel, *args)

    monkeypatch.setattr(record_cache, "read_memory", counting)
    return seen


@pytest.fixture
def cache_dir() -> Path:
    return Path(os.environ[record_cache.CACHE_ENV])


def cold(root: Path, today: dt.date = TODAY) -> Tree:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(record_cache.CACHE_ENV, "off")
        return scan(root, today)


def cache_file(cache_dir: Path) -> Path:
    (found,) = cache_dir.iterdir()
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
    assert warm == expected


@pytest.mark.parametrize("source", ["demo", "generated"])
def test_warm_scan_equals_cold_scan(source, demo_root, tmp_path, reads, cache_dir) -> None:
    root = demo_root if source == "demo" else generate(tmp_path / "gen", 300, TODAY)
    age(root)
    first = scan(root, TODAY)
    count = len(first.memories)
    assert count >= (300 if source == "generated" else 10)
    assert len(reads) == count
    assert cache_file(cache_dir).name.startswith("records-")
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == []
    assert_same(warm, cold(root))
    assert_same(first, warm)


def test_warm_scan_in_a_second_process_reads_no_file(demo_root, cache_dir) -> None:
    age(demo_root)
    scan(demo_root, TODAY)
    before = cache_file(cache_dir).read_bytes()
    code = (
        "import sys, datetime as dt; from pathlib import Path\n"
        "from samantha_tui.core import record_cache; from samantha_tui.core.scan import scan\n"
        "record_cache.read_memory = None\n"  # any read from disk would fail
        f"print(len(scan(Path(sys.argv[1]), dt.date.fromisoformat('{TODAY}')).memories))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(demo_root)], capture_output=True, text=True, check=True
    )
    assert int(out.stdout) == len(cold(demo_root).memories)
    assert cache_file(cache_dir).read_bytes() == before  # nothing changed, nothing written


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
    assert_same(warm, cold(root))


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


def test_recent_file_is_never_served_from_the_cache(tmp_path, reads, cache_dir) -> None:
    """Racy-git rule: a same-size rewrite within the mtime's granularity must still be seen."""
    rel = f"{ST}/2026-06-01_a.md"
    root = make_tree(tmp_path / "t", {rel: memory_text(date="2026-06-01", importance="low")})
    mtime = (root / rel).stat().st_mtime_ns
    scan(root, TODAY)
    (root / rel).write_text(memory_text(date="2026-06-01", importance="mid"), encoding="utf-8")
    os.utime(root / rel, ns=(mtime, mtime))
    reads.clear()
    warm = scan(root, TODAY)
    assert reads == [rel]
    assert warm.memories[0].frontmatter["importance"] == "mid"
    assert list(cache_dir.iterdir()) == []  # nothing cacheable yet, so nothing written


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
    assert_same(warm, cold(root))


def damage_truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def damage_flipped(data: bytes) -> bytes:
    return data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:]


def damage_garbage(data: bytes) -> bytes:
    return b"\x00garbage" * 50


def damage_version(data: bytes) -> bytes:
    return data.replace(b'"version": "', b'"version": "0.0.0-', 1)


def damage_format(data: bytes) -> bytes:
    return data.replace(
        b'"format": %d' % record_cache.FORMAT_VERSION,
        b'"format": %d' % (record_cache.FORMAT_VERSION + 1),
        1,
    )


def damage_empty(data: bytes) -> bytes:
    return b""


@pytest.mark.parametrize(
    "damage",
    [
        damage_truncated,
        damage_flipped,
        damage_garbage,
        damage_version,
        damage_format,
        damage_empty,
    ],
)
def test_damaged_or_stale_cache_is_ignored(damage, demo_root, reads, cache_dir) -> None:
    age(demo_root)
    scan(demo_root, TODAY)
    file = cache_file(cache_dir)
    file.write_bytes(damage(file.read_bytes()))
    reads.clear()
    warm = scan(demo_root, TODAY)
    assert len(reads) == len(warm.memories)
    assert_same(warm, cold(demo_root))
    reads.clear()
    scan(demo_root, TODAY)  # the scan wrote a good cache again
    assert reads == []


class MakesFolder:
    """Unpickling this calls os.mkdir: what a plain pickle.load would run."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return os.mkdir, (self.path,)


def test_cache_naming_a_foreign_class_is_refused_not_run(demo_root, reads, cache_dir) -> None:
    age(demo_root)
    scan(demo_root, TODAY)
    file = cache_file(cache_dir)
    data = file.read_bytes()
    end = data.index(b"\n", len(record_cache.MAGIC))
    header = json.loads(data[len(record_cache.MAGIC) : end])
    marker = cache_dir / "ran"
    payload = pickle.dumps({"x": (0, 0, {"title": MakesFolder(str(marker))})})
    header.update(crc32=zlib.crc32(payload), length=len(payload))
    file.write_bytes(record_cache.MAGIC + json.dumps(header).encode() + b"\n" + payload)
    reads.clear()
    assert_same(scan(demo_root, TODAY), cold(demo_root))
    assert not marker.exists()
    assert len(reads) > 0


def test_unreadable_cache_is_ignored(demo_root, cache_dir) -> None:
    age(demo_root)
    scan(demo_root, TODAY)
    file = cache_file(cache_dir)
    file.unlink()
    file.mkdir()  # neither readable nor replaceable
    assert_same(scan(demo_root, TODAY), cold(demo_root))
    assert list(cache_dir.iterdir()) == [file]  # no temporary file left behind


def test_off_disables_the_cache(demo_root, tmp_path, monkeypatch, reads) -> None:
    monkeypatch.setenv(record_cache.CACHE_ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    age(demo_root)
    scan(demo_root, TODAY)
    scan(demo_root, TODAY)
    assert len(reads) == 2 * len(cold(demo_root).memories)
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()


def test_default_folder_follows_xdg_then_home(tmp_path) -> None:
    folder = record_cache.cache_folder
    assert folder({"SAMANTHA_TUI_CACHE": "/c"}) == Path("/c")
    assert folder({"SAMANTHA_TUI_CACHE": "off", "XDG_CACHE_HOME": "/x"}) is None
    assert folder({"XDG_CACHE_HOME": "/x"}) == Path("/x/samantha-tui")
    assert folder({}) == Path.home() / ".cache" / "samantha-tui"


def test_xdg_cache_home_gets_one_file_per_tree(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv(record_cache.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    first = make_tree(tmp_path / "one", {f"{ST}/a.md": memory_text()})
    second = make_tree(tmp_path / "two", {f"{ST}/a.md": memory_text()})
    age(first)
    age(second)
    scan(first, TODAY)
    scan(second, TODAY)
    files = sorted((tmp_path / "xdg" / "samantha-tui").iterdir())
    assert len(files) == 2 and all(f.suffix == ".pickle" for f in files)


def test_nothing_is_written_inside_the_tree(demo_root, monkeypatch) -> None:
    age(demo_root)
    before = snapshot(demo_root)
    scan(demo_root, TODAY)
    scan(demo_root, TODAY)
    assert snapshot(demo_root) == before
    # A cache folder inside the tree (even in `.ai/`) is not used at all.
    inside = demo_root / ".ai" / "cache"
    monkeypatch.setenv(record_cache.CACHE_ENV, str(inside))
    scan(demo_root, TODAY)
    assert not inside.exists()
    assert snapshot(demo_root) == before

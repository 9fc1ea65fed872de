"""The cache informs, the file decides: a catalog row that lies, or that is not a record of ours,
never moves a memory the file's own words keep, and never crashes a command.

The cache folder may be written by anyone who can write the user's files: these tests craft rows
in it with sqlite3, with every checksum made right, so only the checks under test stand between
the row and a destructive step.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import pickle
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from samantha_tui import cli
from samantha_tui.core.basics import plans
from samantha_tui.core.reading import catalog
from samantha_tui.core.reading.catalog import Catalog
from samantha_tui.core.reading.catalog_codec import restricted_loads
from samantha_tui.core.views import merging
from samantha_tui.core.writing import curator, door, journal
from samantha_tui.core.writing.store import Store

from ..conftest import LT, ST, TASKS, TODAY, make_tree

HOUR_NS = 3600 * 10**9
OLD = "2026-01-01"
"""Long before TODAY: a low-importance memory of that day is a prune candidate."""
RECENT = (TODAY - dt.timedelta(days=5)).isoformat()


@pytest.fixture(autouse=True)
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's clock runs a minute ahead, so the files written here are trusted rows."""
    monkeypatch.setattr(catalog, "_now_ns", lambda: time.time_ns() + 60 * 10**9)


def note(body: str = "Body text.", **fields: object) -> str:
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{lines}---\n\n# A memory\n\n{body}\n"


def age(root: Path) -> None:
    stamp = time.time_ns() - HOUR_NS
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(stamp, stamp))


def catalogued(root: Path) -> Path:
    """Scan the tree once through the CLI, so every file has a trusted row; the database."""
    age(root)
    assert cli.main(["check", str(root)]) in (0, 1)
    folder = Path(os.environ[catalog.CACHE_ENV])
    return catalog.catalog_file(folder, root.resolve())


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*.md"))
        if p.is_file() and "/.trash/" not in p.as_posix()
    }


Change = Callable[[dict[str, Any]], None]


def rewrite(database: Path, rel: str, change: Change) -> None:
    """Rewrite one row's record: `change` gets the record's fields by name and alters them; the
    checksum is made right again."""
    connection = sqlite3.connect(database)
    try:
        path = rel.encode()
        record, body = connection.execute(
            "SELECT record, body FROM records WHERE path = ?", (path,)
        ).fetchone()
        fields = dict(zip(catalog._PICKLED, restricted_loads(record), strict=True))
        change(fields)
        new = pickle.dumps(tuple(fields[name] for name in catalog._PICKLED))
        connection.execute(
            "UPDATE records SET record = ?, checksum = ? WHERE path = ?",
            (new, catalog._checksum(path, new, body), path),
        )
        connection.commit()
    finally:
        connection.close()


def claims(**values: Any) -> Change:
    """A lie told consistently: the record's fields and its frontmatter both say `values`."""

    def change(fields: dict[str, Any]) -> None:
        frontmatter = dict(fields["frontmatter"])
        for key, value in values.items():
            if key in fields:
                fields[key] = value
            frontmatter[key] = value
        fields["frontmatter"] = frontmatter

    return change


def no_journal(root: Path) -> bool:
    return not (root / journal.JOURNAL_DIR).exists()


# --- a row that lies: the destructive step reads the file and keeps to its rule -------------


KEEP = f"{ST}/2026-01-01_keep.md"
OTHER = f"{ST}/2026-01-02_other.md"


@pytest.mark.parametrize(
    ("written", "lie", "said"),
    [
        ({"critical": "true", "importance": "low"}, claims(critical=False), "critical"),
        ({"importance": "high"}, claims(importance="low"), "importance high"),
        (
            {"importance": "low", "date": RECENT},
            claims(date=dt.date(2026, 1, 1)),
            "days old",
        ),
    ],
    ids=["critical", "importance", "date"],
)
def test_prune_keeps_a_memory_whose_file_breaks_the_rule(
    tmp_path, capsys, written, lie, said
) -> None:
    date = written.pop("date", OLD)
    root = make_tree(
        tmp_path / "tree",
        {
            KEEP: note("Keep me.", date=date, topics="[a]", **written),
            OTHER: note("Prune me.", date="2026-01-02", importance="low", topics="[b]"),
        },
    )
    database = catalogued(root)
    rewrite(database, KEEP, lie)
    before = (root / KEEP).read_bytes()
    capsys.readouterr()

    assert cli.main(["prune", str(root)]) == 0
    assert KEEP in capsys.readouterr().out  # the lie is believed for the plan, as a cache is
    assert cli.main(["prune", "--yes", str(root)]) == 0
    out = capsys.readouterr().out

    assert (root / KEEP).read_bytes() == before
    assert not (root / OTHER).exists()
    skipped = [line for line in out.splitlines() if line.startswith("skipped: ")]
    assert len(skipped) == 1 and KEEP in skipped[0] and said in skipped[0], out
    assert "applied: 1 of 2" in out
    assert no_journal(root)


def test_dedupe_never_trashes_the_copy_its_file_calls_critical(tmp_path, capsys) -> None:
    first, second = f"{LT}/2026-01-01_alike.md", f"{LT}/2026-01-01_alike_20260101_120000.md"
    body = "The deploy runs from the release branch only, after the checks pass."
    root = make_tree(
        tmp_path / "tree",
        {
            first: note(body, date=OLD, importance="high", critical="true", topics="[a]"),
            second: note(body, date=OLD, importance="high", topics="[a]"),
        },
    )
    database = catalogued(root)
    rewrite(database, first, claims(critical=False))
    rewrite(database, second, claims(reference_count=40))
    before = snapshot(root)
    capsys.readouterr()

    assert cli.main(["dedupe", "--yes", str(root)]) == 0
    out = capsys.readouterr().out

    assert snapshot(root) == before
    assert f"skipped: {first}" in out and "critical" in out
    assert no_journal(root)


def test_complete_leaves_a_task_whose_status_is_not_completed(tmp_path, capsys) -> None:
    status = f"{TASKS}/ongoing/status.md"
    root = make_tree(
        tmp_path / "tree",
        {status: note("Working.", date=OLD, topics="[a]", status="active", project="ongoing")},
    )
    database = catalogued(root)
    rewrite(database, status, claims(status="completed"))
    before = snapshot(root)
    capsys.readouterr()

    assert cli.main(["complete", "--yes", str(root)]) == 0
    out = capsys.readouterr().out

    assert snapshot(root) == before
    assert f"skipped: {status}" in out and "active" in out
    assert no_journal(root)


def test_promote_copies_only_what_its_file_still_promotes(tmp_path, capsys) -> None:
    rel = f"{ST}/2026-01-01_seldom.md"
    root = make_tree(
        tmp_path / "tree",
        {rel: note("Seldom read.", date=RECENT, importance="low", topics="[a]")},
    )
    database = catalogued(root)
    rewrite(database, rel, claims(reference_count=12))
    before = snapshot(root)
    capsys.readouterr()

    assert cli.main(["promote", "--yes", str(root)]) == 0
    out = capsys.readouterr().out

    assert snapshot(root) == before
    assert f"skipped: {rel}" in out
    assert no_journal(root)


def test_a_merge_never_trashes_a_critical_memory_into_one_that_is_not(tmp_path) -> None:
    keep, drop = f"{LT}/2026-01-01_keep.md", f"{LT}/2026-01-02_drop.md"
    root = make_tree(
        tmp_path / "tree",
        {
            keep: note("Kept.", date=OLD, importance="high", topics="[a]"),
            drop: note("Dropped.", date=OLD, importance="high", critical="true", topics="[a]"),
        },
    )
    database = catalogued(root)
    rewrite(database, drop, claims(critical=False))
    store = Store(root, lambda: TODAY)
    store.scan()
    kept, dropped = store.get(keep), store.get(drop)
    assert kept is not None and dropped is not None and not dropped.critical  # the lie

    applied = door.apply(store, merging.merge_plan(kept, dropped))

    assert (root / drop).exists()
    assert [s.path for s in applied.skipped] == [drop]
    assert "critical" in applied.skipped[0].reason
    assert no_journal(root)


# --- a row that is not a record of ours: read again, said once, never a traceback ------------


def shared_bomb() -> list[Any]:
    """Thirty levels of a list holding the level below ten times: 10**30 items when walked."""
    level: list[Any] = ["x"]
    for _ in range(30):
        level = [level] * 10
    return level


def _selfish(fields: dict[str, Any]) -> None:
    frontmatter = dict(fields["frontmatter"])
    frontmatter["self"] = frontmatter
    fields["frontmatter"] = frontmatter


def _selfish_topics(fields: dict[str, Any]) -> None:
    loop: list[Any] = []
    loop.append(loop)
    fields["topics"] = (loop,)


def _set(**values: Any) -> Change:
    def change(fields: dict[str, Any]) -> None:
        fields.update(values)

    return change


def _frontmatter(value: Any) -> Change:
    return _set(frontmatter=value)


RECORD_DAMAGE: dict[str, Change] = {
    "title-int": _set(title=7),
    "importance-int": _set(importance=5),
    "importance-word": _set(importance="urgent"),
    "critical-text": _set(critical="yes"),
    "topics-text": _set(topics="abc"),
    "topics-of-lists": _set(topics=(["a"],)),
    "date-text": _set(date="2026-01-01"),
    "frontmatter-list": _frontmatter([1, 2]),
    "frontmatter-self": _selfish,
    "topics-self": _selfish_topics,
    "frontmatter-bomb": _frontmatter({"bomb": shared_bomb()}),
    "frontmatter-bytes": _frontmatter({"b": b"raw"}),
    "negative-size": _set(size=-5),
    "negative-references": _set(reference_count=-3),
    "references-bool": _set(reference_count=True),
    "problems-text": _set(problems="bad"),
    "digest-int": _set(digest=12),
    "status-list": _set(status=["active"]),
}

SQL_DAMAGE: dict[str, str] = {
    # `{path}` is the row's path as a blob literal.
    "path-as-text": "UPDATE records SET path = CAST(path AS TEXT) WHERE path = {path}",
    "companions-as-text": "UPDATE records SET companions = 'x' WHERE path = {path}",
    "companions-self": "UPDATE records SET companions = path WHERE path = {path}",
    "garbage-record": (
        "UPDATE records SET record = CAST('{{\"json\": 1' AS BLOB) WHERE path = {path}"
    ),
    "size-text": "UPDATE records SET size = 'big' WHERE path = {path}",
    "kind-unknown": "UPDATE records SET kind = 'nonsense' WHERE path = {path}",
    "listed-refs-negative": "UPDATE listed SET refs = -4 WHERE path = {path}",
    "listed-title-int": "UPDATE listed SET title = 5 WHERE path = {path}",
    "listed-path-as-text": "UPDATE listed SET path = CAST(path AS TEXT) WHERE path = {path}",
}


def damaged_tree(tmp_path: Path, damage: str) -> tuple[Path, Path]:
    """A tree of a critical memory, an old one to prune and a task, every row damaged alike."""
    root = make_tree(
        tmp_path / "tree",
        {
            KEEP: note("Keep me.", date=OLD, importance="low", critical="true", topics="[a]"),
            OTHER: note("Prune me.", date="2026-01-02", importance="low", topics="[b]"),
            f"{TASKS}/work/status.md": note(
                "Working.", date=OLD, topics="[a]", status="active", project="work"
            ),
        },
    )
    database = catalogued(root)
    rels = [KEEP, OTHER, f"{TASKS}/work/status.md"]
    if damage in RECORD_DAMAGE:
        for rel in rels:
            rewrite(database, rel, RECORD_DAMAGE[damage])
    else:
        connection = sqlite3.connect(database)
        try:
            for rel in rels:
                blob = "X'" + rel.encode().hex() + "'"
                connection.execute(SQL_DAMAGE[damage].format(path=blob))
            connection.commit()
        finally:
            connection.close()
    return root, database


ALL_DAMAGE = [*RECORD_DAMAGE, *SQL_DAMAGE]


@pytest.mark.parametrize("damage", ALL_DAMAGE)
@pytest.mark.parametrize("command", ["review", "health", "bootstrap", "prune --yes"])
def test_an_unreadable_row_is_read_again_with_one_notice(tmp_path, capsys, damage, command):
    root, _database = damaged_tree(tmp_path, damage)
    before = (root / KEEP).read_bytes()
    capsys.readouterr()

    code = cli.main([*command.split(), str(root)])
    out, err = capsys.readouterr()

    assert code == 0, err
    assert "Traceback" not in out + err
    assert (root / KEEP).read_bytes() == before
    said = [line for line in (out + err).splitlines() if "unreadable row" in line]
    if damage.startswith("listed-"):
        assert said == []  # only the first frame reads the list rows; a scan reads the records
    else:
        assert len(said) == 1, out + err
        assert "read again from" in said[0]
    if command == "prune --yes":
        assert not (root / OTHER).exists()
        assert no_journal(root)


STAT_DAMAGE = ("size-text",)
"""Damage only a scan sees: the first frame does not look at a row's stat columns."""


@pytest.mark.parametrize("damage", ALL_DAMAGE)
def test_the_first_frame_leaves_an_unreadable_row_out_with_one_notice(tmp_path, damage) -> None:
    root, _database = damaged_tree(tmp_path, damage)
    store = Store(root, lambda: TODAY)
    first = store.listed()
    assert all(type(entry.title) is str and entry.reference_count >= 0 for entry in first.memories)
    if damage.startswith("listed-"):
        assert len(first.notices) == 1 and "unreadable row" in first.notices[0]
        assert first.memories == ()
    with Catalog.open(root) as opened:
        shown = opened.catalogued(TODAY)
        records = opened.records(None, TODAY)
        notice = opened.notice
    assert all(type(memory.critical) is bool for memory in shown)
    assert all(type(memory.title) is str for memory in records.values())
    if not damage.startswith("listed-") and damage not in STAT_DAMAGE:
        assert KEEP not in {m.path for m in shown}
        assert notice is not None and "unreadable row" in notice
    tree = store.scan()
    assert {m.path for m in tree.memories} == {KEEP, OTHER, f"{TASKS}/work/status.md"}
    assert next(m for m in tree.memories if m.path == KEEP).critical
    store.close()
    again = Store(root, lambda: TODAY).listed()  # the next start: every row written again
    assert again.notices == ()
    assert {m.path for m in again.memories} == {m.path for m in tree.memories}


def test_the_notice_counts_the_rows(tmp_path, capsys) -> None:
    root, _database = damaged_tree(tmp_path, "title-int")
    capsys.readouterr()
    assert cli.main(["review", str(root)]) == 0
    err = capsys.readouterr().err
    assert "3 unreadable rows" in err
    assert cli.main(["review", str(root)]) == 0
    assert "unreadable row" not in capsys.readouterr().err  # rebuilt from the files: nothing left


@pytest.mark.parametrize("damage", ALL_DAMAGE)
def test_search_reads_past_an_unreadable_row(tmp_path, capsys, damage) -> None:
    """A search reads only its hits' records: a row it reads is said once, and the hit is the
    file's own record."""
    root, _database = damaged_tree(tmp_path, damage)
    capsys.readouterr()
    code = cli.main(["search", "--tree", str(root), "--json", "Keep"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in out + err
    assert len([line for line in err.splitlines() if "unreadable row" in line]) <= 1
    found = json.loads(out)
    assert [hit["path"] for hit in found["hits"]][:1] == [KEEP]
    assert all(type(hit["title"]) is str for hit in found["hits"])


def test_a_skipped_step_is_named_with_what_its_file_says() -> None:
    by_rule = door.Skipped(KEEP, "is critical in its file; a critical memory is never pruned")
    by_change = door.Skipped(OTHER, door.CHANGED)
    assert curator.skipped_notice((by_change,)) == (
        "skipped 1 changed since the plan was made: 2026-01-02_other.md"
    )
    notice = curator.skipped_notice((by_rule, by_change))
    assert notice.startswith("skipped 2: 2026-01-01_keep.md is critical in its file")
    assert door.skipped_why((by_rule,)) == "whose file no longer allows it (each said above)"


def test_a_journal_keeps_the_rule_a_step_is_judged_by() -> None:
    op = plans.Operation("trash", KEEP, "old", seen="abc", recheck="prune")
    assert plans.decode(plans.encode(op)) == op
    older = {key: value for key, value in plans.encode(op).items() if key != "recheck"}
    assert plans.decode(older).recheck == ""

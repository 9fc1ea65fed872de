"""The app over a catalog whose rows are not records of ours: the first frame and the checked
tree draw without a traceback, and the rows read again are said in one warning."""

from __future__ import annotations

import pickle
import sqlite3
from pathlib import Path

from samantha_tui.core.reading import catalog as catalog_module
from samantha_tui.core.reading.catalog_codec import restricted_loads
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp

from ..conftest import make_tree

FIRST = ".ai/short-term-memory/.ai/2026-01-01_first.md"
SECOND = ".ai/short-term-memory/.ai/2026-01-02_second.md"


def memory(date: str, title: str) -> str:
    return f"---\ndate: {date}\ntopics: [a]\nimportance: low\n---\n\n# {title}\n\nBody.\n"


def spoil(database: Path) -> None:
    """Every record's frontmatter made to hold itself and its title a number, checksums right;
    every list row's title a number."""
    connection = sqlite3.connect(database)
    try:
        rows = connection.execute("SELECT path, record, body FROM records").fetchall()
        for path, record, body in rows:
            fields = dict(zip(catalog_module._PICKLED, restricted_loads(record), strict=True))
            frontmatter = dict(fields["frontmatter"])
            frontmatter["self"] = frontmatter
            fields.update(frontmatter=frontmatter, title=7)
            new = pickle.dumps(tuple(fields[name] for name in catalog_module._PICKLED))
            connection.execute(
                "UPDATE records SET record = ?, checksum = ? WHERE path = ?",
                (new, catalog_module._checksum(path, new, body), path),
            )
        connection.execute("UPDATE listed SET title = 5")
        connection.commit()
    finally:
        connection.close()


async def test_unreadable_rows_are_read_again_and_said_once(tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "tree",
        {FIRST: memory("2026-01-01", "First"), SECOND: memory("2026-01-02", "Second")},
    )
    store = Store(root)
    store.scan()
    store.close()
    folder = catalog_module.cache_folder()
    assert folder is not None
    (database,) = folder.glob("catalog-*.sqlite")
    spoil(database)
    app = SamanthaApp(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        warned = [
            entry for entry in app.notices.log.newest_first() if "unreadable row" in entry.message
        ]
        assert len(warned) == 1, [e.message for e in app.notices.log.newest_first()]
        assert len(app.table.rows) == 2  # read again from the files: nothing lost

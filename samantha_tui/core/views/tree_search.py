"""A headless search of a tree on disk that reads no more than the answer needs.

The catalog is refreshed from the files' stats (only new and changed files are read), the search
tables beside it follow its rows, and only the records of the hits shown are loaded. When the
catalog cannot be trusted to mirror the files (locked, damaged, not saved), a full scan answers,
as the search did before it had tables of its own.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..basics.model import Memory
from ..reading.catalog import Catalog, Refreshed
from ..reading.scan import refresh, scan
from .naming import Names
from .query import Query
from .search import SearchResult
from .search_store import Damaged, SearchStore, answer, drop_tables


@dataclass(frozen=True)
class Found:
    """A search's answer, the record of every hit in it, and the tree's names (which headings
    its memories share)."""

    result: SearchResult
    records: Mapping[str, Memory]
    names: Names


def answer_tree(
    root: Path, catalog: Catalog, today: dt.date, query: str | Query, limit: int | None = None
) -> Found:
    """query over the memories of the tree at root, as `SearchIndex.build(scan(...).memories,
    today).search(query, limit)` answers it, through the tree's catalog and search tables."""
    refreshed = refresh(root, today, catalog)
    following: Refreshed | None = refreshed
    if refreshed.in_step:
        for _attempt in range(2):
            try:
                store = SearchStore.open(catalog.connection, today)
                store.follow(catalog, following)
                result = store.search(query, limit)
                records = catalog.records([hit.path for hit in result.hits], today)
            except Damaged:
                drop_tables(catalog.connection)
                following = None  # its Delta is no help to tables made anew
                continue
            except sqlite3.Error:
                break
            shared = catalog.shared_titles()
            if shared is not None and all(hit.path in records for hit in result.hits):
                return Found(result, records, Names(shared))
            break  # a row went between the answer and its records: the scan settles it
    tree = scan(root, today, catalog)
    found = answer(catalog.connection, tree.memories, today, query, limit)
    records = {memory.path: memory for memory in tree.memories}
    return Found(found, records, Names.of(tree.memories))

"""Embedding vectors kept in the catalog's database, keyed by a file's digest and the model.

A vector depends only on the bytes of a file and on the model that embedded them, so it is kept
under (digest, model): a renamed or moved file keeps its vector, a changed one is embedded again,
and a vector of another model is never read as this one's. The table is made at its first use,
beside the catalog's own (whose format it does not change): a catalog made before it gains it,
and a catalog rebuilt for another version loses it with every other table. Vectors are bytes
here (float32, as the engine gives them): nothing in this room needs numpy.

Only a cache: a read that fails finds nothing, a write that fails keeps nothing; both cost only
embedding again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping

TABLE = "vectors"
_SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (digest TEXT NOT NULL, model TEXT NOT NULL,"
    " vector BLOB NOT NULL, PRIMARY KEY (digest, model)) WITHOUT ROWID"
)
_CHUNK = 500
"""Digests bound per `IN (...)` query, well under SQLite's limit on parameters."""


def read_vectors(
    connection: sqlite3.Connection, model: str, digests: Iterable[str], width: int
) -> dict[str, bytes]:
    """The kept vectors of these digests under `model`, each exactly `width` bytes (a row of
    another length is not one of ours and is left out); {} when the table cannot be read."""
    wanted = [digest for digest in dict.fromkeys(digests) if digest]
    found: dict[str, bytes] = {}
    try:
        if not _exists(connection):
            return found
        for at in range(0, len(wanted), _CHUNK):
            chunk = wanted[at : at + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows = connection.execute(
                f"SELECT digest, vector FROM {TABLE} WHERE model = ? AND digest IN ({marks})",
                (model, *chunk),
            )
            for digest, vector in rows:
                if isinstance(vector, bytes) and len(vector) == width:
                    found[digest] = vector
    except sqlite3.Error:
        return {}
    return found


def keep_vectors(
    connection: sqlite3.Connection, model: str, vectors: Mapping[str, bytes], prune: bool = True
) -> bool:
    """Keep these vectors under `model` in one transaction, dropping first (with `prune`) those
    of digests no file of the catalog holds any more; whether they were kept. Nothing is written
    while the connection is inside another's transaction (the search tables'). Pruning reads
    every record's digest (the whole records table): a caller keeping vectors a slice at a time
    prunes with its first slice only."""
    if not vectors or connection.in_transaction:
        return False
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute(_SCHEMA)
            if prune:
                connection.execute(
                    f"DELETE FROM {TABLE} WHERE digest NOT IN (SELECT digest FROM records)"
                )
            connection.executemany(
                f"INSERT OR REPLACE INTO {TABLE} (digest, model, vector) VALUES (?, ?, ?)",
                [(digest, model, vector) for digest, vector in vectors.items() if digest],
            )
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
    except sqlite3.Error:
        return False
    return True


def _exists(connection: sqlite3.Connection) -> bool:
    row = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)
    ).fetchone()
    return row is not None

"""An index step that meets another program's write patches again, over what that program wrote.

samantha-llm's worker rewrites `index.json` without taking the tree's lock. Between the index step
reading an index file and writing it, the worker may rewrite it: the write is refused as a
conflict, never made over the worker's bytes. Failing the batch there would leave every step done
and a journal blocking every later change; instead the file is read again and the patch made
again, a few times. The journal's record of the index files' old bytes follows each re-read, so
rolling the batch back puts back what the worker wrote, not the version first read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..views.indexes.plan import INDEX_JSON, INDEX_MD
from . import journal
from .atomic import ConflictError
from .store import Store

INDEX_TRIES = 5
"""Patches tried at most: a writer still at it after that many is not one that comes and goes."""

_T = TypeVar("_T")


def patching_again(
    store: Store,
    writer: journal.Writer | None,
    recorded: list[journal.Before],
    patch: Callable[[], _T],
) -> _T:
    """`patch()` (which reads the index files and writes them), run again while an index file
    it writes changed under it; the last conflict is raised after INDEX_TRIES.

    `recorded` is what `writer` journaled of the index files before the first try: the file
    another program wrote is recorded again as it now is, before the next try (and before giving
    up, so a rollback keeps that program's last write).
    """
    for tries in range(1, INDEX_TRIES + 1):
        try:
            return patch()
        except ConflictError as conflict:
            if not _is_index(conflict.path):
                raise
            if writer is not None:
                _record_again(store, writer, recorded, conflict.path)
            if tries == INDEX_TRIES:
                raise
    raise AssertionError("unreachable")  # the loop returns or raises


def _is_index(rel: str) -> bool:
    return rel.rsplit("/", 1)[-1] in (INDEX_JSON, INDEX_MD)


def _record_again(
    store: Store, writer: journal.Writer, recorded: list[journal.Before], rel: str
) -> None:
    """The journal's record of `rel`'s old bytes, replaced by its bytes now (another program's).

    Only that file: the others may already hold this step's patch, and their record must stay
    what they were before it."""
    now = journal.file_before(store.root, rel)
    for number, item in enumerate(recorded):
        if item.path == rel:
            recorded[number] = now
            break
    else:
        recorded.append(now)
    writer.indexes(recorded)

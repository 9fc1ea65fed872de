"""The index step of a one-file edit made by a store that read only that file (`set`, `unset`).

The index files are patched from themselves and the file's record before and after the edit
(views/indexes/one_memory.py). When that plan cannot be sure, the whole tree is scanned and the
indexes patched the usual way, as if the store had read everything from the start.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from ..basics.model import Kind, Memory
from ..views.indexes import IndexUpdate, kinds_affected
from ..views.indexes.one_memory import plan_edit
from ..views.indexes.scope import Scope
from .index_writes import regenerate, write_updates
from .store import Store


def narrow_enough(rel: str) -> bool:
    """Whether a store that reads only rel knows it as a scan would: a short-term file in no
    hidden folder (a scan never walks into one), so its record alone can be read."""
    if not rel.startswith(Kind.SHORT_TERM.folder + "/"):
        return False
    inside = PurePosixPath(rel.removeprefix(Kind.SHORT_TERM.folder + "/")).parts
    return bool(inside) and not any(part.startswith(".") for part in inside)


def patch_indexes(
    store: Store, touched: tuple[str, ...], previous: dict[str, Memory]
) -> Sequence[IndexUpdate]:
    """The door's index step (door.IndexStep) for an edit of one memory file."""
    updates = None
    if len(touched) == 1 and set(previous) == set(touched):
        before, after = previous[touched[0]], store.get(touched[0])
        if after is not None and before.kind is Kind.SHORT_TERM:
            updates = plan_edit(store.root, store.today(), before, after)
    if updates is not None:
        write_updates(store, updates)
        return updates
    # Not sure from the index files: read the whole tree, and patch as every change does.
    store.scan()
    scope = Scope(frozenset(touched), previous)
    return regenerate(store, kinds_affected(touched), scope=scope, explain=False)

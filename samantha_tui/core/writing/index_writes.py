"""Index files written after a change or on request: the indexes' plans (indexes/plan.py) put
on disk through the store, each file refused if it changed since it was planned."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

from ..basics.model import Kind, Memory
from ..basics.progress import report as report_progress
from ..views.indexes.drift import KindDrift
from ..views.indexes.plan import WRITING, IndexUpdate, kinds_affected, planned_by_kind
from ..views.indexes.scope import Scope
from .atomic import one_folder_sync
from .store import Store


def regenerate(
    store: Store,
    kinds: Iterable[Kind] | None = None,
    today: dt.date | None = None,
    settled: dict[Kind, KindDrift] | None = None,
    automatic: bool = False,
    explain: bool = True,
    scope: Scope | None = None,
) -> list[IndexUpdate]:
    """Patch the index files from the store's in-memory tree and write what changed, through the
    store.

    `scope` says which memories' entries follow their files (default: every memory; entries
    tied to no file are kept unless it says `remove_stale`). `automatic` (after a change, not
    asked for) leaves alone a kind whose index.json cannot be read: it may be another program's
    half-written file, or hold a person's edits to repair, so it is reported and rebuilt only on
    request; so does every patch scoped to a change's paths, asked for or not. Once every write
    landed, `settled` (when given, and only for a whole-tree scope) gets each kind's drift as it
    now is. Without `explain` the updates do not list what changed
    in the entries: only `samantha-tui index` and the `r` plan show it.
    """
    planned = planned_by_kind(store.tree, store.root, today or store.today(), kinds, explain, scope)
    if automatic or (scope is not None and scope.paths is not None):
        # A change's patch never rebuilds an index it cannot read: `health.unpatched` says so.
        planned = [kind_plan for kind_plan in planned if not kind_plan.unreadable]
    updates = [update for kind_plan in planned for update in kind_plan.updates]
    write_updates(store, updates)
    if settled is not None and (scope is None or scope.paths is None):
        for kind_plan in planned:
            kind_drift = kind_plan.drift
            settled[kind_drift.kind] = KindDrift(
                kind_drift.kind,
                kind_drift.path,
                unindexed=kind_drift.unindexed,
                kept=kind_drift.kept,
            )
    return updates


def write_updates(store: Store, updates: Iterable[IndexUpdate]) -> None:
    """Write planned index files through the store, each refused if it changed since planned."""
    files = list(updates)
    with one_folder_sync():
        for done, update in enumerate(files):
            report_progress(done, len(files), WRITING)
            # The bytes planned from are compared with the file itself: no digest of either.
            store.write_file(update.path, update.new, update.old)
    report_progress(len(files), len(files), WRITING)


def refresh(
    store: Store,
    paths: Iterable[str],
    today: dt.date | None = None,
    previous: Mapping[str, Memory] | None = None,
) -> list[IndexUpdate]:
    """After a write: patch the entries of these paths in the indexes of the kinds they feed.

    `previous` holds the records as they were before the change, so list items it took out of
    a file leave the index too.
    """
    paths = list(paths)
    kinds = kinds_affected(paths)
    if not kinds:
        return []
    scope = Scope(frozenset(paths), previous or {})
    return regenerate(store, kinds, today, scope=scope, explain=False)

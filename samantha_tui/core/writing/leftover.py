"""A journal left behind, met by the next change: finished when nothing is left to decide.

A batch whose every step ran (or was left out) and which stopped only at its index files (another
program wrote one meanwhile, the disk filled, the process was killed) has one way forward: write
its entries in the indexes. Nobody need be asked for that, so the next change of any kind, from
the app or a command, finishes it before making its own. A batch stopped between its steps is a
choice (finish it, or put every file back) and stays for the person: the refusal then names the
very commands that make it (see journal.refuse_if_pending).
"""

from __future__ import annotations

from . import journal
from .atomic import StoreError
from .store import Store


def finish_if_only_indexes(store: Store) -> str | None:
    """Finish the pending batch when only its index files are left to write; what was done, in
    one line, or None when nothing was finished (no journal, or one a person must decide on).

    Holds the tree's lock already (the door's): nothing comes between the look and the finish.
    A journal that cannot be read, one another process is running, or one whose finishing fails
    (the disk is still full) is left to the refusal, which names the command to run.
    """
    try:
        found = journal.current(store.root)
    except StoreError:
        return None
    if not isinstance(found, journal.Journal) or len(found.done) < found.total:
        return None
    from .recovery import FINISH, recover  # recovery judges steps with the door's help

    try:
        done = recover(store, FINISH)
    except StoreError:
        return None
    return f"finished the interrupted change first: {done.describe()}"

"""On start-up: whether an earlier change was interrupted, and if so the question what to do.

Looking costs one read of the journal. The dialog and the recovery itself (which bring the
writer and the indexes) are imported only when there is something to recover: almost every
start has nothing, and draws its first frame without them.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from ..core.writing import journal
from ..core.writing.atomic import StoreError

if TYPE_CHECKING:
    from .host import Host


def offer_recovery(app: Host) -> None:
    """On start-up: when a change was interrupted, ask what to do about it."""
    try:
        interrupted = journal.current(app.store.root)
    except StoreError as error:
        from .screens.refused_journal import RefusedJournalScreen

        app.push_screen(RefusedJournalScreen(str(error)))
        return
    if isinstance(interrupted, journal.InProgress):
        # A batch another process is running is not interrupted: nothing to finish or roll back.
        app.notify(in_progress_notice(interrupted), title="Change in progress", timeout=10)
        return
    if interrupted is None:
        return
    from ..core.writing.recovery import FINISH, ROLLBACK, preview
    from .screens.recover import RecoverScreen

    def chosen(choice: str | None) -> None:
        if choice in (FINISH, ROLLBACK):
            app.run_in_order(functools.partial(_recover, app, str(choice)))

    app.push_screen(RecoverScreen(interrupted, preview(app.store, interrupted)), chosen)


def in_progress_notice(found: journal.InProgress) -> str:
    """What the start-up says of a batch another process is running (its command is user text:
    the notice is shown as plain text)."""
    return (
        f"{found.describe()}; it is not interrupted, and a change made here before it is done "
        "is refused"
    )


def _recover(app: Host, mode: str) -> None:
    """In the change thread, after any change already queued: recover, then read the tree again."""
    from ..core.writing.recovery import recover
    from ..core.writing.store import Store

    # A store of its own: the app's is read by the UI meanwhile, and is read again afterwards.
    store = Store(app.store.root, app.store.today)
    try:
        done = recover(store, mode)
    except StoreError as error:
        app.call_from_thread(
            app.notify, str(error), title="Recovery stopped", severity="error", timeout=10
        )
        return
    app.call_from_thread(app.notify, done.describe(), timeout=6)
    app.call_from_thread(app.load_tree)

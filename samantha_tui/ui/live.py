"""Live files, as part of the app: the watcher, other programs' changes, and the indexes' state.

The watcher is one exclusive async worker; each burst of outside changes arrives as one batch and
is taken in by a thread worker. The indexes are shared with samantha-llm: the app's own changes
patch their entries (in the curator), other programs' changes are only shown as drift, and `r`
shows the whole plan before writing it as one undoable change. An own change whose index write met
another program's is patched again once outside changes have been quiet for INDEX_QUIET seconds.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.timer import Timer

from ..core.basics.model import short_path
from ..core.writing.atomic import ConflictError, StoreError
from .imported import class_if_imported
from .messages import Changed, ChangeRefused, FilesChanged, IndexState, while_shown
from .ordered import in_order
from .screens.live_screen import LiveScreen
from .workers import background

# The watcher (watchfiles), the confirmation and the drift panel load when first used.
if TYPE_CHECKING:
    from ..core.basics.plans import Plan
    from ..core.reading.watch import FileBatch
    from ..core.views.indexes import DriftReport
    from .host import Host
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

DRIFT_MODULE = f"{__package__}.screens.drift"

INDEX_QUIET = 1.0
"""Seconds without outside changes before a refused index patch is tried again."""


class LiveFiles(Host):
    """Mixed into SamanthaApp; uses its curator, settings and status line (listed in host.py)."""

    def init_live(self) -> None:
        self._outside_paths: set[str] = set()
        self._index_timer: Timer | None = None
        self._watch_started = False
        self.index_report: DriftReport | None = None
        """The indexes' state as last checked; None until the first check."""

    def start_watching(self) -> None:
        """Watch the tree for other programs' changes, once per session (later calls do
        nothing: a scan read again after a stop does not restart it)."""
        if self.settings.watch and not self._watch_started:
            self._watch_started = True
            self._watch()

    @background(exclusive=True, group="watch")
    async def _watch(self) -> None:
        from ..core.reading.watch import watch_tree

        try:
            async for batch in watch_tree(self.store.root):
                self.post_message(FilesChanged(batch))
        except (StoreError, OSError, RuntimeError) as error:
            # A tree folder removed or renamed ends the watch; the app goes on without it.
            self.notify(
                f"Stopped watching for outside changes ({error}); ctrl+r reads the tree again",
                severity="warning",
                timeout=10,
            )

    @while_shown
    def on_files_changed(self, message: FilesChanged) -> None:
        self._take_in_batch(message.batch)

    @in_order
    def _take_in_batch(self, batch: FileBatch) -> None:
        outcome = self.curator.absorb(batch.paths) if batch.paths else None
        if outcome is not None and (outcome.changed or batch.pending or batch.sessions):
            self.post_message(Changed(outcome, notice=False))
        elif outcome is not None and self.list_is_behind():
            # Nothing new in this burst, but the session took files in on another path (a
            # refused change re-reads its files) without the list being drawn again.
            self.post_message(Changed(outcome, notice=False))
        elif batch.pending or batch.sessions:
            self.check_indexes()
        elif batch.indexes and (kinds := self.curator.index_files_changed()):
            # Another program rewrote an index: compare those kinds again (the app's own index
            # writes come back here too, and are recognised by their bytes).
            self.check_indexes(tuple(kind.folder for kind in kinds))

    # --- indexes ---------------------------------------------------------------------------------

    def index_changed(self, message: Changed) -> None:
        """After any change: the app's own are indexed already; outside ones after a quiet spell.

        So is an own change whose indexes could not be written (another program was writing one).
        """
        outcome = message.outcome
        # Another program's change is taken in and its drift shown, never written over: the
        # indexes are shared with samantha-llm, and only the person's own changes patch them.
        self.check_indexes(outcome.changed)
        if self.curator.auto_index and message.notice and outcome.index_error:
            self._index_when_quiet(outcome.changed)

    def _index_when_quiet(self, paths: Iterable[str]) -> None:
        """Patch the entries of an own change whose index write was refused (another program
        was writing an index), once outside changes pause for INDEX_QUIET."""
        self._outside_paths.update(paths)
        if self._index_timer is not None:
            self._index_timer.stop()
        self._index_timer = self.set_timer(INDEX_QUIET, self._index_outside_changes)

    def _index_outside_changes(self) -> None:
        paths, self._outside_paths = sorted(self._outside_paths), set()
        self._regenerate(paths, quiet=True)

    def action_regenerate_indexes(self) -> None:
        self._plan_indexes(remove_stale=False)

    def action_remove_stale_entries(self) -> None:
        self._plan_indexes(remove_stale=True)

    @in_order
    def _plan_indexes(self, remove_stale: bool) -> None:
        """Work out what `r` (or `R`) would write, then ask with every change listed."""
        try:
            plan = self.curator.index_plan(remove_stale)
        except StoreError as error:
            self.post_message(IndexState(None, error=str(error)))
            return
        self.call_from_thread(self._confirm_index_plan, plan, remove_stale)

    def _confirm_index_plan(self, plan: Plan, remove_stale: bool) -> None:
        if not plan:
            said = (
                "No index entry is known only to the index: nothing to remove"
                if remove_stale
                else "The indexes are already in step with the files"
            )
            self.notify(said, timeout=4)
            return
        files = len(plan.operations)
        lines: list[str] = []
        for op in plan.operations:
            lines.append(f"{short_path(op.path)}:")
            lines += [f"  {part}" for part in op.reason.splitlines()]
        from ..core.views.indexes.index_only import removed_entries
        from .screens.confirm import ConfirmScreen

        forgotten = removed_entries(plan) if remove_stale else 0
        if forgotten:
            # No file holds these entries: a stray `y` must not decide, only the button.
            entries = "entry" if forgotten == 1 else "entries"
            title = f"Remove {forgotten} {entries} known only to the index?"
            lines += [
                "",
                "No file holds them: once removed, the assistant forgets them (u undoes this).",
                "Move to Remove (→) and press Enter, or click it; Esc keeps them.",
            ]
            label = "Remove"
        else:
            lines += [
                "",
                "Entries known only to the index are kept unless you ask (R); u undoes this.",
            ]
            title = f"Write {files} index file{'s' if files != 1 else ''}?"
            label = "Write"

        def answered(confirmed: bool | None) -> None:
            if confirmed:
                self._write_index_plan(plan)

        dialog = ConfirmScreen(
            title, lines, confirm_label=label, danger=remove_stale, button_only=bool(forgotten)
        )
        self.push_screen(dialog, answered)

    @in_order
    def _write_index_plan(self, plan: Plan) -> None:
        try:
            outcome = self.curator.apply_index_plan(plan)
        except StoreError as error:
            self.post_message(ChangeRefused(str(error)))
            return
        self.post_message(Changed(outcome))

    @in_order
    def _regenerate(self, paths: list[str] | None, quiet: bool) -> None:
        """Patch the entries of these paths again (an own change whose index write failed)."""
        self.post_message(IndexState(None, busy=True))
        try:
            self.curator.reindex(paths, automatic=quiet)
        except ConflictError:
            # Another program rewrote an index while this one was made (samantha-llm's worker
            # does after each session): nothing was written; try again once it is quiet.
            self.call_from_thread(self._index_when_quiet, paths or ())
            self._post_drift(paths)
            return
        except StoreError as error:
            self.post_message(IndexState(None, error=str(error)))
            return
        self._post_drift(paths)

    @in_order
    def check_indexes(self, paths: tuple[str, ...] | None = None) -> None:
        """Compare the indexes with the files again: the kinds `paths` feed, or all of them."""
        self._post_drift(paths)

    def _post_drift(self, paths: Iterable[str] | None) -> None:
        try:
            report = self.curator.drift(paths)
        except StoreError as error:
            self.post_message(IndexState(None, error=str(error)))
            return
        if paths is None:
            # A whole check leaves every kind's index read and kept (hundreds of thousands of
            # objects at 100,000 memories, made after the tree and search index were frozen):
            # left to the collector, each full collection walked them all, 0.2-0.9 s, about once
            # a second while a key was held. Frozen, they are skipped until the next load.
            gc.freeze()
        self.post_message(IndexState(report))

    @while_shown
    def on_index_state(self, message: IndexState) -> None:
        self.index_report = message.report
        self.status_line.show_index(message.report, message.busy, message.error)
        if message.report is not None:
            self.health_soon(message.report)
            drift_screen = class_if_imported(DRIFT_MODULE, "DriftScreen")
            shown = (LiveScreen,) if drift_screen is None else (LiveScreen, drift_screen)
            for screen in self.screen_stack:
                if isinstance(screen, shown):
                    screen.indexes_checked(message.report)

    def action_show_drift(self) -> None:
        """`i`: the drift report in a panel that stays until closed."""
        report = self.index_report
        if report is None:
            self.notify("The indexes are still being checked", timeout=3)
            return
        if not report.drifted:
            self.notify("Every index file matches the memory files", timeout=4)
            return
        from .screens.drift import DriftScreen

        if not isinstance(self.screen, DriftScreen):
            self.push_screen(DriftScreen(report))

"""Live files, as part of the app: the watcher, other programs' changes, and the indexes' state.

The watcher is one exclusive async worker; each burst of outside changes arrives as one batch and
is taken in by a thread worker. The indexes are regenerated after the app's own changes by the
curator, and after outside changes once they have been quiet for INDEX_QUIET seconds: an assistant
writing several files (and maybe its own index) should not race a regeneration per file. A
regeneration that meets another program's index write is tried again after the next quiet spell.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual import work
from textual.timer import Timer

from ..core.atomic import ConflictError, StoreError
from ..core.indexes import DriftReport
from ..core.watch import FileBatch, watch_tree
from .messages import Changed, FilesChanged, IndexState, while_shown
from .ordered import in_order
from .screens.live_screen import LiveScreen

INDEX_QUIET = 1.0
"""Seconds without outside changes before the indexes they touched are regenerated."""
DRIFT_LINES_SHOWN = 12


class LiveFiles:
    """Mixed into SamanthaApp; uses its curator, settings and status line (see app.py)."""

    def init_live(self) -> None:
        self._outside_paths: set[str] = set()
        self._index_timer: Timer | None = None
        self.index_report: DriftReport | None = None
        """The indexes' state as last checked; None until the first check."""

    def start_watching(self) -> None:
        if self.settings.watch:
            self._watch()

    @work(exclusive=True, group="watch")
    async def _watch(self) -> None:
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
        if message.notice or not self.curator.auto_index:
            self.check_indexes(outcome.changed)
        if self.curator.auto_index and (not message.notice or outcome.index_error):
            self._index_when_quiet(outcome.changed)

    def _index_when_quiet(self, paths: Iterable[str]) -> None:
        """Regenerate the indexes these paths feed once outside changes pause for INDEX_QUIET."""
        self._outside_paths.update(paths)
        if self._index_timer is not None:
            self._index_timer.stop()
        self._index_timer = self.set_timer(INDEX_QUIET, self._index_outside_changes)

    def _index_outside_changes(self) -> None:
        paths, self._outside_paths = sorted(self._outside_paths), set()
        self._regenerate(paths, quiet=True)

    def action_regenerate_indexes(self) -> None:
        self._regenerate(None, quiet=False)

    @in_order
    def _regenerate(self, paths: list[str] | None, quiet: bool) -> None:
        self.post_message(IndexState(None, busy=True))
        try:
            # Quiet runs follow outside changes; only `r` rebuilds an index.json that is not JSON.
            updates = self.curator.reindex(paths, automatic=quiet)
        except ConflictError as error:
            if not quiet:
                self.post_message(IndexState(None, error=str(error)))
                return
            # Another program rewrote an index while this one was made (samantha-llm's worker
            # does after each session): nothing was written; try again once it is quiet.
            self.call_from_thread(self._index_when_quiet, paths or ())
            self._post_drift(paths)
            return
        except StoreError as error:
            self.post_message(IndexState(None, error=str(error)))
            return
        if not quiet:
            files = len(updates)
            said = f"Rewrote {files} index file{'s' if files != 1 else ''}" if files else ""
            self.call_from_thread(self.notify, said or "The indexes were already up to date")
        self._post_drift(paths)

    @in_order
    def check_indexes(self, paths: tuple[str, ...] | None = None) -> None:
        """Compare the indexes with the files again: the kinds `paths` feed, or all of them."""
        self._post_drift(paths)

    def _post_drift(self, paths: Iterable[str] | None) -> None:
        try:
            self.post_message(IndexState(self.curator.drift(paths)))
        except StoreError as error:
            self.post_message(IndexState(None, error=str(error)))

    @while_shown
    def on_index_state(self, message: IndexState) -> None:
        self.index_report = message.report
        self.status_line.show_index(message.report, message.busy, message.error)
        if message.report is not None:
            for screen in self.screen_stack:
                if isinstance(screen, LiveScreen):
                    screen.indexes_checked(message.report)

    def action_show_drift(self) -> None:
        report = self.index_report
        if report is None:
            self.notify("The indexes are still being checked", timeout=3)
            return
        if not report.drifted:
            self.notify("Every index file matches the memory files", timeout=4)
            return
        lines = report.lines()
        shown = lines[:DRIFT_LINES_SHOWN]
        if len(lines) > DRIFT_LINES_SHOWN:
            shown.append(f"… {len(lines) - DRIFT_LINES_SHOWN} more: samantha-tui index --check")
        self.notify("\n".join(shown), title="Index drift · r regenerates", timeout=15)

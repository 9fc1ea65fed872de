"""The curator's Textual app: tabs per memory kind, a list, a preview and a status line.

The app is assembled from parts, each in its own module: key bursts (keys held while focus moves),
marking (marks per tab and what they act on), searching (the `/` box and the jump palette),
sorting (each tab's order), editing (every change a person makes, undo, redo and conflicts),
reading (the reader, copy path, open folder), live files (the watcher and the indexes' state),
work progress and the ordered queue of changes. This module keeps the session (the tree, each
tab's selection), loads the tree and handles changes; the main screen (screens/main.py) is its
default screen and draws the list, the search box and the preview.
"""

from __future__ import annotations

import datetime as dt
import gc
import importlib
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from textual import actions, on
from textual.actions import ActionParseResult
from textual.app import App, SystemCommand
from textual.css.query import NoMatches
from textual.dom import DOMNode
from textual.events import Resize
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Tabs
from textual.worker import Worker, WorkerState

from ..core.basics import clock
from ..core.basics.model import Kind, Listed, Memory, Tree
from ..core.writing.curator import Curator
from ..core.writing.store import Store
from ..settings import Settings, load_settings
from . import keys, layout, notices, quit_hint
from .editing import Editing
from .health import Health
from .imported import class_if_imported
from .jump import CommandsProvider, open_command_palette, open_theme_palette
from .key_burst import KeyBurst
from .live import LiveFiles
from .marking import Marking
from .messages import (
    Changed,
    ChangeRefused,
    TreeCatalogued,
    TreeLoaded,
    WatchNow,
    WorkFailed,
    while_shown,
)
from .ordered import OrderedWork
from .reading import Reading
from .recovery_offer import offer_recovery
from .screens.live_screen import LiveScreen
from .screens.main import MainScreen
from .searching import Searching
from .sort_order import Sorting
from .tabs import TABS, TabSpec
from .visible_text import ControlCharacterFilter, visible, visible_lines
from .widgets.memory_table import MemoryTable
from .widgets.preview import Preview
from .widgets.search_bar import SearchBar
from .widgets.status_line import StatusLine
from .work_progress import WorkProgressing
from .workers import background, describe_worker, failure_notice, formatted_traceback


class SamanthaApp(
    KeyBurst,
    Marking,
    Searching,
    Sorting,
    Editing,
    Reading,
    LiveFiles,
    Health,
    WorkProgressing,
    OrderedWork,
    App[None],
):
    """Browse and curate a samantha-llm memory tree."""

    CSS_PATH = "app.tcss"
    HORIZONTAL_BREAKPOINTS = layout.BREAKPOINTS
    TITLE = "samantha-tui"
    COMMANDS = {CommandsProvider}
    BINDINGS = keys.bindings()

    def __init__(
        self,
        root: Path,
        today: Callable[[], dt.date] = clock.today,
        settings: Settings | None = None,
    ) -> None:
        super().__init__()
        if settings is None:
            settings, self._setting_messages = load_settings()
        else:
            self._setting_messages = []
        self.settings = settings
        self.store = Store(root, today)
        self.curator = Curator(self.store, auto_index=settings.auto_index)
        self.memory_tree: Tree[Memory] | Tree[Listed] | None = None
        """The tree listed: the checked one, or while checking the catalog's list entries."""
        self.checking: int | None = None
        """While the list shows the catalog's entries: how many files the scan is checking."""
        self._catalogued: dict[str, Listed] = {}
        self._catalogued_records: dict[str, Memory | None] = {}
        """While checking: the records loaded from the catalog for the preview and the reader."""
        self._waiting: list[tuple[str, tuple[object, ...]]] = []
        """Actions asked for while the files were checked, run in order once they are."""
        self._notices_shown: set[str] = set()
        self.current_tab = TABS[0].id
        self._selection: dict[str, str | None] = {}
        self.init_key_burst()
        self.init_searching()
        self.init_sorting()
        self.init_marking()
        self.init_ordered()
        self.init_live()
        self.init_health()
        self.init_work_progress()
        self._control_filter = ControlCharacterFilter()
        self.notices = notices.Notices(self)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the guard that keeps tree text's control characters (ESC,
        OSC, C1, bidi overrides) from ever reaching the terminal, whichever widget painted them."""
        return [*super().get_line_filters(), self._control_filter]

    # --- the main screen -------------------------------------------------------------------------

    def get_default_screen(self) -> MainScreen:
        """The list, its search and the preview (ui/screens/main.py): the app composes nothing."""
        return MainScreen()

    @property
    def main(self) -> MainScreen:
        """The main screen, at the bottom of the stack whatever is open over it."""
        stack = self.screen_stack
        if not stack or not isinstance(stack[0], MainScreen):
            raise NoMatches("the main screen has gone (the app is closing)")
        return stack[0]

    @property
    def table(self) -> MemoryTable:
        return self.main.table

    @property
    def preview(self) -> Preview:
        return self.main.preview

    @property
    def status_line(self) -> StatusLine:
        return self.main.status_line

    @property
    def search_bar(self) -> SearchBar:
        return self.main.search_bar

    def show_list(self) -> None:
        self.main.show_list()

    def label_tabs(self, width: int | None = None) -> None:
        self.main.label_tabs(width)

    def mark_empty_tabs(self, counts: Mapping[str, int] | None) -> None:
        self.main.mark_empty_tabs(counts)

    def start_session(self) -> None:
        """The main screen is up: settings, the last run's state, then read and watch the tree."""
        self._apply_settings()
        self.restore_state()
        self.load_tree()  # the watcher starts once the first list is on screen
        offer_recovery(self)  # reads only: nothing is written until the person chooses

    def _apply_settings(self) -> None:
        for message in self._setting_messages:
            self.notify(message, title="Settings", severity="warning", timeout=10)
        if self.settings.theme:
            if self.settings.theme in self.available_themes:
                self.theme = self.settings.theme
            else:
                self.notify(
                    f"theme {self.settings.theme!r} in {self.settings.path} is not a theme; "
                    f"choose one of {', '.join(sorted(self.available_themes))}",
                    title="Settings",
                    severity="warning",
                    timeout=10,
                )
        wanted = dict(self.settings.keys)
        # Textual applies the keymap to every screen and widget as it opens; an id nothing
        # binds does nothing there. The app's own ids are known at once, the screens' only by
        # loading them: that waits for the first frame.
        self.set_keymap(wanted)
        if set(wanted) - keys.known_ids():
            self.call_after_refresh(self._report_unknown_key_ids, sorted(wanted))
        if wanted:
            self.call_after_refresh(self._report_key_clashes, wanted)

    def _report_key_clashes(self, wanted: dict[str, str]) -> None:
        """Where the keymap gives one key to two things a screen over the list does (the
        bootstrap preview's own keys and the app's), say which one it does there."""
        from .screens.bootstrap import BootstrapScreen

        found = keys.screen_keys(BootstrapScreen, wanted)
        lines = keys.clash_lines(BootstrapScreen, found, wanted)
        if lines:
            self.notify(
                f"{self.settings.path}: on the {BootstrapScreen.HELP_TITLE.lower()}, "
                + "; ".join(lines),
                title="Settings",
                severity="warning",
                timeout=10,
                markup=False,
            )

    def _report_unknown_key_ids(self, wanted: list[str]) -> None:
        known = keys.every_binding_id()
        unknown = [binding_id for binding_id in wanted if binding_id not in known]
        if unknown:
            self.notify(
                f"{self.settings.path}: no action has the id {', '.join(unknown)}; "
                "the ids are listed in the README (Settings)",
                title="Settings",
                severity="warning",
                timeout=10,
            )

    # --- data ------------------------------------------------------------------------------------

    def load_tree(self) -> None:
        """Read the tree in a worker. The first time, the catalog's records are drawn at once and
        the scan then checks them against the files (ctrl+r and a recovery read only the files)."""
        self._load_tree(self.memory_tree is None and self.checking is None)

    @background(thread=True, exclusive=True, group="scan")
    def _load_tree(self, catalogued_first: bool) -> None:
        gc.unfreeze()  # a tree read before (ctrl+r) may be collected once replaced
        if catalogued_first:
            listed = self.store.listed()  # no memory file is opened, no record loaded
            if listed.memories:
                drawn = threading.Event()
                self.post_message(TreeCatalogued(listed, drawn))
                # The scan is CPU-bound: started at once, it shares the interpreter with drawing
                # the frame and delays it by about its own length. It waits for the frame.
                drawn.wait(FIRST_FRAME_WAIT)
            else:
                self.post_message(WatchNow())  # nothing to draw first: watch during the scan
        with self.work_progress():
            tree = self.curator.load()
        # The records live as long as the tree. Frozen now, the collector's first full pass does
        # not walk them all while the first frame is drawn (0.3 s at 10,000 memories).
        gc.freeze()
        self.post_message(TreeLoaded(tree))

    @on(TreeCatalogued)
    @while_shown
    def _tree_catalogued(self, message: TreeCatalogued) -> None:
        tree = message.memory_tree
        self._catalogued = {entry.path: entry for entry in tree.memories}
        self.memory_tree = tree
        self.checking = len(tree.memories)
        self.label_tabs()
        self.status_line.show_tree(tree, self.store.root)
        self.status_line.show_checking(self.checking)
        self.show_list()
        self._show_notices(tree)
        self.call_after_refresh(self._first_list_drawn, message.drawn)

    def _first_list_drawn(self, drawn: threading.Event) -> None:
        """The catalog's list is on screen: the watcher starts (its import and setup would have
        delayed that frame), then the scan that checks the list against the files."""
        self.start_watching()
        drawn.set()

    @on(WatchNow)
    def _watch_now(self) -> None:
        self.start_watching()

    @on(TreeLoaded)
    @while_shown
    def _tree_loaded(self, message: TreeLoaded) -> None:
        self.memory_tree = message.memory_tree
        if self.checking is not None:
            self.checking, self._catalogued, self._catalogued_records = None, {}, {}
            self.store.forget_catalogued()
            self.status_line.show_checking(None)
        self.show_tree()
        self._show_notices(message.memory_tree)
        self.call_after_refresh(self._run_waiting)

    async def _run_waiting(self) -> None:
        """The keys pressed while the files were checked, in order, on the checked records; each
        still only where it may run then (a form the first opened keeps the others out)."""
        waiting, self._waiting = self._waiting, []
        for name, params in waiting:
            if self.check_action(name, params):
                await super().run_action((APP_NAMESPACE, name, params), self)
        self.screens_see_changes(())
        # Search and the index check are CPU-bound threads: started before the filled list is on
        # screen, they would share the interpreter with drawing it and delay it.
        self.call_after_refresh(self._index_tree)

    def _index_tree(self) -> None:
        self.build_search_index()
        self.check_indexes()

    def _show_notices(self, tree: Tree) -> None:
        """What the catalog had to say (rebuilt, bypassed, locked), once per session each."""
        for notice in tree.notices:
            if notice not in self._notices_shown:
                self._notices_shown.add(notice)
                self.notify(notice, title="Catalog", severity="warning", timeout=10)

    def show_tree(self, changed: Iterable[str] = (), select: str | None = None) -> None:
        """Show the store's tree again: counts, status, the list (selection kept), the preview."""
        if self.checking is not None:
            return  # the catalog's records stay on screen until the checked tree replaces them
        self.memory_tree = self.curator.tree
        self.label_tabs()
        self.status_line.show_tree(self.memory_tree, self.store.root)
        if select is not None:
            self._selection[self.current_tab] = select
        before = self.table.selected_key
        self.show_list()
        self.drop_vanished_marks()
        if self.table.selected_key == before and before is not None:
            path = before.split("#", 1)[0]
            if path in set(changed):
                self.call_later(self.main.show_preview, before)

    def list_is_behind(self) -> bool:
        """Whether the session's records changed since the list was last drawn from them (safe
        to ask from the change thread: it compares two references)."""
        tree = self.memory_tree
        return self.checking is None and tree is not None and tree is not self.curator.tree

    def on_resize(self, event: Resize) -> None:
        # The app's own size is set after this handler runs: the event has the new one.
        self.label_tabs(event.size.width)

    def spec(self, tab_id: str | None = None) -> TabSpec:
        wanted = tab_id or self.current_tab
        return next(spec for spec in TABS if spec.id == wanted)

    def memory_for(self, key: str | None) -> Memory | None:
        if not key:
            return None
        path = key.split("#", 1)[0]
        return self.curator.get(path) or self._catalogued_record(path)

    def _catalogued_record(self, path: str) -> Memory | None:
        """While checking: the record of a listed memory, loaded from the catalog when first
        previewed or read (the list itself holds only entries)."""
        if path not in self._catalogued:
            return None
        if path not in self._catalogued_records:
            if len(self._catalogued_records) >= CATALOGUED_RECORDS_KEPT:
                self._catalogued_records.pop(next(iter(self._catalogued_records)))
            self._catalogued_records[path] = self.store.record_as_catalogued(path)
        return self._catalogued_records[path]

    def selected_memory(self) -> Memory | None:
        return self.memory_for(self.table.selected_key)

    def remember_selection(self, key: str) -> None:
        """The current tab's cursor is on `key` (kept while another tab is shown)."""
        self._selection[self.current_tab] = key

    # --- changes ---------------------------------------------------------------------------------

    @on(Changed)
    @while_shown
    def _changed(self, message: Changed) -> None:
        outcome = message.outcome
        self.show_tree(outcome.changed, message.select)
        self.screens_see_changes(outcome.changed)
        if message.landed_only:
            return  # the notice and the index check come with the whole outcome
        if message.notice:
            lines = [outcome.message]
            if outcome.index_error:
                lines.append(f"index not updated: {outcome.index_error}")
            elif outcome.indexes:
                lines.append("index updated")
            self.notify(
                " · ".join(lines),
                severity="warning" if outcome.index_error or outcome.skipped else "information",
                timeout=4,
                kind="change",
            )
        self.after_change(message)

    @on(ChangeRefused)
    @while_shown
    def _refused(self, message: ChangeRefused) -> None:
        self.notify(message.message, title="Nothing was written", severity="error", timeout=8)

    # --- failures nobody expected ---------------------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one handler of every worker's failure, the app's and its screens' (messages
        bubble here): say what failed and keep the app open (see workers.py)."""
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            self.post_message(WorkFailed(describe_worker(event.worker), event.worker.error))

    def job_context(self) -> AbstractContextManager[None]:
        """Every queued change shows its progress once it is slow (see work_progress.py)."""
        return self.work_progress()

    def job_failed(self, error: Exception) -> None:
        """A queued change raised (see ordered.py): reported like any worker's failure."""
        self.post_message(WorkFailed("A change", error))

    @on(WorkFailed)
    def _work_failed(self, message: WorkFailed) -> None:
        self.log.error(formatted_traceback(message.error))
        notice = failure_notice(message.what, message.error)
        self.notify(notice, title="Something went wrong", severity="error", timeout=12)

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Every key and palette command comes here. While the files are still being checked,
        what would write, open a form or open a screen waits for the checked records (it would
        act on records the check may replace) and then runs, and the status line says why;
        moving, reading and searching go on at once (a query typed meanwhile runs once the
        checked tree is indexed)."""
        if self.checking is not None and default_namespace in (None, self, self.screen_stack[0]):
            namespace, name, params = actions.parse(action) if isinstance(action, str) else action
            if namespace in ("", APP_NAMESPACE) and name in WAIT_FOR_CHECK:
                self._waiting.append((name, params))
                self.notify(
                    f"The files are still being checked ({self.checking:,}); "
                    "this runs as soon as they are",
                    title="Checking",
                    timeout=3,
                    kind="checking",
                )
                return True
        return await super().run_action(action, default_namespace, namespaces)

    def action_command_palette(self) -> None:
        open_command_palette(self)

    def search_themes(self) -> None:
        open_theme_palette(self)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
        kind: str | None = None,
    ) -> None:
        """Show a notice as plain text, whatever the caller asks: notices name memories, and a
        title or file name like `[bold]x[/]` must show as typed (as markup, `[/]` would raise).

        A notice of the same `kind` as one on screen replaces it (see notices.py)."""
        message, title = visible_lines(message), visible(title)
        shown = notices.notification(
            message, title, severity, self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        )
        # Posted, not shown here: notify may be called from a worker's thread.
        self.post_message(notices.Raised(kind or notices.kind_of(message, title), shown))

    @on(notices.Raised)
    def _notice_raised(self, message: notices.Raised) -> None:
        self.notices.show(message.kind, message.notification)
        log_screen = class_if_imported(NOTICES_MODULE, "NoticesScreen")
        for screen in self.screen_stack:
            if log_screen is not None and isinstance(screen, log_screen):
                screen.show_log()

    def action_open_notices(self) -> None:
        """`N`: this session's notices, newest first; pressing it there again does nothing."""
        from .screens.notices import NoticesScreen

        if not isinstance(self.screen, NoticesScreen):
            self.push_screen(NoticesScreen(self.notices.log))

    def clear_notifications(self) -> None:
        super().clear_notifications()
        self.notices.clear()

    def action_help_quit(self) -> None:
        """ctrl+c: say which key quits, the key in bold. Content's own markup goes to Textual's
        notify, so nothing typed reaches the screen as markup and no bracket shows as text."""
        key = quit_hint.quit_key(self.active_bindings)
        if key is not None:
            super().notify(quit_hint.quit_hint(key).markup, title=quit_hint.TITLE, markup=True)

    # --- actions ---------------------------------------------------------------------------------

    def tab_shown(self, tab_id: str) -> None:
        """The main screen shows the tab `tab_id` now: its marks, search results and list."""
        left, self.current_tab = self.current_tab, tab_id
        if left != self.current_tab:
            self.switch_marks(left, self.current_tab)
        self.search_tab_shown()
        self.show_list()
        self.save_state()

    def action_show_tab(self, tab_id: str) -> None:
        self.query_one("#tabs", Tabs).active = tab_id
        self.table.focus()

    def tab_of(self, kind: Kind) -> str:
        return next(spec.id for spec in TABS if spec.kind is kind)

    def action_reload(self) -> None:
        self.load_tree()
        self.notify("Reading the tree again", timeout=2)

    def action_open_screen(self, name: str) -> None:
        """Open a review screen over the list; pressing its key again where it is does nothing."""
        screen_class = screen_named(name)
        if isinstance(self.screen, screen_class):
            return
        if self.memory_tree is None:
            self.notify("Still reading the tree", timeout=2)
            return
        self.push_screen(screen_class())

    def action_open_health(self) -> None:
        """`H`: the review, on its Health section (from the review itself: that section)."""
        from .screens.review import HEALTH, ReviewScreen

        if isinstance(self.screen, ReviewScreen):
            self.screen.show_section(HEALTH)
            return
        if self.memory_tree is None:
            self.notify("Still reading the tree", timeout=2)
            return
        self.push_screen(ReviewScreen(HEALTH))

    def action_help(self) -> None:
        """`?`/F1: the help of the screen the person is on (the main list's where it has none)."""
        from .screens import help as help_screen

        if isinstance(self.screen, help_screen.HelpScreen):
            return
        spec = self.spec()
        main = help_screen.main_page(spec.id, spec.label, self._help_rows(), keys.bound(self.table))
        screen = self.screen
        page = main if screen is self.screen_stack[0] else help_screen.screen_page(screen, main)
        self.push_screen(help_screen.HelpScreen(page))

    def _help_rows(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The app's keys by what they act on, as Textual binds them (the keymap applied)."""
        sections: dict[str, list[tuple[str, str]]] = {}
        for found in keys.app_keys_bound(self.main, self):
            sections.setdefault(keys.section(found.id), []).append(
                (found.shown, found.binding.description)
            )
        return list(sections.items())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The main screen's keys are in no other screen's binding chain, but the palette and
        # the waiting keys run their actions here too: over another screen they do nothing.
        if not self.form_allows(action):
            return False
        if action == "clear_marks":
            # Only while it is what Esc does; else Esc means escape_list's first steps.
            return len(self.screen_stack) == 1 and self.escape_unmarks()
        return action not in keys.MAIN_SCREEN_ACTIONS or len(self.screen_stack) == 1

    def get_system_commands(self, screen: Screen) -> Iterator[SystemCommand]:
        for key in keys.APP_KEYS:
            if key.palette:
                yield SystemCommand(key.palette, key.help, self._runner(key.action))
        yield SystemCommand("theme: change", "Pick another colour theme", self.action_change_theme)
        yield from textual_commands(super().get_system_commands(screen))

    def command_aliases(self) -> dict[str, tuple[str, ...]]:
        """Palette name -> the other words that find it (see jump.CommandsProvider)."""
        return {key.palette: key.aliases for key in keys.APP_KEYS if key.palette}

    def _runner(self, action: str) -> Callable[[], object]:
        async def run() -> None:
            await self.run_action(action)

        return run


# Textual's own palette commands, namespaced like the app's; its Theme and Quit are the app's.
TEXTUAL_COMMANDS = {
    "Keys": "view: keys panel",
    "Maximize": "view: maximize the focused pane",
    "Minimize": "view: restore the maximized pane",
    "Screenshot": "app: screenshot",
}
TEXTUAL_ALIASES = ("Theme", "Quit")


def textual_commands(commands: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Textual's system commands kept, renamed into the app's namespaces."""
    for command in commands:
        if command.title not in TEXTUAL_ALIASES:
            title = TEXTUAL_COMMANDS.get(command.title, f"app: {command.title.lower()}")
            yield command._replace(title=title)


NOTICES_MODULE = f"{__package__}.screens.notices"

# Imported on first use: together they cost about a tenth of start-up, before the first frame.
SCREENS: dict[str, tuple[str, str]] = {
    "bootstrap": ("bootstrap", "BootstrapScreen"),
    "review": ("review", "ReviewScreen"),
    "trash": ("trash", "TrashScreen"),
    "stats": ("stats", "StatsScreen"),
}


def screen_named(name: str) -> type[LiveScreen]:
    """The screen class opened by `open_screen(name)`."""
    module, class_name = SCREENS[name]
    return getattr(importlib.import_module(f".screens.{module}", __package__), class_name)


APP_NAMESPACE = "app"
FIRST_FRAME_WAIT = 2.0
"""Seconds the scan waits at most for the catalog's entries to be on screen (a busy machine)."""
CATALOGUED_RECORDS_KEPT = 64
"""Records loaded from the catalog while checking, kept for paging back and forth over them."""

WAIT_FOR_CHECK = frozenset(
    {
        "toggle_critical",
        "step_importance",
        "edit",
        "new_memory",
        "delete",
        "undo",
        "redo",
        "fix_problem",
        "regenerate_indexes",
        "remove_stale_entries",
        "open_editor",
        "open_screen",
        "open_health",
        "reload",
    }
)
"""App actions held, with a notice, while the list shows records the scan has not checked."""

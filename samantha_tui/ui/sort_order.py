"""Sorting, as part of the app: each tab's order (`S` and header clicks) and the state file.

Each tab keeps its own order for the whole run and across runs (see state_file.py). A search lists
its results best match first; once a person picks an order during a search, the results follow
that order until the search is cleared.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from textual.theme import Theme

from ..core.basics.model import Memory
from ..core.basics.sorting import FIELDS_BY_ID, SortField, SortOrder
from . import rows, state_file
from .tabs import TABS
from .widgets.memory_table import MemoryTable

if TYPE_CHECKING:
    from .host import Host
    from .rows import Spans
    from .tabs import TabSpec
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

UNSORTED = ("problems",)
"""Tabs listed in the order their problems were found: file by file, line by line."""


class Sorting(Host):
    """Mixed into SamanthaApp; uses its table, tabs, settings and list (listed in host.py)."""

    def init_sorting(self) -> None:
        self._sorts: dict[str, SortOrder] = {}
        self._sorted_in_search = False
        """A person picked an order during the current search: its results follow it."""
        self._state_path = state_file.state_path()
        self._saved = state_file.AppState()
        self._state_writable = True
        self._picked_theme: str | None = None

    # --- each tab's order ------------------------------------------------------------------------

    def tab_order(self, spec: TabSpec) -> SortOrder:
        """The order the tab's list is in: the person's choice, else the kind's default."""
        return self._sorts.get(spec.id) or rows.default_order(spec.kind)

    def action_sort_menu(self) -> None:
        if len(self.screen_stack) > 1:
            return  # the list's key: on a screen above the list it means nothing
        spec = self.spec()
        if spec.id in UNSORTED:
            self.notify("Problems are listed file by file, in line order", timeout=3)
            return
        from .sort_menu import SortMenu  # imported when first opened

        self.push_screen(SortMenu(spec.label, self.tab_order(spec)), self.sort_by)

    def sort_by(self, field: SortField | None) -> None:
        """Sort the current tab by `field`: the current field again flips the direction."""
        if field is None or self.memory_tree is None:
            return
        spec = self.spec()
        if spec.id in UNSORTED:
            return
        self._sorts[spec.id] = self.tab_order(spec).picked(field)
        if self._results is not None:
            self._sorted_in_search = True
        self.show_list()
        self.save_state()

    def on_memory_table_header_clicked(self, message: MemoryTable.HeaderClicked) -> None:
        # By name, not @on: Textual collects @on handlers only from its own classes' bodies.
        if message.table.id != "memories":
            return
        field = FIELDS_BY_ID.get(message.column.sort or "")
        if field is not None:
            self.sort_by(field)

    def sorted_hits(
        self, spec: TabSpec, found: list[Memory], spans: list[Spans]
    ) -> tuple[list[Memory], list[Spans]]:
        """A search's results best first, or in the tab's order once one was picked in it."""
        if not self._sorted_in_search:
            return found, spans
        by_path = dict(zip((m.path for m in found), spans, strict=True))
        ordered = rows.sort_memories(spec.kind, found, self.tab_order(spec))
        return ordered, [by_path[m.path] for m in ordered]

    def show_sort_of(self, spec: TabSpec, searching: bool) -> None:
        """Mark the sorted column's header (none for a search in relevance order)."""
        if not searching:
            self._sorted_in_search = False
        if spec.id in UNSORTED or (searching and not self._sorted_in_search):
            self.table.show_sort(None)
            return
        order = self.tab_order(spec)
        self.table.show_sort(order.field.id, order.descending)

    # --- across runs -----------------------------------------------------------------------------

    @property
    def _tree_key(self) -> str:
        """The open tree as the state file keys its tab: the root with every link resolved."""
        return os.path.realpath(self.store.root)

    def restore_state(self) -> None:
        """Take the last run's tab, theme and sorts in (after the settings' theme is applied)."""
        loaded = state_file.load_state(self._state_path)
        self._state_writable = loaded.writable
        if loaded.message:
            self.notify(loaded.message, title="State", severity="warning", timeout=10)
        state = loaded.state
        self._saved = state
        tab_ids = {spec.id for spec in TABS}
        self._sorts = {
            tab: order
            for tab, order in state.sorts.items()
            if tab in tab_ids and tab not in UNSORTED
        }
        if (
            state.theme
            and state.theme_setting == self.settings.theme
            and state.theme in self.available_themes
        ):
            self.theme = state.theme
        tab = state.tab_of(self._tree_key)
        if tab in tab_ids and tab != self.current_tab:
            self.action_show_tab(tab)
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, theme: Theme) -> None:
        # Every change of theme after start-up is the person's (the theme palette); the one
        # the settings file or the last run asked for is the same as the state's, so no write.
        self._picked_theme = theme.name
        self.save_state()

    def save_state(self) -> None:
        """Write the tab, theme and sorts if they changed since the last write."""
        if not self._state_writable:
            return
        theme, theme_setting = self._saved.theme, self._saved.theme_setting
        if self._picked_theme is not None:
            theme, theme_setting = self._picked_theme, self.settings.theme
        state = state_file.AppState(
            last_tab=self._saved.last_tab,
            theme=theme,
            theme_setting=theme_setting,
            sorts=dict(sorted(self._sorts.items())),
            last_tabs=self._saved.last_tabs,
        )
        if state.tab_of(self._tree_key) != self.current_tab:
            state = state.with_tab(self._tree_key, self.current_tab)
        if state == self._saved:
            return
        problem = state_file.save_state(self._state_path, state)
        if problem:
            self._state_writable = False  # said once; this run goes on without it
            self.notify(problem, title="State", severity="warning", timeout=10)
            return
        self._saved = state

"""Searching, as part of the app: the `/` box over the list and the `ctrl+k` jump palette.

A query runs over every memory in a worker thread; each tab shows the hits of its own kind (the
Critical and Problems tabs show hits of every kind). A newer keystroke replaces the running search,
and results that arrive for an older query are dropped, so typing never waits on a search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.widgets import Input

from ..core.search import Hit, SearchIndex
from . import rows
from .jump import open_jump_palette
from .messages import SearchDone, SearchReady, while_shown
from .widgets.memory_table import Column, TableRow
from .widgets.search_bar import SearchBar

if TYPE_CHECKING:
    from .app import TabSpec


class Searching:
    """Mixed into SamanthaApp; uses its curator, table, tabs and list (see app.py)."""

    def init_searching(self) -> None:
        self.query_text = ""
        self._hits: list[Hit] | None = None
        """Every hit of the current query, best first; None when no search is active."""
        self._before_search: str | None = None

    @property
    def search_bar(self) -> SearchBar:
        return self.query_one("#search", SearchBar)

    # --- the box ---------------------------------------------------------------------------------

    def action_search(self) -> None:
        bar = self.search_bar
        if not bar.display:
            self._before_search = self.table.selected_key
            bar.display = True
        bar.input.focus()

    def action_clear_search(self) -> None:
        """Esc: drop the search and go back to the memory selected before it."""
        bar = self.search_bar
        if not bar.display:
            return
        bar.input.value = ""
        bar.display = False
        self.query_text = ""
        self._hits = None
        self._selection[self.current_tab] = self._before_search
        self._show_list()
        self.table.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "search-input":
            return
        self.query_text = event.value
        if not self.query_text.strip():
            self._hits = None
            self._show_list()
            return
        self.run_search(self.query_text)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search-input":
            self.table.focus()

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, query: str) -> None:
        index = self.curator.search_index
        if index is None:
            return  # the index is still being built; SearchReady runs the query then
        self.post_message(SearchDone(query, "", index.search(query)))

    @work(thread=True, exclusive=True, group="search-index")
    def build_search_index(self) -> None:
        self.curator.build_search()
        self.post_message(SearchReady())

    @while_shown
    def on_search_ready(self, _message: SearchReady) -> None:
        if self.query_text.strip():
            self.run_search(self.query_text)

    @while_shown
    def on_search_done(self, message: SearchDone) -> None:
        if message.query != self.query_text:
            return
        if message.result.error:
            self.search_bar.show_error(message.result.error)
            return
        self._hits = list(message.result.hits)
        self._show_list()

    def search_again(self) -> None:
        """After the tree changed: the same query may match other memories now."""
        if self._hits is not None and self.query_text.strip():
            self.run_search(self.query_text)

    def search_rows(self, spec: TabSpec) -> tuple[list[TableRow], tuple[Column, ...]] | None:
        """The current tab's rows for the active search, or None when there is none."""
        if self._hits is None:
            return None
        tree = self.memory_tree
        table_rows = []
        for hit in self._hits:
            memory = self.curator.get(hit.path)
            if memory is None or (spec.kind is not None and memory.kind is not spec.kind):
                continue
            if spec.kind is None:
                table_rows.append(rows.critical_row(memory, hit.title_spans))
            else:
                table_rows.append(rows.memory_row(memory, hit.title_spans))
        total = len(tree.memories) if spec.kind is None else len(tree.of_kind(spec.kind))
        self.search_bar.show_count(len(table_rows), total)
        columns = rows.MEMORY_COLUMNS if spec.kind is not None else rows.CRITICAL_COLUMNS
        return table_rows, columns

    # --- the jump palette ------------------------------------------------------------------------

    def action_jump(self) -> None:
        open_jump_palette(self)

    @property
    def search_index(self) -> SearchIndex | None:
        """The jump palette ranks with it."""
        return self.curator.search_index

    def jump_to(self, path: str) -> None:
        """Show a memory: its kind's tab, the cursor on it, any search cleared."""
        memory = self.curator.get(path)
        if memory is None:
            self.notify(f"{path} is no longer in the tree", severity="warning")
            return
        self.action_clear_search()
        tab = self.tab_of(memory.kind)
        self._selection[tab] = path
        if tab == self.current_tab:
            self._show_list()
        self.action_show_tab(tab)

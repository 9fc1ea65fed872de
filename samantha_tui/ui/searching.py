"""Searching, as part of the app: the `/` box over the list and the `ctrl+k` jump palette.

A query runs in a worker thread over the current tab's kind (from the Critical and Problems tabs,
over every kind). A newer keystroke replaces the running search,
and results that arrive for an older query or another tab are dropped, so typing never waits on
a search.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.widgets import Input

from ..core.model import Kind, Memory
from ..core.query import Filter, Query, QueryError, parse
from ..core.search import Hit, SearchIndex, SearchResult
from . import rows
from .jump import open_jump_palette
from .messages import SearchDone, SearchReady, while_shown
from .rows import Spans
from .widgets.memory_table import Column, TableRow
from .widgets.search_bar import SearchBar
from .workers import background

if TYPE_CHECKING:
    from .tabs import TabSpec

LISTED = 500
"""The best hits a search lists. Ranking every match of a common word at 10,000 memories took
100-280 ms of the interpreter's time per keystroke; the best 500 take about 10 ms, and the count
still says how many matched."""


class Searching:
    """Mixed into SamanthaApp; uses its curator, table, tabs and list (see app.py)."""

    def init_searching(self) -> None:
        self.query_text = ""
        self._hits: list[Hit] | None = None
        """The best hits of the current query on this tab; None when no search is active."""
        self._matched = 0
        """How many memories of the tab match, listed or not."""
        self._before_search: str | None = None
        self._answered: tuple[str, str] | None = None
        """The query and tab whose results (or error) the list shows now."""
        self._land_on_best = False
        """The next rows listed are a new query's: the cursor goes to the first, the best."""
        self._keys_wait_for_results = False

    @property
    def search_bar(self) -> SearchBar:
        return self.query_one("#search", SearchBar)

    # --- the box ---------------------------------------------------------------------------------

    def action_search(self) -> None:
        bar = self.search_bar
        if not bar.display:
            self._before_search = self.table.selected_key
            bar.display = True
        # At once, not on the next turn of the loop (as `focus()` does): the keys typed after `/`
        # are replayed as soon as this returns (see key_burst.py) and must reach the box.
        self.set_focus(bar.input)

    def action_clear_search(self) -> None:
        """Esc: drop the search and go back to the memory selected before it."""
        bar = self.search_bar
        if not bar.display:
            return
        bar.input.value = ""
        bar.display = False
        self.query_text = ""
        self._hits = None
        self._answered = None
        self._selection[self.current_tab] = self._before_search
        self._show_list()
        self.set_focus(self.table)

    def action_focus_list(self) -> None:
        """Enter or Down in the search box: to the list, on the best match.

        While the query's results are still coming, the keys after this one wait for them, so
        that `/dana` Enter `e` edits the best match and never the row selected before.
        """
        self.set_focus(self.table)
        value = self.search_bar.input.value
        if value != self.query_text:
            # The box's last Changed message may still be on its way (keys in a burst): Enter
            # acts on what the box holds, not on the query one letter short.
            self.query_text = value
            self.search_again()
        if self._results_pending():
            self._keys_wait_for_results = True
            self.keep_keys_held()

    def _results_pending(self) -> bool:
        return bool(self.query_text.strip()) and self._answered != (
            self.query_text,
            self.current_tab,
        )

    def _results_arrived(self) -> None:
        if self._keys_wait_for_results:
            self._keys_wait_for_results = False
            self.call_later(self.release_keys)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "search-input":
            return
        self.query_text = event.value
        if not self.query_text.strip():
            self._hits = None
            self._answered = None
            self._land_on_best = False
            # No query: the list as it was before the search, on the memory selected then.
            self._selection[self.current_tab] = self._before_search
            self._show_list()
            return
        self.search_again()

    @background(thread=True, exclusive=True, group="search")
    def run_search(self, text: str, tab: str, kind: Kind | None) -> None:
        index = self.curator.search_index
        if index is None:
            return  # the index is still being built; SearchReady runs the query then
        try:
            query = parse(text)
        except QueryError as error:
            self.post_message(SearchDone(text, tab, SearchResult(error=str(error))))
            return
        if kind is not None:
            query = Query(query.terms, (*query.filters, Filter("kind", kind)))
        self.post_message(SearchDone(text, tab, index.search(query, LISTED)))

    @background(thread=True, exclusive=True, group="search-index")
    def build_search_index(self) -> None:
        self.curator.build_search()
        # The tree and its index are millions of long-lived objects: left to the collector, every
        # full collection walks them all (0.3 s at 10,000 memories, set off by the allocations of
        # typing). Frozen, they are skipped until the next load unfreezes them.
        gc.freeze()
        self.post_message(SearchReady())

    @while_shown
    def on_search_ready(self, _message: SearchReady) -> None:
        if self.query_text.strip():
            self.search_again()

    @while_shown
    def on_search_done(self, message: SearchDone) -> None:
        if message.query != self.query_text or message.tab != self.current_tab:
            return
        answered = (message.query, message.tab)
        if message.result.error:
            self.search_bar.show_error(message.result.error)
            self._answered = answered
            self._results_arrived()
            return
        # The same query again (after a change to the tree) keeps the cursor where it is.
        self._land_on_best = answered != self._answered
        self._answered = answered
        self._hits = list(message.result.hits)
        self._matched = message.result.total
        self._show_list()
        self._results_arrived()

    def search_again(self) -> None:
        """Run the query for the current tab (again: after a change, another tab, a keystroke)."""
        if self.query_text.strip():
            self.run_search(self.query_text, self.current_tab, self.spec().kind)

    def search_rows(self, spec: TabSpec) -> tuple[Sequence[TableRow], tuple[Column, ...]] | None:
        """The current tab's rows for the active search, or None when there is none."""
        if self._hits is None:
            return None
        tree = self.memory_tree
        found: list[Memory] = []
        spans: list[Spans] = []
        for hit in self._hits:
            memory = self.curator.get(hit.path)
            if memory is None or (spec.kind is not None and memory.kind is not spec.kind):
                continue
            found.append(memory)
            spans.append(hit.title_spans)
        found, spans = self.sorted_hits(spec, found, spans)
        if self._land_on_best:
            self._land_on_best = False
            if found:
                self._selection[spec.id] = found[0].path
        total = len(tree.memories) if spec.kind is None else len(tree.of_kind(spec.kind))
        self.search_bar.show_count(self._matched, total, len(found))
        if spec.kind is None:
            return rows.lazy(found, rows.critical_row, spans), rows.CRITICAL_COLUMNS
        return rows.lazy(found, rows.memory_row, spans), rows.MEMORY_COLUMNS

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

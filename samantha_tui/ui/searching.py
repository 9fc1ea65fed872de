"""Searching, as part of the app: the `/` box over the list and the `ctrl+k` jump palette.

A query is one search over every memory, in a worker thread: the current tab's best hits come
first, with every tab's count for the tab labels (one set intersection each); the other tabs are
ranked next, once typing has paused, so that switching tabs shows their results at once while a
query is being typed costs one tab's ranking. A newer keystroke replaces the running search, and
results of an older one are dropped, so typing never waits on a search.

The Critical tab lists the critical memories that match, the Problems tab the problems of the
memories that match. A tab with no match is never left for another on its own: its list says
where the matches are ("3 in Long-term (2)"), and the tabs' labels say it too.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from ..core.basics.model import Memory
from ..core.views.naming import names_of
from . import rows
from .jump import open_jump_palette
from .messages import SearchDone, SearchReady, while_shown
from .rows import Spans
from .tabs import TABS
from .widgets.memory_table import Column, TableRow
from .workers import background

# The query language and the ranking load with the search index, after the first frame.
if TYPE_CHECKING:
    from ..core.views.query import Term
    from ..core.views.search import Hit, Scope, SearchIndex, SearchResult
    from .host import Host
    from .tabs import TabSpec
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

LISTED = 500
"""The best hits a search lists. Ranking every match of a common word at 10,000 memories took
100-280 ms of the interpreter's time per keystroke; the best 500 take about 10 ms, and the count
still says how many matched."""

OTHER_TABS_AFTER = 0.15
"""Seconds of no typing before the other tabs are ranked: a keystroke sooner makes it moot."""


def scope_of(spec: TabSpec) -> Scope | None:
    """The part of the tree a tab ranks; None for Problems, which lists problems, not hits."""
    if spec.id == "problems":
        return None
    if spec.kind is None:
        return "critical"
    return spec.kind


def where_else(counts: Mapping[str, int], here: str) -> str:
    """The tabs holding matches, each with its count and key: `3 in Long-term (2)`."""
    found = [
        f"{counts[spec.id]:,} in {spec.label} ({number})"
        for number, spec in enumerate(TABS, start=1)
        if spec.id != here and spec.kind is not None and counts.get(spec.id)
    ]
    return ", ".join(found)


class Searching(Host):
    """Mixed into SamanthaApp; keeps the query and its results, which the main screen draws
    (its curator, table, search box and list are listed in host.py)."""

    def init_searching(self) -> None:
        self.query_text = ""
        self._results: dict[str, SearchResult] | None = None
        """Per tab, the best hits of the answered query; None when no search is active."""
        self._counts: dict[str, int] = {}
        """Per tab, how many match the answered query (listed or not)."""
        self._matching: frozenset[str] = frozenset()
        """The paths with problems that match the answered query (the Problems tab's list)."""
        self._before_search: str | None = None
        self._answered: str | None = None
        """The query whose results the tabs show now."""
        self._unreadable: str | None = None
        """The query whose error the box shows now (the tabs keep the last good results)."""
        self._search_run = 0
        """Counts the searches started; results of any but the last are dropped."""
        self._landed: set[str] = set()
        """Tabs whose cursor went to the best hit of the answered query already."""
        self._keys_wait_for_results = False

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
        """Esc: drop the search on every tab and go back to the memory selected before it."""
        bar = self.search_bar
        if not bar.display:
            return
        bar.input.value = ""
        bar.display = False
        self.query_text = ""
        self._forget_results()
        self._selection[self.current_tab] = self._before_search
        self.show_list()
        self.set_focus(self.table)

    def _forget_results(self) -> None:
        self._search_run += 1  # whatever is still on its way is stale now
        self._results = None
        self._answered = None
        self._unreadable = None
        self._counts = {}
        self._matching = frozenset()
        self._landed = set()
        self.search_bar.show_error("")
        self.label_tabs()
        self._mark_empty_tabs()

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
        if not self.query_text.strip() or self._unreadable == self.query_text:
            return False
        if self._answered != self.query_text:
            return True
        return self.current_tab != "problems" and self.current_tab not in (self._results or {})

    def _results_arrived(self) -> None:
        if self._keys_wait_for_results and not self._results_pending():
            self._keys_wait_for_results = False
            self.call_later(self.release_keys)

    def query_typed(self, value: str) -> None:
        """The search box holds `value` now (the main screen hands its every change here)."""
        self.query_text = value
        if not self.query_text.strip():
            # No query: the lists as they were before the search, on the memory selected then.
            self._forget_results()
            self._selection[self.current_tab] = self._before_search
            self.show_list()
            return
        self.search_again()

    @background(thread=True, exclusive=True, group="search")
    def run_search(self, run: int, text: str, tab: str, among: frozenset[str]) -> None:
        index = self.curator.search_index
        if index is None:
            return  # the index is still being built; SearchReady runs the query then
        from ..core.views.query import QueryError, parse

        try:
            query = parse(text)
        except QueryError as error:
            self.post_message(SearchDone(run, text, {}, error=str(error)))
            return
        scopes = {spec.id: scope_of(spec) for spec in TABS}
        tab_scope = scopes.get(tab)
        first = {tab: tab_scope} if tab_scope is not None else {}
        split = index.search_split(query, list(first.values()), LISTED, among)
        if split.error is not None:  # a value no memory holds, said with those they hold
            self.post_message(SearchDone(run, text, {}, error=split.error))
            return
        counts = {
            spec.id: split.totals[scope] if scope is not None else 0
            for spec, scope in zip(TABS, scopes.values(), strict=True)
        }
        counts["problems"] = self._problems_matching(split.matching)
        results = {t: split.ranked[scope] for t, scope in first.items()}
        self.post_message(SearchDone(run, text, results, counts, split.matching))
        # The other tabs, one at a time (the index is free between them for a newer search),
        # once typing has paused.
        worker = get_current_worker()
        time.sleep(OTHER_TABS_AFTER)
        for other, scope in scopes.items():
            if worker.is_cancelled:
                return
            if scope is None or other == tab:
                continue
            ranked = index.search_split(query, [scope], LISTED).ranked[scope]
            self.post_message(SearchDone(run, text, {other: ranked}))

    def _problems_matching(self, matching: frozenset[str]) -> int:
        tree = self.memory_tree
        return 0 if tree is None else sum(p.path in matching for p in tree.all_problems)

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
        if message.run != self._search_run or message.query != self.query_text:
            return
        if message.error:
            self.search_bar.show_error(message.error)
            self._unreadable = message.query
            self._results_arrived()
            return
        if message.counts is not None:
            # A run's first results: every tab's count, and the results of the run before are
            # replaced (the same query again, after a change to the tree, keeps the cursors).
            if message.query != self._answered:
                self._landed = set()
            self._answered = message.query
            self._results = dict(message.results)
            self._counts = dict(message.counts)
            self._matching = message.matching
            self.label_tabs()
            self._mark_empty_tabs()
        elif self._results is not None:
            self._results.update(message.results)
        if message.counts is not None or self.current_tab in message.results:
            self.show_list()
        self._results_arrived()

    def search_again(self) -> None:
        """Run the query again: after a change, a keystroke, or for a tab not yet ranked."""
        if not self.query_text.strip():
            return
        self._search_run += 1
        tree = self.memory_tree
        among = frozenset(p.path for p in tree.all_problems) if tree is not None else frozenset()
        self.run_search(self._search_run, self.query_text, self.current_tab, among)

    def search_tab_shown(self) -> None:
        """Another tab is shown: its results are listed at once if ranked, else searched now."""
        if self._results_pending():
            self.search_again()

    def search_count(self, spec: TabSpec) -> int | None:
        """The tab's count of matches while a search is answered, else None (its own count)."""
        if self._results is None:
            return None
        return self._counts.get(spec.id, 0)

    def _mark_empty_tabs(self) -> None:
        self.mark_empty_tabs(None if self._results is None else self._counts)

    def search_empty(self, spec: TabSpec) -> tuple[str, str]:
        """What an empty tab says while searching: the list's line and the preview's text."""
        if self._results_pending():
            return "Searching…", "The results are on their way."
        elsewhere = where_else(self._counts, spec.id)
        if elsewhere:
            return f"No match here; {elsewhere}.", f"No match here; {elsewhere}. Esc clears it."
        return "Nothing matches this search.", "Change the search, or Esc to clear it."

    def search_rows(self, spec: TabSpec) -> tuple[Sequence[TableRow], tuple[Column, ...]] | None:
        """The current tab's rows for the active search, or None when there is none."""
        tree = self.memory_tree
        if self._results is None or tree is None:  # results come only for a listed tree
            return None
        if spec.id == "problems":
            listed = [
                rows.problem_row(problem, i)
                for i, problem in enumerate(tree.all_problems)
                if problem.path in self._matching
            ]
            self.search_bar.show_count(len(listed), len(tree.all_problems), len(listed))
            return listed, rows.PROBLEM_COLUMNS
        result = self._results.get(spec.id)
        hits: Sequence[Hit] = result.hits if result is not None else ()
        found: list[Memory] = []
        spans: list[Spans] = []
        for hit in hits:
            memory = self.curator.get(hit.path)
            if memory is None:
                continue
            found.append(memory)
            spans.append(hit.title_spans)
        found, spans = self.sorted_hits(spec, found, spans)
        if result is not None and spec.id not in self._landed:
            # The first listing of a query on this tab: the cursor on the best match.
            self._landed.add(spec.id)
            if found:
                self._selection[spec.id] = found[0].path
        total = len(tree.critical) if spec.kind is None else len(tree.of_kind(spec.kind))
        self.search_bar.show_count(self._counts.get(spec.id, 0), total, len(found))
        naming = rows.Naming(names_of(tree), self._wanted_terms())
        if spec.kind is None:
            return rows.lazy(found, rows.critical_row, spans, naming), rows.CRITICAL_COLUMNS
        return rows.lazy(found, rows.memory_row, spans, naming), rows.MEMORY_COLUMNS

    def _wanted_terms(self) -> tuple[Term, ...]:
        """The words of the query answered, to mark in the names that are not titles."""
        from ..core.views.query import QueryError, parse

        try:
            return parse(self.query_text).wanted
        except QueryError:
            return ()

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
            self.show_list()
        self.action_show_tab(tab)

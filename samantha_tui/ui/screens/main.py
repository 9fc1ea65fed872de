"""The main screen: the tabs, the list, the search box, the preview, progress and status line.

The app's default screen (`SamanthaApp.get_default_screen`). It presents the session the app
keeps (the tree, the selection of each tab, the search's results, the marks): it draws the
current tab's list, or what an empty one says, shows the highlighted memory in the preview and
labels the tabs with their counts. The app and its parts ask it to draw through `show_list`,
`show_preview`, `label_tabs` and `mark_empty_tabs`; the screen reads the session through the
app's typed surface (ui/host.py) and hands the person's moves (a row highlighted, a tab shown,
a query typed) back to the app through it, which changes its state and asks for a redraw.

Its keys are the app's keys that act on the list, its tabs or its search (keys.MAIN_SCREEN_ACTIONS):
bound here, they run the app's actions and are in no other screen's binding chain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Tab, Tabs

from ...core.views.naming import names_of
from .. import keys, related_line, rows
from ..messages import while_shown
from ..tabs import TABS, TabSpec, fit_labels
from ..visible_text import visible
from ..widgets.counted_tabs import CountedTab, CountedTabs
from ..widgets.fitted_footer import FittedFooter
from ..widgets.memory_table import MemoryTable
from ..widgets.preview import Preview
from ..widgets.progress_panel import ProgressPanel
from ..widgets.search_bar import SearchBar
from ..widgets.status_line import StatusLine

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual import getters

    from ...core.basics.model import Memory, Tree
    from ..host import Host

NO_MATCH_CLASS = "-no-match"
"""On a tab whose count is 0 while a search is active (dimmed by app.tcss)."""

EMPTY_TREE = "This tree has no memories yet."
EMPTY_TREE_HELP = (
    "The memory folders are empty. As the assistant works, samantha-llm writes memories under "
    ".ai/<kind>/.ai/. To look around first, write the demo: samantha-tui demo ./demo-tree"
)


class MainScreen(Screen[None]):
    """The list of the current tab, its search box and the preview of the highlighted row."""

    BINDINGS = keys.main_screen_bindings()

    if TYPE_CHECKING:
        # For the type checker only: the app as its screens may use it (see ui/host.py).
        app = getters.app(Host)

    def compose(self) -> ComposeResult:
        yield CountedTabs(*(CountedTab(spec.label, id=spec.id) for spec in TABS), id="tabs")
        with Horizontal(id="panes"):
            with Vertical(id="list-pane"):
                yield SearchBar(id="search")
                yield MemoryTable(rows.MEMORY_COLUMNS, id="memories", keep_hidden_marks=True)
            related = self._related_line if self.app.settings.meaning else None
            yield Preview(id="preview", origin_tree=self._checked_tree, related=related)
        yield ProgressPanel(id="progress")
        yield StatusLine(id="status")
        yield FittedFooter()

    # --- the widgets -----------------------------------------------------------------------------

    @property
    def table(self) -> MemoryTable:
        return self.query_one("#memories", MemoryTable)

    @property
    def preview(self) -> Preview:
        return self.query_one("#preview", Preview)

    @property
    def status_line(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

    @property
    def search_bar(self) -> SearchBar:
        return self.query_one("#search", SearchBar)

    def _checked_tree(self) -> Tree[Memory] | None:
        """The records the preview looks origins up in: none while the list shows the
        catalog's entries (the session's other memories are not all read yet)."""
        return self.app.curator.tree if self.app.checking is None else None

    def _related_line(self, memory: Memory) -> Text | None:
        """The preview's line of the memories closest in meaning (in its thread)."""
        return related_line.line_of(self.app, memory)

    def on_mount(self) -> None:
        # The app composes nothing itself: its session starts once these widgets exist.
        self.table.empty_message = "Reading memories…"
        self.table.tooltip = rows.MARKERS_HINT
        self.table.focus()
        self.status_line.update(visible(str(self.app.store.root)))
        self.app.start_session()

    # --- drawing ---------------------------------------------------------------------------------

    def show_list(self) -> None:
        """Draw the current tab's list (the search's hits while one is answered), the cursor on
        the tab's selection, or what the empty tab says in the list and the preview."""
        host = self.app
        tree = host.memory_tree
        if tree is None:
            return
        spec = host.spec()
        searched = host.search_rows(spec)
        if searched is not None:
            table_rows, columns = searched
        else:
            items = self._items(spec)
            if spec.id == "problems":
                table_rows = [rows.problem_row(p, i) for i, p in enumerate(items)]
                columns = rows.PROBLEM_COLUMNS
            elif spec.id == "critical":
                table_rows = rows.lazy(items, rows.critical_row, naming=rows.Naming(names_of(tree)))
                columns = rows.CRITICAL_COLUMNS
            else:
                table_rows = rows.lazy(items, rows.memory_row, naming=rows.Naming(names_of(tree)))
                columns = rows.MEMORY_COLUMNS
        if searched is not None:
            empty = host.search_empty(spec)[0]
        elif tree.memories or spec.id == "problems":
            empty = spec.empty
        else:
            empty = EMPTY_TREE
        self.table.set_rows(
            table_rows, columns, select=host._selection.get(spec.id), empty_message=empty
        )
        host.show_sort_of(spec, searched is not None)
        if not table_rows:
            self._show_empty(spec, searched is not None)

    def _items(self, spec: TabSpec) -> list:
        """The tab's problems, or its memories in the tab's order."""
        host = self.app
        tree = host.memory_tree
        assert tree is not None
        if spec.id == "problems":
            return tree.all_problems
        if spec.id == "critical":
            return rows.sort_memories(None, tree.critical, host.tab_order(spec))
        assert spec.kind is not None  # only Critical and Problems list no one kind
        return rows.sort_memories(spec.kind, tree.of_kind(spec.kind), host.tab_order(spec))

    def _show_empty(self, spec: TabSpec, searching: bool) -> None:
        tree = self.app.memory_tree
        if searching:
            self.preview.show_message("No match", self.app.search_empty(spec)[1])
        elif tree is not None and not tree.memories:
            self.preview.show_message("This tree has no memories yet", EMPTY_TREE_HELP)
        else:
            self.preview.show_message(spec.label, spec.empty)

    async def show_preview(self, key: str, held: bool = False) -> None:
        """Show the memory of a row `key` in the preview, or what is wrong with its file."""
        host = self.app
        if not host.screen_stack:
            return  # scheduled just before the app closed
        memory = host.memory_for(key)
        if memory is not None:
            await self.preview.show_memory(memory, held=held)
        elif host.memory_tree is not None:
            path = key.split("#", 1)[0]
            found = [p.format() for p in host.memory_tree.all_problems if p.path == path]
            self.preview.show_message(path, "\n".join(found) or "This file is no longer there.")

    def label_tabs(self, width: int | None = None) -> None:
        """Each tab's label with its count (the search's while one is answered), fitted to
        `width` or the app's."""
        host = self.app
        if host.memory_tree is None:
            return
        counts = {spec.id: str(self._count(spec)) for spec in TABS}
        labels = fit_labels(width or host.size.width, counts)
        self.query_one("#tabs", CountedTabs).set_labels(labels)

    def _count(self, spec: TabSpec) -> int:
        tree = self.app.memory_tree
        assert tree is not None
        searched = self.app.search_count(spec)
        if searched is not None:
            return searched
        if spec.id == "problems":
            return len(tree.all_problems)
        if spec.id == "critical":
            return len(tree.critical)
        assert spec.kind is not None  # only Critical and Problems list no one kind
        return len(tree.of_kind(spec.kind))

    def mark_empty_tabs(self, counts: Mapping[str, int] | None) -> None:
        """Dim the tabs with no match of the active search (`counts`; None: no search)."""
        for spec in TABS:
            tab = self.query_one(f"#{spec.id}", Tab)
            tab.set_class(counts is not None and not counts.get(spec.id), NO_MATCH_CLASS)

    # --- what the person does here ---------------------------------------------------------------

    @on(MemoryTable.Highlighted, "#memories")
    @while_shown
    async def _highlighted(self, message: MemoryTable.Highlighted) -> None:
        if message.key is None:
            return
        self.app.remember_selection(message.key)
        await self.show_preview(message.key, held=message.held)

    @on(MemoryTable.MarksChanged, "#memories")
    def _marks_changed(self, message: MemoryTable.MarksChanged) -> None:
        # Handled here, not left to bubble to the app: a message made while this screen handles
        # another (a tab shown, a query typed) names the screen its sender, and Textual stops it
        # here, so the status line kept the marks of the tab left.
        message.stop()
        self.app.show_mark_count()

    @on(Tabs.TabActivated, "#tabs")
    def _tab_activated(self, message: Tabs.TabActivated) -> None:
        if message.tab is None:
            return
        self.app.tab_shown(message.tab.id or TABS[0].id)

    @on(Input.Changed, "#search-input")
    def _query_typed(self, event: Input.Changed) -> None:
        self.app.query_typed(event.value)

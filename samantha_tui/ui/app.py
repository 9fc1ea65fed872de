"""The curator's Textual app: tabs per memory kind, a list, a preview and a status line."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Footer, Tabs

from ..core import clock
from ..core.model import Kind, Memory, Tree
from ..core.store import Store
from . import rows
from .screens.help import HelpScreen
from .widgets.counted_tabs import CountedTab, CountedTabs
from .widgets.memory_table import MemoryTable
from .widgets.preview import Preview
from .widgets.status_line import StatusLine


@dataclass(frozen=True)
class TabSpec:
    id: str
    label: str
    kind: Kind | None
    empty: str


TABS = (
    TabSpec(
        "short-term",
        "Short-term",
        Kind.SHORT_TERM,
        "No short-term memories yet: the assistant writes them to .ai/short-term-memory/.ai/.",
    ),
    TabSpec(
        "long-term",
        "Long-term",
        Kind.LONG_TERM,
        "No long-term memories yet: promoted, foundational knowledge lands here.",
    ),
    TabSpec(
        "tasks",
        "Tasks",
        Kind.CURRENT_TASKS,
        "No current tasks: each active project is a folder with a status.md.",
    ),
    TabSpec(
        "work-experience",
        "Work experience",
        Kind.WORK_EXPERIENCE,
        "No completed projects yet: finished tasks move here.",
    ),
    TabSpec(
        "procedural",
        "Procedural",
        Kind.PROCEDURAL,
        "No runbooks yet: procedural memory holds how-to-work-on-X guides.",
    ),
    TabSpec(
        "critical",
        "Critical",
        None,
        "Nothing is marked critical: mark the few rules read every session (5-10 advised).",
    ),
    TabSpec("problems", "Problems", None, "No problems: every file reads cleanly."),
)


class TreeLoaded(Message):
    """A scan finished (posted from a worker thread)."""

    def __init__(self, memory_tree: Tree) -> None:
        super().__init__()
        self.memory_tree = memory_tree


class SamanthaApp(App[None]):
    """Browse a samantha-llm memory tree."""

    CSS_PATH = "app.tcss"
    TITLE = "samantha-tui"

    BINDINGS = [
        *(
            Binding(
                str(n),
                f"show_tab('{spec.id}')",
                f"{spec.label} tab",
                show=False,
                id=f"tab.{spec.id}",
            )
            for n, spec in enumerate(TABS, start=1)
        ),
        Binding("r", "reload", "Reload", id="app.reload"),
        Binding("question_mark", "help", "Keys", key_display="?", id="app.help"),
        Binding("q", "quit", "Quit", id="app.quit"),
    ]

    def __init__(self, root: Path, today: Callable[[], dt.date] = clock.today) -> None:
        super().__init__()
        self.store = Store(root, today)
        self.memory_tree: Tree | None = None
        self.current_tab = TABS[0].id
        self._selection: dict[str, str | None] = {}

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield CountedTabs(*(CountedTab(spec.label, id=spec.id) for spec in TABS), id="tabs")
        with Horizontal(id="panes"):
            yield MemoryTable(rows.MEMORY_COLUMNS, id="memories")
            yield Preview(id="preview")
        yield StatusLine(id="status")
        yield Footer()

    @property
    def table(self) -> MemoryTable:
        return self.query_one("#memories", MemoryTable)

    @property
    def preview(self) -> Preview:
        return self.query_one("#preview", Preview)

    def on_mount(self) -> None:
        self.table.empty_message = "Reading memories…"
        self.table.focus()
        self.query_one("#status", StatusLine).update(str(self.store.root))
        self.load_tree()

    # --- data ------------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="scan")
    def load_tree(self) -> None:
        self.post_message(TreeLoaded(self.store.scan()))

    @on(TreeLoaded)
    def _tree_loaded(self, message: TreeLoaded) -> None:
        self.memory_tree = message.memory_tree
        labels = {spec.id: f"{spec.label} {len(self._items(spec))}" for spec in TABS}
        self.query_one("#tabs", CountedTabs).set_labels(labels)
        self.query_one("#status", StatusLine).show_tree(self.memory_tree, self.store.root)
        self._show_list()

    def _spec(self, tab_id: str) -> TabSpec:
        return next(spec for spec in TABS if spec.id == tab_id)

    def _items(self, spec: TabSpec) -> list:
        assert self.memory_tree is not None
        if spec.id == "problems":
            return self.memory_tree.all_problems
        if spec.id == "critical":
            return rows.sort_memories(None, self.memory_tree.critical)
        return rows.sort_memories(spec.kind, self.memory_tree.of_kind(spec.kind))

    def _show_list(self) -> None:
        if self.memory_tree is None:
            return
        spec = self._spec(self.current_tab)
        items = self._items(spec)
        if spec.id == "problems":
            table_rows = [rows.problem_row(p, i) for i, p in enumerate(items)]
            columns = rows.PROBLEM_COLUMNS
        elif spec.id == "critical":
            table_rows = [rows.critical_row(m) for m in items]
            columns = rows.CRITICAL_COLUMNS
        else:
            table_rows = [rows.memory_row(m) for m in items]
            columns = rows.MEMORY_COLUMNS
        empty = spec.empty if self.memory_tree.memories or spec.id == "problems" else _EMPTY_TREE
        self.table.set_rows(
            table_rows, columns, select=self._selection.get(spec.id), empty_message=empty
        )
        if not table_rows:
            self._show_empty(spec)

    def _show_empty(self, spec: TabSpec) -> None:
        if self.memory_tree is not None and not self.memory_tree.memories:
            self.preview.show_message("This tree has no memories yet", _EMPTY_TREE_HELP)
        else:
            self.preview.show_message(spec.label, spec.empty)

    def _memory_for(self, key: str) -> Memory | None:
        return self.store.get(key.split("#", 1)[0])

    @on(MemoryTable.Highlighted, "#memories")
    async def _highlighted(self, message: MemoryTable.Highlighted) -> None:
        if message.key is None:
            return
        self._selection[self.current_tab] = message.key
        memory = self._memory_for(message.key)
        if memory is not None:
            await self.preview.show_memory(memory)
        elif self.memory_tree is not None:
            path = message.key.split("#", 1)[0]
            found = [p.format() for p in self.memory_tree.problems if p.path == path]
            self.preview.show_message(path, "\n".join(found))

    # --- actions ---------------------------------------------------------------------------------

    @on(Tabs.TabActivated, "#tabs")
    def _tab_activated(self, message: Tabs.TabActivated) -> None:
        if message.tab is None:
            return
        self.current_tab = message.tab.id or TABS[0].id
        self._show_list()

    def action_show_tab(self, tab_id: str) -> None:
        self.query_one("#tabs", Tabs).active = tab_id
        self.table.focus()

    def action_reload(self) -> None:
        self.load_tree()
        self.notify("Reading the tree again", timeout=2)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(list(self.BINDINGS)))


_EMPTY_TREE = "This tree has no memories yet."
_EMPTY_TREE_HELP = (
    "The memory folders are empty. As the assistant works, samantha-llm writes memories under "
    ".ai/<kind>/.ai/. To look around first, write the demo: samantha-tui demo ./demo-tree"
)

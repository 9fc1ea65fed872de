"""The app as its parts and its screens see it: one typed surface, read by the type checker only.

SamanthaApp is assembled from parts (key bursts, marking, searching, sorting, editing, reading,
live files, work progress, the ordered queue), each a mixin in its own module, and its screens call
on it for the curator and a few actions. The main screen (ui/screens/main.py) draws the list, the
search box and the preview from the state listed here, and hands the person's moves back through
it; the app and its parts ask it to draw through `show_list`, `label_tabs` and
`mark_empty_tabs`. `Host` lists what they reach for beyond Textual's App: the app's state, and
the methods one part offers the others. Each part takes it as its base, and each
screen as the type of its `app`, under TYPE_CHECKING only:

    if TYPE_CHECKING:
        from .host import Host
    else:
        Host = object

    class Marking(Host): ...

So mypy checks every reach across parts against this one list (and that the app still provides
it), no module imports ui/app.py to type the app (which would be an import cycle), and at run time
nothing imports this module: each part is a plain class, as before. A part's own state and helpers
stay in its module; a name belongs here once another part or a screen uses it.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from textual.app import App

if TYPE_CHECKING:
    from ..core.basics.model import Kind, Listed, Memory, Tree
    from ..core.basics.plans import Plan
    from ..core.basics.sorting import SortOrder
    from ..core.views.health import HealthReport
    from ..core.views.indexes import DriftReport
    from ..core.views.search import SearchResult
    from ..core.writing.curator import Curator
    from ..core.writing.store import Store
    from ..settings import Settings
    from .messages import Changed
    from .rows import Spans
    from .tabs import TabSpec
    from .widgets.memory_table import Column, MemoryTable, TableRow
    from .widgets.search_bar import SearchBar
    from .widgets.status_line import StatusLine


class Host(App[None]):
    """What the app's parts and screens use of SamanthaApp, beyond Textual's App."""

    # --- state (ui/app.py unless named) ----------------------------------------------------------

    settings: Settings
    store: Store
    curator: Curator
    """Applies every change and keeps undo, redo and the indexes."""
    memory_tree: Tree[Memory] | Tree[Listed] | None
    """The tree listed: the checked one, or while checking the catalog's list entries."""
    checking: int | None
    """While the list shows the catalog's entries: how many files the scan is checking."""
    current_tab: str
    _selection: dict[str, str | None]
    """Tab id -> the path selected there."""
    _results: dict[str, SearchResult] | None
    """Searching: tab id -> the current query's ranking, None without a query."""
    index_report: DriftReport | None
    """Live files: the indexes' state as last checked; None until the first check."""
    health_report: HealthReport | None
    """Health (ui/health.py): the newest report, None until the first is ready."""

    # --- the list and its tabs -------------------------------------------------------------------

    @property
    @abstractmethod
    def table(self) -> MemoryTable: ...

    @property
    @abstractmethod
    def status_line(self) -> StatusLine: ...

    @property
    @abstractmethod
    def search_bar(self) -> SearchBar:
        """Searching."""

    @abstractmethod
    def load_tree(self) -> None:
        """Read the tree again (a recovery does, once it is done)."""

    @abstractmethod
    def list_is_behind(self) -> bool:
        """The session's records changed since the list was drawn from them."""

    @abstractmethod
    def spec(self, tab_id: str | None = None) -> TabSpec: ...

    @abstractmethod
    def tab_of(self, kind: Kind) -> str: ...

    @abstractmethod
    def memory_for(self, key: str | None) -> Memory | None: ...

    @abstractmethod
    def selected_memory(self) -> Memory | None: ...

    @abstractmethod
    def show_list(self) -> None:
        """Ask the main screen to draw the current tab's list again."""

    @abstractmethod
    def label_tabs(self, width: int | None = None) -> None:
        """Ask the main screen to label the tabs with their counts again."""

    @abstractmethod
    def mark_empty_tabs(self, counts: Mapping[str, int] | None) -> None:
        """Ask the main screen to dim the tabs with no match (`counts`; None: no search)."""

    @abstractmethod
    def start_session(self) -> None:
        """The main screen is up (its on_mount): read the settings, state and tree."""

    @abstractmethod
    def remember_selection(self, key: str) -> None:
        """The main screen's cursor is on `key` in the current tab."""

    @abstractmethod
    def tab_shown(self, tab_id: str) -> None:
        """The main screen shows another tab."""

    @abstractmethod
    def action_show_tab(self, tab_id: str) -> None: ...

    @abstractmethod
    def action_help(self) -> None: ...

    @abstractmethod
    def action_open_screen(self, name: str) -> None: ...

    # --- searching and sorting -------------------------------------------------------------------

    @abstractmethod
    def action_clear_search(self) -> None: ...

    @abstractmethod
    def search_again(self) -> None: ...

    @abstractmethod
    def query_typed(self, value: str) -> None:
        """The search box holds `value` now."""

    @abstractmethod
    def search_rows(self, spec: TabSpec) -> tuple[Sequence[TableRow], tuple[Column, ...]] | None:
        """Searching."""

    @abstractmethod
    def search_empty(self, spec: TabSpec) -> tuple[str, str]:
        """Searching."""

    @abstractmethod
    def search_count(self, spec: TabSpec) -> int | None:
        """Searching."""

    @abstractmethod
    def tab_order(self, spec: TabSpec) -> SortOrder:
        """Sorting."""

    @abstractmethod
    def show_sort_of(self, spec: TabSpec, searching: bool) -> None:
        """Sorting."""

    @abstractmethod
    def sorted_hits(
        self, spec: TabSpec, found: list[Memory], spans: list[Spans]
    ) -> tuple[list[Memory], list[Spans]]:
        """Sorting."""

    # --- marking and editing ---------------------------------------------------------------------

    @abstractmethod
    def marked_memories(self) -> list[Memory]:
        """Marking."""

    @abstractmethod
    def act_on_marks(self, action: str, step: int = 0) -> bool:
        """Marking."""

    @abstractmethod
    def show_mark_count(self) -> None:
        """The main list's marks changed: the status line says how many this tab has."""

    @abstractmethod
    def change(self, make_plan: Callable[[], Plan], select: str | None = None) -> None:
        """Editing."""

    @abstractmethod
    def toggle_critical_of(self, path: str) -> None:
        """Editing."""

    @abstractmethod
    def step_importance_of(self, path: str, step: int) -> None:
        """Editing."""

    @abstractmethod
    def open_form(
        self,
        kind: Kind,
        memory: Memory | None,
        draft: dict[str, str] | None = None,
        focus: str | None = None,
    ) -> None:
        """Editing."""

    @abstractmethod
    def _target(self) -> Memory | None:
        """Editing."""

    @abstractmethod
    def _form_can_save(self, memory: Memory) -> bool:
        """Editing."""

    @abstractmethod
    def action_open_editor(self) -> None:
        """Editing."""

    # --- reading ---------------------------------------------------------------------------------

    @abstractmethod
    def neighbour(self, path: str, step: int) -> Memory | None:
        """Reading."""

    @abstractmethod
    def copy_path(self, path: str) -> None:
        """Reading."""

    @abstractmethod
    def open_folder_of(self, path: str) -> None:
        """Reading."""

    @abstractmethod
    def follow_origin(self, memory: Memory, land: Callable[[str], object]) -> None:
        """Reading: where `memory` came from, then `land(path)` on the memory chosen."""

    @abstractmethod
    def follow_related(self, memory: Memory, land: Callable[[str], object]) -> None:
        """Reading: pick among the memories closest in meaning, then `land(path)`."""

    @abstractmethod
    def jump_to(self, path: str) -> None:
        """Searching: a memory's tab, the cursor on it, any search cleared."""

    # --- the order of changes, keys, live files --------------------------------------------------

    @abstractmethod
    def run_in_order(self, job: Callable[[], object]) -> None:
        """The ordered queue (ui/ordered.py); what the job returns is dropped."""

    @abstractmethod
    def keep_keys_held(self) -> None:
        """Key bursts."""

    @abstractmethod
    async def release_keys(self) -> None:
        """Key bursts."""

    @abstractmethod
    def index_changed(self, message: Changed) -> None:
        """Live files."""

    @abstractmethod
    def action_regenerate_indexes(self) -> None:
        """Live files."""

    @abstractmethod
    def health_soon(self, drift: DriftReport) -> None:
        """Health: work the report out again, against the drift just found, once quiet."""

    @abstractmethod
    def work_progress(self, stoppable: bool = False) -> AbstractContextManager[None]:
        """Work progress: the counts of the work run inside (a worker thread) on the screen."""

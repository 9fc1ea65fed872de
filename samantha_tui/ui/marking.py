"""Marks, as part of the app: what `c`, `+`, `-`, `e` and delete act on when rows are marked.

Marks belong to a tab: switching away keeps them, coming back shows them, and a mark whose memory
has gone is dropped. A search hides rows for a while, never their marks: the keys act on every
mark of the tab, and the status line says how many there are and how many the search hides.
A change to several memories is one plan built in the core (core/writing/bulk_edits.py), so `u`
undoes all of it; over more than one file it asks first, naming the count and the first files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.basics.model import Memory, short_path
from ..core.writing.atomic import StoreError
from .widgets.memory_table import MemoryTable

# Changes to many memories, and the question before them, load when marks are first acted on.
if TYPE_CHECKING:
    from ..core.writing import bulk_edits
    from ..core.writing.bulk_edits import BulkChange, BulkPlan
    from .host import Host
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

NAMED_IN_CONFIRM = 5
"""Files a bulk confirmation names before `… and N more`."""


def first_names(paths: Sequence[str], shown: int = NAMED_IN_CONFIRM) -> list[str]:
    """The first few paths as a person reads them, then how many more."""
    lines = [short_path(path) for path in paths[:shown]]
    if len(paths) > shown:
        lines.append(f"… and {len(paths) - shown} more")
    return lines


class Marking(Host):
    """Mixed into SamanthaApp; uses its table, curator, tabs and status line (listed in host.py)."""

    def init_marking(self) -> None:
        self._tab_marks: dict[str, frozenset[str]] = {}
        """The marks of the tabs not shown now, by tab id."""

    # --- which rows are marked -------------------------------------------------------------------

    def marked_memories(self) -> list[Memory]:
        """The memories of every mark of this tab (those a search hides too), in list order,
        each once; marks whose memory has gone are left out."""
        table = self.table
        shown = table.marked_keys
        hidden = sorted(table.marks.difference(shown))
        found: dict[str, Memory] = {}
        for key in (*shown, *hidden):
            memory = self.memory_for(key)
            if memory is not None:
                found.setdefault(memory.path, memory)
        return list(found.values())

    def switch_marks(self, old_tab: str, new_tab: str) -> None:
        """Keep the marks of the tab left, and bring back the tab shown's (before its rows)."""
        self._tab_marks[old_tab] = self.table.marks
        self.table.set_marks(self._tab_marks.pop(new_tab, frozenset()))

    def drop_vanished_marks(self) -> None:
        """After the tree changed: a hidden mark whose memory is gone goes too."""
        self.table.keep_marks(lambda key: self.memory_for(key) is not None)
        for tab, marks in list(self._tab_marks.items()):
            self._tab_marks[tab] = frozenset(k for k in marks if self.memory_for(k) is not None)

    def show_mark_count(self) -> None:
        """The status line speaks of this tab's marks only: they are the ones the keys act on
        (another tab's wait there, and show again with it)."""
        table = self.table
        self.status_line.show_marks(len(table.marks), table.hidden_marks)
        self.refresh_bindings()  # the footer offers Esc to unmark while there are marks

    def escape_unmarks(self) -> bool:
        """Whether Esc clears the marks now: the list focused, no search, rows marked here."""
        focused = self.focused  # the table first: before the main screen is up, no search bar
        return (
            isinstance(focused, MemoryTable)
            and focused.id == "memories"
            and bool(focused.marks)
            and not self.search_bar.display
        )

    def action_escape_list(self) -> None:
        """Esc: the first press clears a search (marks kept); from the preview it goes back to
        the list. Then Esc clears the marks: `search.unmark`, bound before it."""
        if self.search_bar.display:
            self.action_clear_search()
        elif self.focused is not self.table:
            self.set_focus(self.table)

    def action_clear_marks(self) -> None:
        """Esc on the list with no search (`search.unmark`, the footer's `Esc Unmark`)."""
        if self.table.marks:
            count = len(self.table.marks)
            self.table.clear_marks()
            self.notify(f"{count} mark{'s' if count != 1 else ''} cleared", timeout=3)

    # --- acting on the marks ---------------------------------------------------------------------

    def act_on_marks(self, action: str, step: int = 0) -> bool:
        """Run `action` (critical, importance or edit) on the marked memories; False when
        nothing is marked, so the key acts on the selected memory as before."""
        marked = self.marked_memories()
        if not marked:
            return False
        from ..core.writing import bulk_edits

        if action == "critical":
            self._confirm_bulk(marked, lambda ms, read: bulk_edits.toggle_critical(ms, read))
        elif action == "importance":
            self._confirm_bulk(marked, lambda ms, read: bulk_edits.step_importance(ms, step, read))
        elif action == "edit":
            self._open_bulk_form(marked)
        return True

    def _confirm_bulk(
        self,
        marked: list[Memory],
        make: Callable[[list[Memory], bulk_edits.Reader | None], BulkPlan],
    ) -> None:
        """Ask before a change of more than one file (naming them), then make it as one plan
        from the records as they were shown: a file changed since is skipped and named."""
        from ..core.writing import bulk_edits
        from .screens.confirm import ConfirmScreen

        def run() -> None:
            self.change(lambda: make(marked, self.curator.read_bytes).plan)

        try:
            # Files are not read here: the worker reads them, leaving out any that cannot take it.
            bulk = make(marked, None)
        except StoreError as error:
            self.notify(str(error), title="Nothing was written", severity="warning", timeout=6)
            return
        if len(bulk.files) <= 1:
            run()
            return
        lines = first_names([f.path for f in bulk.files])
        left = bulk_edits.left_alone_notice(bulk.left_alone)
        if left:
            lines.append(left[0].upper() + left[1:] + ".")
        lines.append("One change: u undoes all of it.")
        self.push_screen(
            ConfirmScreen(bulk.asks, lines, "Change"),
            lambda yes: run() if yes else None,
        )

    def _open_bulk_form(self, marked: list[Memory]) -> None:
        # Imported on first use: the bulk form is not needed to start.
        from ..core.reading.fields import build_vocabulary
        from .screens.bulk_form import BulkForm

        form = BulkForm(marked, build_vocabulary(self.curator.tree), self.store.today())
        self.push_screen(form, lambda change: self._bulk_saved(marked, change))

    def _bulk_saved(self, marked: list[Memory], change: BulkChange | None) -> None:
        if change is None:
            return
        from ..core.writing import bulk_edits

        self._confirm_bulk(marked, lambda ms, read: bulk_edits.edit_many(ms, change, read))

"""The trash (`t`): what deleting, pruning and deduping put in `.ai/.trash/`, newest first, and
keys to put the selected item back where it came from, or beside it as a copy, and to empty the
trash for good after asking. Damaged entries are listed after the others, with the reason, and
are never restored.

What an undo set aside (the copies a promotion made, index files an index write created: no
one's work but the undone change's, kept whole for redo) is counted apart and folded away; `a`
lists it after the rest, and emptying the trash deletes it too, saying so."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static
from textual.worker import get_current_worker

from ...core.basics.model import Kind, kind_of_path
from ...core.reading.scan import PENDING_DIR
from ...core.writing import edits, trash
from ...core.writing.atomic import StoreError
from ...core.writing.edits import name_of
from ..visible_text import shown
from ..widgets.fitted_footer import FittedFooter
from ..widgets.memory_table import Column, MemoryTable, TableRow
from ..widgets.preview import Preview
from ..workers import background
from .confirm import ConfirmScreen
from .live_screen import LiveScreen


def human_size(size: int) -> str:
    """`512 bytes`, `3.4 KB`, `1.2 MB`."""
    if size < 1024:
        return f"{size} byte{'s' if size != 1 else ''}"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / 1024 / 1024:.1f} MB"


SHOWN = 8
"""Paths the empty question names; the rest are counted."""
COLUMNS = (Column("Item"), Column("From", 15), Column("Trashed", 16))
EMPTY = "The trash is empty."
DAMAGED = "damaged"
EMPTY_HELP = (
    "Deleting a memory (d), a prune or a dedupe moves files here, to .ai/.trash/ inside the tree; "
    "nothing is deleted outright. Whatever lands here can be put back where it came from with r."
)
EMPTY_KEY = "E"
SET_ASIDE_KEY = "a"
SET_ASIDE = "set aside"
"""The From column of an entry an undo set aside."""
SET_ASIDE_HELP = (
    "What undone changes made themselves (the copies a promotion wrote, index files an index "
    "write created) is kept here as they made it, so that redo can bring it back. None of it is "
    "anyone's own work: it is folded away, and goes when the trash is emptied."
)


def origin(path: str) -> str:
    """Where an item came from, in a word: its kind, or `Pending update`."""
    kind = kind_of_path(path)
    if kind is None:
        return path.rpartition("/")[0] or "(tree root)"
    if kind is Kind.CURRENT_TASKS and path.startswith(f"{kind.folder}/{PENDING_DIR}/"):
        return "Pending update"
    return kind.label


def trash_row(entry: trash.TrashEntry) -> TableRow:
    name = shown(name_of(entry.path) + ("/" if entry.is_folder else ""))
    when = Text(entry.trashed_at.strftime("%Y-%m-%d %H:%M"), style="dim")
    if entry.set_aside:
        name.stylize("dim")
        return TableRow(entry.id, (name, Text(SET_ASIDE, style="dim italic"), when))
    return TableRow(entry.id, (name, shown(origin(entry.path)), when))


def counted(count: int, noun: str = "item") -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def damaged_row(damaged: trash.Damaged) -> TableRow:
    return TableRow(damaged.id, (Text(damaged.id), Text(DAMAGED, style="red"), Text("")))


class TrashRead(Message):
    """The trash's entries, read off the UI thread."""

    def __init__(self, listing: trash.Listing) -> None:
        super().__init__()
        self.listing = listing


class TrashScreen(LiveScreen):
    """Lists the trash and restores from it; restoring never overwrites anything."""

    HELP_TITLE = "Trash"
    HELP_PURPOSE = (
        "What is in .ai/.trash/ and where each file came from. Restoring puts a file back where "
        "it was and never overwrites anything; a copy goes beside it as <name>_restored.md. "
        "Emptying deletes for good, after asking: the one place the app really deletes files."
    )
    HELP_KEYS = {
        "trash.restore": "Restore the selected file to where it came from",
        "trash.restore_copy": "Restore it as a copy beside its place, never over a file",
        "trash.empty": "Delete everything in the trash for good, after asking",
        "trash.set_aside": "List or fold away what undo set aside (copies undone changes made)",
    }

    BINDINGS = [
        Binding("r,enter", "restore", "Restore", id="trash.restore"),
        Binding("c", "restore_copy", "Restore as copy", id="trash.restore_copy"),
        Binding(EMPTY_KEY, "empty", "Empty the trash", id="trash.empty"),
        Binding(SET_ASIDE_KEY, "toggle_set_aside", "Set aside", id="trash.set_aside"),
        Binding("escape", "close", "Close", id="trash.close"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[trash.TrashEntry] = []
        self.damaged: list[trash.Damaged] = []
        self.problem: str | None = None
        """Why the trash folder cannot be used at all, or None."""
        self.showing_set_aside = False
        """Whether what undo set aside is listed (after the rest) or folded away."""
        self._read = False

    def compose(self) -> ComposeResult:
        yield Static(id="trash-head")
        with Horizontal(id="trash-panes"):
            with Vertical(id="trash-list-pane"):
                yield MemoryTable(COLUMNS, id="trash-list")
            yield Preview(id="trash-preview")
        yield FittedFooter()

    @property
    def table(self) -> MemoryTable:
        return self.query_one("#trash-list", MemoryTable)

    def on_mount(self) -> None:
        self.table.empty_message = "Reading the trash…"
        self.table.focus()
        self._show_head()
        self.read_trash()

    def tree_changed(self, changed: tuple[str, ...]) -> None:
        # A restore, an undo or a delete elsewhere: each changes what the trash holds.
        self.read_trash()

    @background(thread=True, exclusive=True, group="trash")
    def read_trash(self) -> None:
        listing = self.app.curator.store.trash_listing()
        if not get_current_worker().is_cancelled:
            self.post_message(TrashRead(listing))

    @on(TrashRead)
    async def _trash_read(self, message: TrashRead) -> None:
        self.entries = list(message.listing.entries)
        self.damaged = list(message.listing.damaged)
        self.problem = message.listing.problem
        self._read = True
        self.refresh_bindings()
        await self._list()

    @property
    def own(self) -> list[trash.TrashEntry]:
        """The entries listed at once: all but what undo set aside."""
        return [entry for entry in self.entries if not entry.set_aside]

    @property
    def set_aside(self) -> list[trash.TrashEntry]:
        """What undo set aside: what undone changes made, folded away unless asked for."""
        return [entry for entry in self.entries if entry.set_aside]

    async def _list(self, select: str | None = None) -> None:
        self._show_head()
        rows = [trash_row(entry) for entry in self.own]
        if self.showing_set_aside:
            rows += [trash_row(entry) for entry in self.set_aside]
        rows += [damaged_row(damaged) for damaged in self.damaged]
        empty = self.problem or EMPTY
        if self.set_aside and not self.showing_set_aside:
            empty = f"Set aside by undo only: [{SET_ASIDE_KEY}] lists it"
        self.table.set_rows(rows, empty_message=empty, select=select)
        if self.problem:
            self.query_one(Preview).show_message("The trash cannot be used", self.problem)
        elif not rows and self.set_aside:
            self.query_one(Preview).show_message("Set aside by undo", SET_ASIDE_HELP)
        elif not rows:
            self.query_one(Preview).show_message(EMPTY, EMPTY_HELP)
        else:
            await self._show(self.table.selected_key)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `a` is offered (in the footer too) only while undo has set something aside.
        if action == "toggle_set_aside":
            return bool(self.set_aside)
        return super().check_action(action, parameters)

    async def action_toggle_set_aside(self) -> None:
        """List what undo set aside after the rest, or fold it away again."""
        if not self.set_aside:
            return
        self.showing_set_aside = not self.showing_set_aside
        await self._list(select=self.table.selected_key)

    def _show_head(self) -> None:
        head = Text("Trash", style="bold")
        if self._read:
            head.append(f"  {counted(len(self.own))} in {trash.TRASH_DIR}/")
            if self.set_aside:
                does = "hides" if self.showing_set_aside else "lists"
                head.append(
                    f"  ·  {len(self.set_aside)} set aside by undo ([{SET_ASIDE_KEY}] {does})",
                    style="dim",
                )
            if self.damaged:
                head.append(f"  ·  {len(self.damaged)} damaged, left as they are", style="red")
            head.append(
                "  ·  r restores to where it came from, c as a copy beside it, u undoes",
                style="dim",
            )
        self.query_one("#trash-head", Static).update(head)

    @on(MemoryTable.Highlighted, "#trash-list")
    async def _highlighted(self, message: MemoryTable.Highlighted) -> None:
        await self._show(message.key)

    async def _show(self, entry_id: str | None) -> None:
        preview = self.query_one(Preview)
        damaged = self.damaged_entry(entry_id)
        if damaged is not None:
            preview.show_message(f"Damaged: {damaged.id}", damaged.reason)
            return
        entry = self.entry(entry_id)
        if entry is None:
            return
        seen = trash.peek(self.app.curator.store.root, entry, self.app.curator.store.today())
        if seen.memory is not None:
            await preview.show_memory(seen.memory)
        else:
            preview.show_message(seen.path, seen.text)

    def entry(self, entry_id: str | None) -> trash.TrashEntry | None:
        return next((e for e in self.entries if e.id == entry_id), None)

    def damaged_entry(self, entry_id: str | None) -> trash.Damaged | None:
        return next((d for d in self.damaged if d.id == entry_id), None)

    def action_restore(self) -> None:
        entry = self._restorable()
        if entry is None:
            return
        plan = edits.restore(entry)
        self.app.change(lambda: plan)

    def _restorable(self) -> trash.TrashEntry | None:
        """The selected entry, or None having said why nothing can be restored."""
        damaged = self.damaged_entry(self.table.selected_key)
        if damaged is not None:
            self.notify(
                f"{damaged.id} cannot be restored: {damaged.reason}",
                title="Nothing was restored",
                severity="error",
                timeout=8,
                markup=False,
            )
            return None
        entry = self.entry(self.table.selected_key)
        if entry is None:
            said = self.problem or "The trash is empty: nothing to restore"
            self.notify(said, timeout=3, markup=False)
        return entry

    def action_restore_copy(self) -> None:
        """Restore the selected file under a new name beside its old place (`<name>_restored`),
        never over anything; the trash keeps its own copy until it is emptied."""
        entry = self._restorable()
        if entry is None:
            return
        root = self.app.curator.store.root
        self.app.change(lambda: edits.restore_copy(root, entry))

    def action_empty(self) -> None:
        """Delete everything listed for good, after a question naming the count and size."""
        if not self.entries:
            said = self.problem or "The trash is empty: nothing to delete"
            self.notify(said, timeout=3, markup=False)
            return
        root = self.app.curator.store.root
        shown = list(self.entries)
        size = sum(trash.size_of(root, entry) for entry in shown)
        count = counted(len(shown))
        lines = [
            f"{count}, {human_size(size)}, deleted for good: this cannot be undone,",
            "and u no longer brings back a delete of this session that went into it.",
        ]
        aside = sum(entry.set_aside for entry in shown)
        if aside:
            lines.append(f"{aside} of them set aside by undo: copies undone changes made.")
        lines += [f"  {entry.path}" for entry in shown[:SHOWN]]
        if len(shown) > SHOWN:
            lines.append(f"  … and {len(shown) - SHOWN} more")
        if self.damaged:
            lines.append(f"{len(self.damaged)} damaged entries stay as they are.")

        def answered(yes: bool | None) -> None:
            if yes:
                self.empty_entries([entry.id for entry in shown])

        question = ConfirmScreen(
            f"Empty the trash: delete {count} for good?", lines, "Delete for good", danger=True
        )
        self.app.push_screen(question, answered)

    @background(thread=True, exclusive=True, group="trash-empty")
    def empty_entries(self, entry_ids: list[str]) -> None:
        try:
            emptied = self.app.curator.empty_trash(entry_ids)
        except StoreError as error:
            self.app.call_from_thread(
                self.notify, str(error), title="Nothing more was deleted", severity="error"
            )
            return
        timeout = 8 if emptied.no_undo or emptied.no_redo else 4
        self.app.call_from_thread(self.notify, emptied.message, timeout=timeout, markup=False)
        self.app.call_from_thread(self.read_trash)

    def action_close(self) -> None:
        self.dismiss(None)

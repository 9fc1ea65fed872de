"""The bootstrap preview: what the assistant loads at session start, for the signals typed in.

The plan is the core's (core/views/bootstrap.py); this screen asks for it again whenever the
signals or the tree change, in a worker, since a tree of 10,000 memories takes tens of
milliseconds to plan.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Label, Select, Static

from ...core.basics.model import Tree
from ...core.basics.visible import visible
from ...core.views.bootstrap import (
    BootstrapPlan,
    NearMiss,
    OnDemand,
    PlanItem,
    Signals,
    UnknownProject,
    active_projects,
    estimate_tokens,
    plan,
)
from ...core.views.bootstrap_markdown import DISAGREES, render
from ...core.views.naming import names_of
from ...core.writing.atomic import StoreError, digest_of
from .. import keys
from ..bootstrap_rows import (
    DISAGREEMENT_HELP,
    DISAGREEMENT_TITLE,
    WIDE_COLUMNS,
    BudgetLine,
    Disagreement,
    Entry,
    Heading,
    Named,
    Note,
    budget_bar,
    entries,
    entry_key,
    entry_row,
    index_entry_text,
    plan_columns,
    split_signals,
    why_text,
    why_wanted,
)
from ..visible_text import shown, visible_text
from ..widgets.fitted_footer import FittedFooter
from ..widgets.memory_table import LazyRows, MemoryTable
from ..widgets.preview import Preview
from ..widgets.safe_select import SafeSelect
from ..workers import background
from .confirm import ConfirmScreen
from .export import ExportScreen, ExportTarget, save_export
from .live_screen import LiveScreen

DEBOUNCE = 0.15
"""Seconds of quiet typing before the plan is asked for again."""

NO_PROJECT = "none chosen"
"""The project picker with no choice made, where the plan takes no project by itself."""
AUTOMATIC = "automatic"
"""The picker's blank choice while a project is chosen and the tree changed since the plan
last took one by itself."""
REPO_EXAMPLE = "owner/name"
"""The Repo field's placeholder: the shape of a repo signal, naming no one's repo."""


# --- messages ------------------------------------------------------------------------------------


class PlanReady(Message):
    """A plan for request `number`; stale when a newer request was made since."""

    def __init__(self, number: int, result: BootstrapPlan | None, error: str = "") -> None:
        super().__init__()
        self.number = number
        self.result = result
        self.error = error


# --- the screen ----------------------------------------------------------------------------------


class BootstrapScreen(LiveScreen):
    """The plan in load order against the budget, the signals that shape it, and a preview."""

    HELP_TITLE = "Bootstrap preview"
    HELP_PURPOSE = (
        "What the assistant loads at the start of a session, in order, with the reason for each "
        "file and its size against the token budget. Changing a memory here changes the plan."
    )
    HELP_KEYS = {
        "bootstrap.toggle_critical": "Mark or unmark the selected memory as read every session",
        "bootstrap.export": "Write the plan to a file (Markdown or JSON)",
    }
    HELP_NOTES = (
        (
            "Markers in the list",
            (
                ("✗", "Beyond the token budget: below the line where it runs out"),
                (DISAGREES, "The index and the file disagree (the preview says where)"),
                ("·", "Not loaded, though close: its reason says what it lacks"),
            ),
        ),
    )

    BINDINGS = [
        Binding("escape", "close", "Close", id="bootstrap.close"),
        Binding("c", "toggle_critical", "Critical", id="bootstrap.toggle_critical"),
        Binding(
            "plus,equals_sign",
            "step_importance(1)",
            "Raise importance",
            key_display="+",
            id="bootstrap.raise_importance",
        ),
        Binding(
            "minus",
            "step_importance(-1)",
            "Lower importance",
            key_display="-",
            id="bootstrap.lower_importance",
        ),
        Binding("x", "export", "Export", id="bootstrap.export"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.result: BootstrapPlan | None = None
        """The plan on show."""
        self._asked = 0
        self._shown = 0
        self._timer: Timer | None = None
        self._entries: list[Entry] = []
        self._near_tokens: dict[str, int] = {}
        self._projects: list[str] = []
        self._why_wanted = 0

    def compose(self) -> ComposeResult:
        with Horizontal(id="bootstrap-signals"):
            yield Label("Project", classes="bootstrap-label")
            yield SafeSelect[str]([], prompt=NO_PROJECT, compact=True, id="bootstrap-project")
            for name, hint in (
                ("repo", REPO_EXAMPLE),
                ("paths", "e.g. a/b.py, tests/"),
                ("keywords", "comma-separated"),
            ):
                yield Label(name.capitalize(), classes="bootstrap-label")
                yield Input(placeholder=hint, compact=True, id=f"bootstrap-{name}")
        yield Static(id="bootstrap-budget")
        with Horizontal(id="bootstrap-panes"):
            yield MemoryTable(WIDE_COLUMNS, id="bootstrap-plan")
            with Vertical(id="bootstrap-side"):
                yield Static(id="bootstrap-why")
                yield Preview(id="bootstrap-preview")
        yield FittedFooter()

    @property
    def table(self) -> MemoryTable:
        return self.query_one("#bootstrap-plan", MemoryTable)

    @property
    def budget(self) -> int:
        return self.app.settings.bootstrap_budget

    def on_mount(self) -> None:
        # The keymap's word over any default here, Critical and importance moving with the
        # list's keys (keys.screen_keys); the app said any clash when it read the settings.
        found = keys.screen_keys(type(self), self.app.settings.keys)
        keys.rebind(self, found.keys)
        self.refresh_bindings()
        self.table.empty_message = "Working out the plan…"
        self._update_projects()
        self.table.focus()
        self.ask()

    # --- signals ---------------------------------------------------------------------------------

    def signals(self) -> Signals:
        """What the inputs say now."""
        project = self.query_one("#bootstrap-project", Select).value
        return Signals(
            project=project if isinstance(project, str) else None,
            repos=split_signals(self.query_one("#bootstrap-repo", Input).value),
            paths=split_signals(self.query_one("#bootstrap-paths", Input).value),
            keywords=split_signals(self.query_one("#bootstrap-keywords", Input).value),
        )

    def _update_projects(self) -> None:
        """Offer the active projects; keep the one chosen while it is still active."""
        names = active_projects(self.app.curator.tree)
        if names == self._projects:
            return
        self._projects = names
        select = self.query_one("#bootstrap-project", Select)
        chosen = select.value
        with select.prevent(Select.Changed):
            select.set_options([(shown(name), name) for name in names])
            if chosen in names:
                select.value = chosen

    def _show_project(self, result: BootstrapPlan) -> None:
        """With no project chosen, the picker names the one the plan took by itself (its
        prompt, which is also what the list's blank choice reads)."""
        select = self.query_one("#bootstrap-project", Select)
        if select.value != Select.NULL:
            return  # the plan's project is the one chosen, which the picker shows
        if result.project is not None:
            prompt = visible(f"{result.project} (auto)")
        else:
            prompt = NO_PROJECT if self._projects else "no active project"
        if select.prompt != prompt:
            select.prompt = prompt

    @on(Input.Changed)
    def _typed(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self.ask)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.table.focus()

    @on(Select.Changed, "#bootstrap-project")
    def _project_chosen(self) -> None:
        self.ask()

    # --- the plan --------------------------------------------------------------------------------

    def ask(self) -> None:
        """Ask for the plan again with the signals on screen and the newest tree."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._asked += 1
        curator = self.app.curator
        self._make_plan(self._asked, curator.tree, self.signals(), curator.store.today())

    @background(thread=True, group="bootstrap-plan")
    def _make_plan(self, number: int, tree: Tree, signals: Signals, today: dt.date) -> None:
        try:
            result = plan(tree, signals, today, self.budget)
        except UnknownProject as error:
            self.post_message(PlanReady(number, None, str(error)))
            return
        self.post_message(PlanReady(number, result))

    @property
    def pending(self) -> bool:
        """True while typing is waited out or a plan asked for is not on screen yet."""
        return self._timer is not None or self._shown != self._asked

    @on(PlanReady)
    def _plan_ready(self, message: PlanReady) -> None:
        if message.number != self._asked:
            return
        self._shown = message.number
        if message.result is None:
            # The chosen project stopped being a current task (completed, renamed) meanwhile.
            self.notify(
                message.error,
                title="Bootstrap preview",
                severity="warning",
                timeout=6,
                markup=False,
            )
            self.query_one("#bootstrap-project", Select).clear()
            return
        self.show_plan(message.result)

    def show_plan(self, result: BootstrapPlan) -> None:
        """Show a plan: the bar, then every row, the selection kept on the same memory."""
        self.result = result
        self._show_project(result)
        budget = self.budget
        self.query_one("#bootstrap-budget", Static).update(visible_text(budget_bar(result, budget)))
        memories = self.app.curator
        self._near_tokens = {
            m.path: estimate_tokens(memory.chars)
            for m in result.near_misses
            if (memory := memories.get(m.path)) is not None
        }
        self._entries = entries(result, budget, self._near_tokens)
        self._why_wanted = why_wanted(self._entries, result.project)
        self._fill_table()

    def _fill_table(self, select: str | None = None) -> None:
        table = self.table
        # The width inside the scrollbar the rows will bring: it is not there yet the first time.
        region = table.content_region
        overflows = len(self._entries) + 1 > region.height
        width = region.width - len(table.MARK)
        width -= table.styles.scrollbar_size_vertical if overflows else 0
        columns = plan_columns(width, self._why_wanted) if table.size.width else WIDE_COLUMNS
        wide = len(columns) == len(WIDE_COLUMNS)
        keys = [entry_key(entry, i) for i, entry in enumerate(self._entries)]
        budget, near, result = self.budget, self._near_tokens, self.result
        assert result is not None
        named = self._named()
        rows = LazyRows(
            keys,
            lambda i: entry_row(self._entries[i], keys[i], result, budget, near, wide, named),
        )
        before = select or table.selected_key
        if before is None or before not in set(keys):
            before = next((k for k in keys if not k.startswith("#")), None)
        table.set_rows(rows, columns, select=before)
        self.call_later(self._show_selected)

    def _named(self) -> Named:
        """A planned file's name as the list and pickers show it (a session's by its
        distinguishing line, with its date); the plan's own title where the tree has no file."""
        curator = self.app.curator
        names = names_of(curator.tree)

        def named(path: str, title: str) -> str:
            memory = curator.get(path)
            return title if memory is None or names.is_plain(memory) else names.shown(memory)

        return named

    @on(MemoryTable.Resized, "#bootstrap-plan")
    def _refit(self) -> None:
        # The columns share the list's width: Why grows with it (bootstrap_rows.plan_columns).
        if self._entries:
            self._fill_table()

    def tree_changed(self, changed: tuple[str, ...]) -> None:
        select = self.query_one("#bootstrap-project", Select)
        if select.value != Select.NULL:
            # Which project the plan would take by itself is known again once it is asked.
            select.prompt = AUTOMATIC
        self._update_projects()
        self.ask()

    # --- the selection ---------------------------------------------------------------------------

    @on(MemoryTable.Highlighted, "#bootstrap-plan")
    async def _highlighted(self) -> None:
        await self._show_selected()

    def _selected_entry(self) -> Entry | None:
        table = self.table
        if not self._entries or table.selected_key is None:
            return None
        return self._entries[table.cursor]

    async def _show_selected(self) -> None:
        entry = self._selected_entry()
        why = self.query_one("#bootstrap-why", Static)
        preview = self.query_one("#bootstrap-preview", Preview)
        memory = (
            self.app.curator.get(entry.path)
            if isinstance(entry, PlanItem | NearMiss | OnDemand)
            else None
        )
        if entry is None or self.result is None:
            why.display = False
            preview.show_message("Bootstrap preview", "Working out the plan…")
            return
        if memory is None and isinstance(entry, PlanItem | NearMiss):
            # A file index.json names that is not in the tree: say what the index knows of it.
            why.update(
                visible_text(
                    why_text(entry, self.result, self.budget, self._near_tokens), multi_line=True
                )
            )
            why.display = True
            if isinstance(entry, PlanItem) and not entry.file_found:
                preview.show_message(entry.title, index_entry_text(entry))
            else:
                preview.show_message(entry.title, f"{entry.path} is not in the tree.")
            return
        if memory is None:
            why.display = False
            title, text = _describe(entry)
            preview.show_message(title, text)
            return
        why.update(
            visible_text(
                why_text(entry, self.result, self.budget, self._near_tokens), multi_line=True
            )
        )
        why.display = True
        await preview.show_memory(memory)

    def _why(self, entry: Entry) -> Text:
        assert self.result is not None
        return why_text(entry, self.result, self.budget, self._near_tokens)

    def _selected_path(self) -> str | None:
        key = self.table.selected_key
        if key is None or key.startswith("#"):
            self.notify("Select a memory first", severity="warning", timeout=3)
            return None
        return key

    def action_toggle_critical(self) -> None:
        if (path := self._selected_path()) is not None:
            self.app.toggle_critical_of(path)

    def action_step_importance(self, step: int) -> None:
        if (path := self._selected_path()) is not None:
            self.app.step_importance_of(path, step)

    def action_close(self) -> None:
        if isinstance(self.focused, Input):
            self.table.focus()  # Esc leaves a field first, so a second Esc is needed to close
            return
        self.dismiss(None)

    # --- export ----------------------------------------------------------------------------------

    def action_export(self) -> None:
        if self.result is None:
            self.notify("The plan is still being worked out", timeout=3)
            return
        markdown = render(self.result, self.budget, self._named())
        self.app.push_screen(
            ExportScreen(Path.cwd()), lambda target: self._export(target, markdown)
        )

    def _export(self, target: ExportTarget | None, markdown: str) -> None:
        if target is None:
            return
        if target.path is None:
            self.app.copy_to_clipboard(markdown)
            self.notify(
                "Bootstrap plan copied to the clipboard (where the terminal allows it)", timeout=4
            )
            return
        path = target.path
        data = markdown.encode("utf-8")
        if not os.path.lexists(path):
            self._save(path, data, None)
            return
        if path.is_dir():
            self.notify(
                f"{path} is a folder; name a file",
                title="Nothing was written",
                severity="error",
                timeout=8,
                markup=False,
            )
            return
        expected = digest_of(path)

        def confirmed(yes: bool | None) -> None:
            if yes:
                self._save(path, data, expected)

        self.app.push_screen(
            ConfirmScreen(
                f"Replace {path.name}?",
                [str(path), "The file is there already; the plan would replace what it holds."],
                "Replace",
                danger=True,
            ),
            confirmed,
        )

    def _save(self, path: Path, data: bytes, expected: str | None) -> None:
        try:
            save_export(path, data, expected)
        except (StoreError, OSError) as error:
            self.notify(
                f"cannot write {path}: {error}",
                title="Nothing was written",
                severity="error",
                timeout=8,
                markup=False,
            )
            return
        self.notify(f"Bootstrap plan saved to {path}", timeout=4, markup=False)


def _describe(entry: Entry) -> tuple[str, str]:
    """The side panel's title and text for a row that is not a memory."""
    if isinstance(entry, Heading):
        return entry.title, entry.help
    if isinstance(entry, BudgetLine):
        return (
            "Budget",
            f"Everything below this line is past the budget of {entry.budget:,} tokens "
            "(`[bootstrap] budget` in the settings file).",
        )
    if isinstance(entry, Note):
        return "Note", entry.text
    if isinstance(entry, Disagreement):
        return DISAGREEMENT_TITLE, f"{entry.text}\n\n{DISAGREEMENT_HELP}"
    return "Gone", "This file is no longer in the tree."

"""The confirmation of a reviewed batch: what it does, and what it does to the bootstrap (the
tokens it frees, the files that stop or start loading, the critical memories it touches), worked
out in a worker so no key waits for it. Side by side (before, after) on a wide terminal, stacked
on a narrow one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from ...core.basics.model import Memory, Tree
from ...core.basics.plans import Plan
from ...core.views.bootstrap import Tier, UnknownProject
from ...core.views.bootstrap_change import (
    BootstrapChange,
    FileChange,
    Unforeseeable,
    bootstrap_change,
)
from ..visible_text import shown
from ..workers import background
from .confirm import ConfirmScreen

SIDE_BY_SIDE_WIDTH = 110
"""Terminal columns from which before and after are shown side by side."""
SHOWN_FILES = 8
"""Files named per list; the rest are counted."""
WORKING = "Working out what the assistant loads at start-up after this…"

_TIER_WORDS = {
    Tier.CRITICAL: "critical",
    Tier.FREQUENT: "frequent",
    Tier.PROJECT: "project",
    Tier.RECENT_HIGH: "recent",
    Tier.RUNBOOK: "runbook",
    Tier.ON_DEMAND: "on demand",
}


class ChangeWorkedOut(Message):
    """The bootstrap change of the batch, or why it cannot be told."""

    def __init__(self, change: BootstrapChange | None, error: str = "") -> None:
        super().__init__()
        self.change = change
        self.error = error


def tier_word(tier: Tier | None, gone: bool = False) -> str:
    if tier is None:
        return "trashed" if gone else "not loaded"
    return _TIER_WORDS[tier]


def _tokens(n: int) -> str:
    return f"{n:,} token{'s' * (n != 1)}"


def summary(change: BootstrapChange) -> str:
    """`Bootstrap: 4,518 → 4,254 tokens (264 freed)`."""
    freed = change.freed
    said = f"{freed:,} freed" if freed > 0 else f"{-freed:,} more" if freed < 0 else "no change"
    return f"Bootstrap: {change.tokens_before:,} → {_tokens(change.tokens_after)} ({said})"


def _changes_what_loads(row: FileChange) -> bool:
    """Whether the row says a change: a file that loads in the same tier after the batch (a
    critical memory promoted, loaded from its new path) changes nothing the assistant reads."""
    return row.gone or row.before is not row.after


def _moves(change: BootstrapChange) -> list[FileChange]:
    return [r for r in change.moves if _changes_what_loads(r)]


def _rows(change: BootstrapChange) -> list[FileChange]:
    return [*change.stops, *_moves(change), *change.starts]


def _before_cell(row: FileChange) -> str:
    if not row.loads_before:
        return f"  {row.title} · {tier_word(row.before)}"
    return f"− {row.title} · {tier_word(row.before)} · {_tokens(row.tokens_before)}"


def _after_cell(row: FileChange) -> str:
    if row.loads_after:
        mark = "+" if not row.loads_before else "→"
        return f"{mark} {row.title} · {tier_word(row.after)} · {_tokens(row.tokens_after)}"
    return f"  {row.title} · {tier_word(row.after, row.gone)}"


def _critical_lines(change: BootstrapChange) -> list[str]:
    return [
        f"★ {c.title}: {tier_word(c.before)} → {tier_word(c.after, c.gone)}"
        for c in change.critical
        if _changes_what_loads(c)
    ]


def _cut(items: Sequence[str]) -> list[str]:
    shown_items = list(items[:SHOWN_FILES])
    if len(items) > SHOWN_FILES:
        shown_items.append(f"… and {len(items) - SHOWN_FILES} more")
    return shown_items


def render_change(change: BootstrapChange, wide: bool) -> RenderableType:
    """The change in words, every piece of user text shown, never as markup."""
    head = Text()
    head.append_text(shown(summary(change), style="bold"))
    rows = _rows(change)
    critical = _critical_lines(change)
    if not rows and not critical:
        head.append("\nThe same files load at start-up.")
        return head
    parts: list[RenderableType] = [head]
    if wide:
        grid = Table.grid(padding=(0, 2), expand=True)
        grid.add_column(ratio=1)
        grid.add_column(ratio=1)
        grid.add_row(shown("Loads now", style="bold"), shown("After the batch", style="bold"))
        for row in rows[:SHOWN_FILES]:
            grid.add_row(shown(_before_cell(row)), shown(_after_cell(row)))
        if len(rows) > SHOWN_FILES:
            grid.add_row(shown(f"… and {len(rows) - SHOWN_FILES} more"), Text(""))
        parts.append(grid)
    else:
        stops = [_before_cell(r) for r in change.stops]
        starts = [_after_cell(r) for r in change.starts]
        moves = [
            f"→ {r.title}: {tier_word(r.before)} → {tier_word(r.after)}"
            + (" (new path)" if r.was else "")
            for r in _moves(change)
        ]
        for title, items in (("Stop loading", stops), ("Start loading", starts), ("Move", moves)):
            if items:
                parts.append(shown("\n".join([title, *_cut(items)]), multi_line=True))
    if critical:
        parts.append(shown("\n".join(["Critical memories", *_cut(critical)]), multi_line=True))
    return Group(*parts)


class BatchConfirmScreen(ConfirmScreen):
    """ConfirmScreen for a reviewed batch, with its bootstrap change below its lines; the two
    scroll together between the title and the buttons, which stay on screen."""

    BINDINGS = [
        Binding(
            "pagedown", "scroll_body('page_down')", "Scroll down", show=False, id="batch.page_down"
        ),
        Binding("pageup", "scroll_body('page_up')", "Scroll up", show=False, id="batch.page_up"),
        Binding("down", "scroll_body('down')", "Scroll down", show=False, id="batch.down"),
        Binding("up", "scroll_body('up')", "Scroll up", show=False, id="batch.up"),
    ]

    def __init__(
        self,
        title: str,
        lines: Sequence[str],
        plan: Plan,
        tree: Tree[Memory],
        today: dt.date,
        budget: int | None,
        danger: bool = False,
    ) -> None:
        super().__init__(title, lines, "Apply", danger=danger)
        self._plan, self._tree, self._today, self._budget = plan, tree, today, budget
        self.change: BootstrapChange | None = None
        self._waiting = True

    @property
    def pending(self) -> bool:
        """True until the bootstrap change is on screen (the test harness waits for it)."""
        return self._waiting

    def compose_more(self) -> ComposeResult:
        yield Static(Text(WORKING, style="dim"), id="batch-bootstrap")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(".dialog-box").add_class("batch-box")
        self._work_out()

    @background(thread=True, group="bootstrap-change", exclusive=True)
    def _work_out(self) -> None:
        try:
            change = bootstrap_change(self._tree, self._plan, self._today, budget=self._budget)
        except (Unforeseeable, UnknownProject) as error:
            self.post_message(ChangeWorkedOut(None, str(error)))
            return
        self.post_message(ChangeWorkedOut(change))

    @on(ChangeWorkedOut)
    def _worked_out(self, message: ChangeWorkedOut) -> None:
        self._waiting = False
        self.change = message.change
        if message.change is None:
            self._said(message.error)
            return
        self._draw()

    def action_scroll_body(self, how: str) -> None:
        """The plan and its bootstrap change scroll while the focus stays on the buttons."""
        for body in self.query(".dialog-lines").results(VerticalScroll):
            getattr(body, f"scroll_{how}")(animate=False)

    def on_resize(self) -> None:
        if not self._waiting:
            self._draw()

    def _draw(self) -> None:
        found = self.query("#batch-bootstrap").results(Static)
        panel = next(iter(found), None)
        if panel is None or self.change is None:
            return
        wide = self.app.size.width >= SIDE_BY_SIDE_WIDTH
        panel.update(render_change(self.change, wide))

    def _said(self, error: str) -> None:
        for panel in self.query("#batch-bootstrap").results(Static):
            panel.update(shown(f"What the bootstrap loads after it cannot be told: {error}"))

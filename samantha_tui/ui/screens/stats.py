"""Stats (`s`): the tree as bars and a chart, to glance at rather than read.

The numbers come from `core.stats`, computed in a thread worker; the index drift follows once the
curator has compared the indexes (half a second at 10,000 memories), with "checking…" until then.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from ...core.views.indexes import DriftReport
from ...core.views.stats import (
    CRITICAL_ADVISED,
    DriftSummary,
    MonthCount,
    TreeStats,
    drift_summary,
    stats,
)
from ..rows import IMPORTANCE_STYLE
from ..visible_text import shown
from ..widgets.fitted_footer import FittedFooter
from ..workers import background
from .live_screen import LiveScreen

EIGHTHS = " ▏▎▍▌▋▊▉"
"""Left-aligned partial blocks, one to seven eighths of a cell wide."""
RISING = " ▁▂▃▄▅▆▇"
"""Bottom-aligned partial blocks, one to seven eighths of a cell high."""
VERDICT_STYLE = {"ok": "bold green", "too few": "bold yellow", "too many": "bold red"}
# Low keeps the bar colour: dimmed, it would look like "unset".
LEVEL_STYLE = {
    "low": "",
    "medium": IMPORTANCE_STYLE["medium"],
    "high": IMPORTANCE_STYLE["high"],
    "unset": "dim",
    "invalid": "bold red",
}


@dataclasses.dataclass(frozen=True)
class BarRow:
    """One bar: its label (user text as Text), its count, and a rich style ("" for the default)."""

    label: Text
    count: int
    style: str = ""


def hbar(count: int, maximum: int, width: int) -> str:
    """A bar of `width` cells at most, scaled to `maximum`, in eighths; never empty for a count."""
    if count <= 0 or maximum <= 0 or width <= 0:
        return ""
    units = max(round(count / maximum * width * 8), 1)
    full, part = divmod(units, 8)
    return "█" * full + (EIGHTHS[part] if part else "")


def bar_lines(rows: Sequence[BarRow], width: int, bar_style: Style) -> Text:
    """Label, bar and count per row, the columns lined up across rows."""
    maximum = max((row.count for row in rows), default=0)
    label_width = min(max(row.label.cell_len for row in rows), max(6, width * 3 // 5))
    count_width = max(len(f"{row.count:,}") for row in rows)
    bar_width = max(width - label_width - count_width - 2, 1)
    text = Text(no_wrap=True, overflow="ellipsis")
    for number, row in enumerate(rows):
        if number:
            text.append("\n")
        label = row.label.copy()
        label.truncate(label_width, overflow="ellipsis", pad=True)
        text.append_text(label)
        text.append(" ")
        bar = hbar(row.count, maximum, bar_width)
        text.append(bar, style=row.style or bar_style)
        text.append(" " * (bar_width - len(bar) + 1))
        text.append(f"{row.count:,}".rjust(count_width), style="bold" if row.count else "dim")
    return text


class Bars(Widget):
    """A bordered panel of horizontal bars, drawn to the width it is given."""

    COMPONENT_CLASSES = {"bars--bar", "bars--empty"}

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="stats-panel")
        self.border_title = title
        self.rows: tuple[BarRow, ...] = ()
        self.empty = "…"

    def show(self, rows: Sequence[BarRow], empty: str = "none") -> None:
        self.rows, self.empty = tuple(rows), empty
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(len(self.rows), 1)

    def render(self) -> Text:
        if not self.rows:
            return Text(self.empty, style=self.get_component_rich_style("bars--empty"))
        bar_style = self.get_component_rich_style("bars--bar", partial=True)
        return bar_lines(self.rows, self.content_size.width, bar_style)


def count_label(count: int, room: int) -> str:
    """The count in at most `room` cells: 1,234, else 1.2k or 12k, else a bare mark."""
    tenths = f"{count / 1000:.1f}k" if count < 10_000 else ""
    for label in (f"{count:,}", tenths, f"{round(count / 1000)}k"):
        if label and len(label) <= room:
            return label
    return "▴"


def month_chart(months: Sequence[MonthCount], width: int, height: int, style: Style) -> Text:
    """Vertical bars per month with the count on top, month names and years under them."""
    if not months or width < len(months) or height < 4:
        return Text()
    column = width // len(months)
    bar_width = max(column - 2, 1) if column >= 4 else max(column - 1, 1)
    left = (width - column * len(months)) // 2
    levels = height - 3  # a row for the tallest count, one for names, one for years
    maximum = max(m.count for m in months)
    tops = []
    for month in months:
        units = max(round(month.count / maximum * levels * 8), 1) if month.count else 0
        tops.append(divmod(units, 8))
    text = Text(no_wrap=True)
    for row in range(levels, -1, -1):
        text.append(" " * left)
        for month, (full, part) in zip(months, tops, strict=True):
            top = full + (1 if part else 0)
            if row < full:
                cell = Text("█" * bar_width, style=style)
            elif row == full and part:
                cell = Text(RISING[part] * bar_width, style=style)
            elif row == top:
                label = count_label(month.count, max(column - 1, 1))
                cell = Text(label, style="bold" if month.count else "dim")
            else:
                cell = Text("")
            cell.truncate(column, overflow="crop")
            cell.align("center", column)
            text.append_text(cell)
        text.append("\n")
    text.append(" " * left)
    for month in months:
        name = month.month.strftime("%b") if column >= 4 else month.month.strftime("%b")[0]
        text.append(name.center(column)[:column], style="bold")
    years = [" "] * (left + column * len(months))
    for number, month in enumerate(months):
        if number == 0 or month.month.month == 1:
            year = str(month.month.year) if column >= 5 else f"'{month.month.year % 100:02d}"
            start = left + number * column + max((column - 3) // 2, 0)
            years[start : start + len(year)] = year
    text.append("\n" + "".join(years)[:width].rstrip(), style="dim")
    return text


class MonthChart(Widget):
    """New memories per month over the last twelve months."""

    COMPONENT_CLASSES = {"month-chart--bar"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.months: tuple[MonthCount, ...] = ()

    def show(self, months: Sequence[MonthCount]) -> None:
        self.months = tuple(months)
        self.refresh()

    def render(self) -> Text:
        style = self.get_component_rich_style("month-chart--bar", partial=True)
        size = self.content_size
        return month_chart(self.months, size.width, size.height, style)


def critical_text(numbers: TreeStats) -> Text:
    """The count, a gauge with the advised band marked, and the verdict in words."""
    low, high = CRITICAL_ADVISED
    verdict = numbers.critical_verdict
    style = VERDICT_STYLE[verdict]
    text = Text()
    text.append(f"★ {numbers.critical} critical  ", style="bold")
    text.append(verdict, style=style)
    text.append("\n")
    for cell in range(1, max(high + 2, numbers.critical) + 1):
        if cell <= numbers.critical:
            text.append("█", style=style)
        else:
            text.append(
                "░" if low <= cell <= high else "·", style="green" if cell <= high else "dim"
            )
    text.append(f"  advised {low}-{high}\n", style="dim")
    if verdict == "too few":
        short = low - numbers.critical
        text.append(f"Mark {short} more rule{'s' if short != 1 else ''} as critical.")
    elif verdict == "too many":
        text.append(f"{numbers.critical - high} over: each is read every session.")
    else:
        text.append("Within the advised range.")
    return text


def curation_text(numbers: TreeStats) -> Text:
    text = Text()
    for count, what in (
        (numbers.prune_candidates, "prune candidates"),
        (numbers.promote_candidates, "promotion candidates"),
    ):
        text.append(f"{count:>5,} ", style="bold" if count else "dim")
        text.append(f"{what}\n")
    text.append("p reviews them one by one.", style="dim")
    return text


def drift_text(drift: DriftSummary | None) -> Text:
    if drift is None:
        return Text("checking…", style="dim italic")
    if not drift.drifted:
        return Text("✓ every index matches the memory files", style="bold green")
    text = Text()
    kinds = len(drift.drifted)
    text.append(f"{kinds} index{'es' if kinds != 1 else ''} to update: ", style="bold yellow")
    text.append(", ".join(kind.label for kind in drift.drifted))
    # In the drift panel's plain words: what each count is, for a person who knows their memory.
    parts = [
        (drift.missing, "not listed yet"),
        (drift.gone, "listed with no file"),
        (drift.disagreeing, "said differently from the file"),
        (drift.files, "index files out of date or missing"),
    ]
    for line in (parts[:3], parts[3:]):
        text.append("\n" + " · ".join(f"{count:,} {what}" for count, what in line))
    text.append("\nr shows the update · i lists them", style="dim")
    return text


class StatsReady(Message):
    """Numbers computed off the UI thread."""

    def __init__(self, numbers: TreeStats) -> None:
        super().__init__()
        self.numbers = numbers


class IndexesRewritten(Message):
    """The indexes were regenerated from this screen: compare them again."""


class StatsScreen(LiveScreen):
    """Memories per kind and importance, new ones per month, topics, projects, the critical count
    against the advised 5-10, curation candidates and index drift."""

    HELP_TITLE = "Stats"
    HELP_PURPOSE = (
        "Memories per kind and importance, new ones per month, topics and projects, the critical "
        "count against the advised 5-10, curation candidates and index drift."
    )

    BINDINGS = [
        Binding("r", "regenerate", "Regenerate indexes", id="stats.regenerate"),
        Binding("escape", "close", "Close", id="stats.close"),
    ]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]

    def __init__(self) -> None:
        super().__init__()
        self.numbers: TreeStats | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Stats", style="bold"), id="stats-head")
        with VerticalScroll(id="stats-body"):
            with Horizontal(classes="stats-row", id="stats-top"):
                with Vertical(classes="stats-panel", id="stats-months") as months:
                    months.border_title = "New memories per month"
                    yield MonthChart(id="stats-month-chart")
                    yield Static(id="stats-month-note")
                with Vertical(classes="stats-column", id="stats-side"):
                    yield Static(id="stats-critical", classes="stats-panel")
                    yield Static(id="stats-curation", classes="stats-panel")
            with Horizontal(classes="stats-row", id="stats-bottom"):
                with Vertical(classes="stats-column"):
                    yield Bars("Memories per kind", id="stats-kinds")
                    yield Bars("Per importance", id="stats-importance")
                with Vertical(classes="stats-column"):
                    yield Bars("Top topics", id="stats-topics")
                with Vertical(classes="stats-column"):
                    yield Bars("Top projects", id="stats-projects")
                    yield Static(id="stats-drift", classes="stats-panel")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.query_one("#stats-critical").border_title = "Critical"
        self.query_one("#stats-curation").border_title = "Curation"
        self.query_one("#stats-drift").border_title = "Index drift"
        self.query_one("#stats-drift", Static).update(drift_text(None))
        self.compute(None)

    def tree_changed(self, changed: tuple[str, ...]) -> None:
        self.compute(changed)

    def indexes_checked(self, report: DriftReport) -> None:
        # The app regenerates indexes on its own after other programs' changes: show the result.
        if self.numbers is not None:
            self.show(dataclasses.replace(self.numbers, drift=drift_summary(report)))

    @background(thread=True, exclusive=True, group="stats")
    def compute(self, changed: tuple[str, ...] | None) -> None:
        """Numbers first (with the drift known so far), then the drift of the kinds `changed`
        feeds (all kinds when None)."""
        curator = self.app.curator
        worker = get_current_worker()
        shown = self.numbers.drift if self.numbers is not None else None
        numbers = stats(curator.tree, curator.store.today(), None)
        if worker.is_cancelled:
            return
        self.post_message(StatsReady(dataclasses.replace(numbers, drift=shown)))
        report = curator.drift(changed)
        if not worker.is_cancelled:
            self.post_message(StatsReady(dataclasses.replace(numbers, drift=drift_summary(report))))

    @on(StatsReady)
    def _ready(self, message: StatsReady) -> None:
        self.show(message.numbers)

    def show(self, numbers: TreeStats) -> None:
        """Draw every panel from one set of numbers."""
        self.numbers = numbers
        head = Text("Stats", style="bold")
        head.append(f"  {numbers.total:,} memories", style="bold")
        head.append(f"  ·  as of {numbers.today.isoformat()}", style="dim")
        self.query_one("#stats-head", Static).update(head)
        self.query_one(MonthChart).show(numbers.per_month)
        self.query_one("#stats-month-note", Static).update(month_note(numbers.per_month))
        self.query_one("#stats-critical", Static).update(critical_text(numbers))
        self.query_one("#stats-curation", Static).update(curation_text(numbers))
        self.query_one("#stats-kinds", Bars).show(
            [BarRow(shown(kind.label), count) for kind, count in numbers.per_kind]
        )
        self.query_one("#stats-importance", Bars).show(
            [
                BarRow(Text(level), count, LEVEL_STYLE[level])
                for level, count in numbers.per_importance
            ]
        )
        self.query_one("#stats-topics", Bars).show(
            [BarRow(shown(topic), count) for topic, count in numbers.top_topics],
            "no memory lists topics",
        )
        self.query_one("#stats-projects", Bars).show(
            [BarRow(shown(project), count) for project, count in numbers.top_projects],
            "no memory names a project",
        )
        self.query_one("#stats-drift", Static).update(drift_text(numbers.drift))

    def action_regenerate(self) -> None:
        self.app.action_regenerate_indexes()
        # Queued behind the regeneration, so the comparison sees the rewritten files.
        self.app.run_in_order(lambda: self.post_message(IndexesRewritten()))

    @on(IndexesRewritten)
    def _rewritten(self) -> None:
        self.compute(())

    def action_close(self) -> None:
        self.dismiss(None)


def month_note(months: Sequence[MonthCount]) -> Text:
    total = sum(m.count for m in months)
    text = Text(f"{total:,} in the last 12 months", style="bold")
    if total:
        busiest = max(months, key=lambda m: (m.count, m.month))
        text.append(
            f"  ·  busiest {busiest.month.strftime('%B %Y')} ({busiest.count:,})", style="dim"
        )
    return text

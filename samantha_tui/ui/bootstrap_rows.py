"""The bootstrap preview's rows: the plan's sections in load order, the budget line, reasons."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

from ..core.basics.visible import visible
from ..core.views.bootstrap import (
    FREQUENT_REFERENCES,
    RECENT_DAYS,
    BootstrapPlan,
    NearMiss,
    OnDemand,
    PlanItem,
    Tier,
)
from ..core.views.bootstrap_markdown import DISAGREES, HEADINGS
from .visible_text import shown
from .widgets.memory_table import Column, TableRow

BAR_WIDTH = 16

TIER_HELP = {
    Tier.CRITICAL: "Memories marked critical: true, short-term then long-term: read every session.",
    Tier.FREQUENT: (
        f"Short-term memories referenced {FREQUENT_REFERENCES} times or more, the most "
        "referenced first."
    ),
    Tier.PROJECT: (
        "The current project's status.md, then the memories its index entries name (high "
        "importance first), then the other active projects' status files. Its other memories "
        f"are near misses, marked {DISAGREES}. Pending project updates are mentioned in the notes."
    ),
    Tier.RECENT_HIGH: f"High-importance short-term memories from the last {RECENT_DAYS} days.",
    Tier.RUNBOOK: (
        "Procedural runbooks whose trigger signals match the repo, paths and keywords above; "
        "a matching negative signal vetoes one."
    ),
}
LIST_HEADINGS = {
    Tier.CRITICAL: "Critical",
    Tier.FREQUENT: "Frequently referenced",
    Tier.PROJECT: "Current project",
    Tier.RECENT_HIGH: "Recent high importance",
    Tier.RUNBOOK: "Runbooks",
}
"""Short enough for the title column; HEADINGS (the Markdown's) say more."""
ON_DEMAND_WHY = "when needed"
ON_DEMAND = ("Long-term, on demand", "Long-term memories not loaded at start: read when needed.")
NEAR_MISSES = ("Near misses", "Memories that just missed a tier, each with why it is out.")
NOTES = (
    "Notes",
    "What the assistant is told at start besides the files, and the kinds planned from their "
    "files because their index.json is missing or unreadable.",
)
DISAGREEMENT_TITLE = "Index and files disagree"
DISAGREEMENT_HELP = (
    "The assistant loads from the index.json files, not from the memory files: where the two "
    "disagree, it goes by the index."
)


def split_signals(text: str) -> tuple[str, ...]:
    """`a, b ,, c` -> ("a", "b", "c"): comma-separated, blanks dropped."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def budget_bar(result: BootstrapPlan, budget: int) -> Text:
    """One line: a bar of the tokens loaded against the budget, and the figures in words."""
    total = result.total_tokens
    filled = min(BAR_WIDTH, round(BAR_WIDTH * total / budget))
    over = total > budget
    line = Text("Budget ", style="bold")
    line.append("█" * filled, style="red" if over else "green")
    line.append("░" * (BAR_WIDTH - filled), style="dim")
    files = len(result.items)
    line.append(f"  {total:,} / {budget:,} tokens · {files} file{'s' * (files != 1)} · ")
    if over:
        cut = next(i for i, item in enumerate(result.items) if item.running_tokens > budget)
        line.append(f"{total - budget:,} over", style="bold red")
        line.append(f", runs out at item {cut + 1}")
    else:
        line.append(f"{budget - total:,} to spare")
    if result.project:
        line.append(" · project ", style="dim")
        line.append(result.project)
    return line


# --- rows ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    title: str
    help: str
    detail: str
    tokens: int | None


@dataclass(frozen=True)
class BudgetLine:
    budget: int


@dataclass(frozen=True)
class Note:
    text: str


@dataclass(frozen=True)
class Disagreement:
    """A detail line under a file: where index.json and the file disagree about it."""

    path: str
    text: str


Entry = Heading | BudgetLine | PlanItem | NearMiss | OnDemand | Note | Disagreement

TITLE, WHY = 1, 2
"""The Title and Why columns' places in a row's cells (Why in wide rows only)."""
NARROW_COLUMNS = (
    Column("", 2),
    Column("Title"),
    Column("Tokens", 6, "right"),
    Column("Total", 6, "right"),
)
FIXED = sum(c.width or 0 for c in NARROW_COLUMNS) + len(NARROW_COLUMNS)
"""Cells the list's fixed columns take with Why among them (each column's separator counted)."""
TITLE_MIN = 28
"""Cells the title keeps before Why gets any more."""
TITLE_SHARE = 0.5
"""At least this share of the room Title and Why share stays the title's: a title names the
memory, and the side panel says the whole note of the row selected."""
WHY_MIN = 10
"""Narrower than this, Why goes and the side panel alone says it."""


def why_column(width: int) -> Column:
    return Column("Why", width)


WIDE_COLUMNS = (*NARROW_COLUMNS[:WHY], why_column(22), *NARROW_COLUMNS[WHY:])
"""The list before it is laid out (its width unknown)."""


def plan_columns(width: int, why_wanted: int) -> tuple[Column, ...]:
    """The list's columns in `width` cells: Why as wide as its longest note where that leaves
    the title its share, elided past that (the side panel says it whole), gone when too narrow."""
    room = width - FIXED
    why_room = room - max(TITLE_MIN, round(room * TITLE_SHARE))
    why = min(max(why_wanted, len("Why")), max(why_room, WHY_MIN))
    if room - why < TITLE_MIN:
        return NARROW_COLUMNS
    return (*NARROW_COLUMNS[:WHY], why_column(why), *NARROW_COLUMNS[WHY:])


def _count(count: int, what: str = "file") -> str:
    return f"{count} {what}{'s' * (count != 1)}" if count else "none"


def entries(result: BootstrapPlan, budget: int, near_tokens: dict[str, int]) -> list[Entry]:
    """Every row of the list, in load order: tiers, on demand, near misses, notes."""
    out: list[Entry] = []
    for tier, heading in LIST_HEADINGS.items():
        items = [item for item in result.items if item.tier is tier]
        detail = _count(len(items))
        tokens = sum(item.tokens for item in items)
        out.append(Heading(heading, TIER_HELP[tier], detail, tokens))
        for item in items:
            if item.running_tokens > budget and item.running_tokens - item.tokens <= budget:
                out.append(BudgetLine(budget))
            out.append(item)
            out.extend(Disagreement(item.path, text) for text in item.disagreements)
    on_demand = sum(m.tokens for m in result.on_demand)
    out.append(Heading(*ON_DEMAND, _count(len(result.on_demand)), on_demand))
    out.extend(result.on_demand)
    near = sum(near_tokens.get(m.path, 0) for m in result.near_misses)
    out.append(Heading(*NEAR_MISSES, _count(len(result.near_misses)) + " · not loaded", near))
    for miss in result.near_misses:
        out.append(miss)
        out.extend(Disagreement(miss.path, text) for text in miss.disagreements)
    notes = [*(s.note for s in result.sources if not s.from_index), *result.notes]
    if notes:
        out.append(Heading(*NOTES, _count(len(notes), "note"), None))
        out.extend(Note(note) for note in notes)
    return out


def short_reason(item: PlanItem, project: str | None) -> str:
    """The reason without the project's name where the heading above already says it (the
    budget line names the project): its memories' importance, its status file's standing."""
    if item.tier is Tier.PROJECT and project:
        reason = item.reason.removeprefix(f"project {project}, ")
        return re.sub(rf"^project {re.escape(project)}( \(folder [^)]*\))? is ", "", reason)
    return item.reason


def why_wanted(rows: list[Entry], project: str | None) -> int:
    """Cells the Why column needs to show every row's note whole."""
    wanted = 0
    for entry in rows:
        if isinstance(entry, Heading):
            note = entry.detail
        elif isinstance(entry, PlanItem):
            note = short_reason(entry, project)
        elif isinstance(entry, NearMiss):
            note = visible(entry.reason)
        elif isinstance(entry, OnDemand):
            note = ON_DEMAND_WHY
        else:
            continue
        wanted = max(wanted, cell_len(note))
    return wanted


def entry_key(entry: Entry, index: int) -> str:
    """A memory's path; rows that are not memories get keys no path can have (`#...`)."""
    if isinstance(entry, PlanItem | NearMiss | OnDemand):
        return entry.path
    if isinstance(entry, Heading):
        return f"#heading:{entry.title}"
    return f"#{type(entry).__name__.lower()}:{index}"


Named = Callable[[str, str], str]
"""(path, title as the plan has it) -> the name a memory is shown by (views/naming.py)."""


def entry_row(
    entry: Entry,
    key: str,
    result: BootstrapPlan,
    budget: int,
    near_tokens: dict[str, int],
    wide: bool,
    named: Named = lambda path, title: title,
) -> TableRow:
    """The cells of one row; user text (titles, reasons) goes in as Text, never markup."""
    mark, title, why, tokens, total = Text(""), Text(""), Text(""), Text(""), Text("")
    if isinstance(entry, Heading):
        title = Text(entry.title.upper(), style="bold")
        why = Text(entry.detail, style="dim")
        if not wide:
            title.append(f"  {entry.detail}", style="dim")
        tokens = Text(f"{entry.tokens:,}", style="bold") if entry.tokens else Text("")
    elif isinstance(entry, BudgetLine):
        title = Text(f"── the budget of {entry.budget:,} tokens runs out here ──", style="bold red")
    elif isinstance(entry, PlanItem):
        over = entry.running_tokens > budget
        mark = Text("✗", style="bold red") if over else Text("")
        if entry.disagreements:
            mark.append(DISAGREES, style="bold yellow")
        title = shown(named(entry.path, entry.title), style="dim" if over else "")
        why = Text(short_reason(entry, result.project), style="dim" if over else "")
        tokens = Text(f"{entry.tokens:,}") if entry.file_found else Text("—", style="dim")
        total = Text(f"{entry.running_tokens:,}", style="bold red" if over else "")
    elif isinstance(entry, NearMiss):
        mark = Text(DISAGREES if entry.disagreements else "·", style="yellow")
        title, why = shown(named(entry.path, entry.title)), shown(entry.reason, style="yellow")
        tokens = Text(f"{near_tokens.get(entry.path, 0):,}", style="dim")
    elif isinstance(entry, Disagreement):
        title = Text(f"{DISAGREES} ", style="bold yellow")
        title.append(entry.text, style="yellow")
    elif isinstance(entry, OnDemand):
        title, why = shown(named(entry.path, entry.title)), Text(ON_DEMAND_WHY, style="dim")
        tokens = Text(f"{entry.tokens:,}", style="dim")
    else:
        title = shown(entry.text, style="italic")
    cells = (mark, title, why, tokens, total) if wide else (mark, title, tokens, total)
    # A line with a title alone (the budget line, a disagreement, a note) runs across the
    # columns to its right, which it leaves empty.
    alone = isinstance(entry, BudgetLine | Disagreement | Note)
    return TableRow(key, cells, span=TITLE if alone else None)


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def why_text(entry: Entry, result: BootstrapPlan, budget: int, near_tokens: dict[str, int]) -> Text:
    """What the side panel says about a memory's place in the plan."""
    if isinstance(entry, PlanItem):
        position = result.items.index(entry) + 1
        text = Text(f"Loads {_ordinal(position)} of {len(result.items)}", style="bold")
        text.append(f" · {HEADINGS[entry.tier]}\n")
        text.append(entry.reason)
        if entry.file_found:
            size = f"{entry.tokens:,} tokens ({entry.lines} lines)"
        else:
            size = "no file, known from index.json"
        text.append(f"\n{size}; {entry.running_tokens:,} in all so far")
        if entry.running_tokens > budget:
            text.append(f"\nPast the budget of {budget:,} tokens", style="bold red")
        _append_disagreements(text, entry.disagreements)
        return text
    if isinstance(entry, NearMiss):
        text = Text("Not loaded", style="bold")
        text.append(f" · {entry.reason}\n")
        if entry.file_found:
            text.append(f"{near_tokens.get(entry.path, 0):,} tokens if it were")
        else:
            text.append("No file: index.json names it, but it is not in the tree")
        _append_disagreements(text, entry.disagreements)
        return text
    assert isinstance(entry, OnDemand)
    text = Text("On demand", style="bold")
    text.append(f" · long-term, read when a session needs it\n{entry.tokens:,} tokens")
    return text


def _append_disagreements(text: Text, disagreements: tuple[str, ...]) -> None:
    for line in disagreements:
        text.append(f"\n{DISAGREES} ", style="bold yellow")
        text.append(line, style="yellow")


def index_entry_text(item: PlanItem) -> str:
    """What index.json says of a project that has no file: its status and summary."""
    lines = [f"Status: {item.index_status or 'not given'}"]
    if item.index_summary:
        lines.append(item.index_summary)
    lines.append("The assistant knows this project only from its index.json entry.")
    return "\n\n".join(lines)

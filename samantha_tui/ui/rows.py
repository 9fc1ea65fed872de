"""Turn core records into table rows and columns; presentation only, no decisions about data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text

from ..core.basics import sorting
from ..core.basics.model import Kind, Listed, Memory, Problem, Record, Severity, short_path
from ..core.basics.sorting import SortField, SortOrder
from ..core.basics.visible import visible_with_spans
from ..core.views.naming import Names
from .visible_text import shown
from .widgets.memory_table import Column, LazyRows, TableRow

if TYPE_CHECKING:  # the query language loads with the search index, after the first frame
    from ..core.views.query import Term

IMPORTANCE_STYLE = {"high": "bold red", "medium": "yellow", "low": "dim"}
MATCH_STYLE = "bold underline"
"""Matched characters of a search: bold and underlined, so they show without colour too."""
Spans = tuple[tuple[int, int], ...]
# On a narrow list the columns give way to the title (see Column.squeeze): importance becomes
# its letter (H, M, L), then the counts go, then the letter, then the date.
_DATE = Column("Date", 10, squeeze=4, sort="date")
_REFS = Column("Refs", 4, "right", squeeze=2, sort="references")
MEMORY_COLUMNS = (
    Column("", 2),
    Column("Title", sort="title"),
    _DATE,
    Column(
        "Importance",
        10,
        squeeze=1,
        sort="importance",
        narrow=Column("Imp", 3, cell=5, squeeze=3, sort="importance"),
    ),
    _REFS,
)
CRITICAL_COLUMNS = (
    Column("", 2),
    Column("Title", sort="title"),
    Column("Kind", 15, squeeze=1, narrow=Column("Kind", 8, cell=5, squeeze=3)),
    _DATE,
    _REFS,
)
NARROW_FILE = 22
PROBLEM_COLUMNS = (
    Column("", 2),
    Column("File", 34, squeeze=1, narrow=Column("File", NARROW_FILE, cell=4)),
    Column("Line", 4, "right"),
    Column("Problem"),
)
SHORT_KIND = {
    Kind.SHORT_TERM: "Short",
    Kind.LONG_TERM: "Long",
    Kind.CURRENT_TASKS: "Task",
    Kind.WORK_EXPERIENCE: "Done",
    Kind.PROCEDURAL: "Runbook",
}
"""The kind in a narrow Critical list, in the words of the short tab labels."""


MARKERS_HINT = "★ critical  ! errors  · warnings  ▌ marked  (? for help)"
"""The markers in one line, for where the list is shown (its tooltip; help lists them in full)."""


def marker(memory: Memory | Listed) -> Text:
    """★ for critical, ! for a file with errors, · for warnings only."""
    if memory.critical:
        return Text("★", style="bold yellow")
    if memory.has_errors:
        return Text("!", style="bold red")
    if memory.problems:
        return Text("·", style="yellow")
    return Text("")


def _date(memory: Memory | Listed) -> Text:
    return Text(memory.date.isoformat()) if memory.date else Text("—", style="dim")


def _refs(memory: Memory | Listed) -> Text:
    if not memory.reference_count:
        return Text("")
    return Text(str(memory.reference_count), style="bold" if memory.reference_count >= 5 else "")


def _importance(memory: Memory | Listed) -> Text:
    if memory.importance is None:
        written = memory.written_importance
        return Text(written, style="red") if written is not None else Text("")
    return Text(memory.importance, style=IMPORTANCE_STYLE[memory.importance])


def _importance_letter(memory: Memory | Listed) -> Text:
    """H, M or L in importance's colour; a value outside the format as it is (cut to fit)."""
    if memory.importance is None:
        return _importance(memory)
    return Text(memory.importance[0].upper(), style=IMPORTANCE_STYLE[memory.importance])


class Naming(NamedTuple):
    """How a list names its memories: the tree's names, and the search's words to mark in a
    name that is not the title (a hit's spans mark the title)."""

    names: Names | None = None
    terms: tuple[Term, ...] = ()


BY_TITLE = Naming()
"""Every memory by its heading (a row made with no tree at hand)."""


def title_text(memory: Memory | Listed, spans: Spans = (), naming: Naming = BY_TITLE) -> Text:
    """The name shown in the list (the heading, or with its distinguishing line where the
    heading is generic or shared: the date has its own column) as plain Text, never markup,
    with a search's matched characters marked."""
    name = memory.title
    names = naming.names
    if names is not None and not names.is_plain(memory):
        name = names.shown(memory, dated=False)
        if name != memory.title:
            spans = _marked(name, naming.terms)
    # Escaped before it becomes a Text: Text() itself drops BEL, BS and CR without a trace.
    plain, moved = visible_with_spans(name, spans)
    title = Text(plain)
    for start, end in moved:
        title.stylize(MATCH_STYLE, start, end)
    return title


def _marked(name: str, terms: tuple[Term, ...]) -> Spans:
    """The search's words in a shown name; only a search passes terms, once its index loaded."""
    if not terms:
        return ()
    from ..core.views.search import spans_in

    return spans_in(name, terms)


def memory_row(memory: Memory | Listed, spans: Spans = (), naming: Naming = BY_TITLE) -> TableRow:
    title = title_text(memory, spans, naming)
    if memory.kind.is_project_kind and memory.status:
        title.append(f"  {memory.status}", style="dim")
    cells = (
        marker(memory),
        title,
        _date(memory),
        _importance(memory),
        _refs(memory),
        _importance_letter(memory),
    )
    return TableRow(memory.path, cells)


def critical_row(memory: Memory | Listed, spans: Spans = (), naming: Naming = BY_TITLE) -> TableRow:
    cells = (
        marker(memory),
        title_text(memory, spans, naming),
        Text(memory.kind.label),
        _date(memory),
        _refs(memory),
        Text(SHORT_KIND[memory.kind]),
    )
    return TableRow(memory.path, cells)


def problem_row(problem: Problem, index: int) -> TableRow:
    style = "bold red" if problem.severity is Severity.ERROR else "yellow"
    mark = Text("!" if problem.severity is Severity.ERROR else "·", style=style)
    line = Text(str(problem.line) if problem.line else "")
    # Several problems can share a file: the key keeps them apart while naming the file.
    return TableRow(
        f"{problem.path}#{index}",
        (
            mark,
            shown(short_path(problem.path)),
            line,
            shown(problem.message),
            _tail(shown(short_path(problem.path)), NARROW_FILE),
        ),
    )


def _tail(text: Text, width: int) -> Text:
    """The end of a path that is too long, after an ellipsis: the file name is what matters."""
    if text.cell_len <= width:
        return text
    return Text("…") + text[len(text.plain) - width + 1 :]


def default_order(kind: Kind | None) -> SortOrder:
    """Newest first for dated notes (and Critical); by path where the folder structure is the
    order (topic folders, one folder per project, runbooks by domain)."""
    if kind in (Kind.SHORT_TERM, None):
        return SortOrder(SortField.DATE, descending=True)
    return SortOrder(SortField.PATH, descending=False)


def sort_memories(
    kind: Kind | None, memories: Sequence[Record], order: SortOrder | None = None
) -> list[Record]:
    """The memories in `order` (the kind's default when None). Equal values follow their paths
    in the same direction, so a descending order is the exact mirror of the ascending one."""
    order = order or default_order(kind)
    by_path = sorted(memories, key=_PATH, reverse=order.descending)
    return sorting.sort_memories(by_path, order)


_PATH = attrgetter("path")


def lazy(
    memories: Sequence[Record],
    make: Callable[[Record, Spans, Naming], TableRow],
    spans: Sequence[Spans] | None = None,
    naming: Naming = BY_TITLE,
) -> LazyRows:
    """Rows for these memories (with a search's spans, named as `naming` says), each made only
    when it is drawn."""
    return LazyRows(
        [m.path for m in memories],
        lambda i: make(memories[i], spans[i] if spans is not None else (), naming),
    )

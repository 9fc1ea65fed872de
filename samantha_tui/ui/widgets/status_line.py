"""The line under the panes: which tree is open, what needs attention, and the indexes' state.

Every part has shorter forms; on a narrow terminal the least important give way first (see
GIVE_WAY), so the line always fits and the indexes' state and the problems show the longest.
Work waiting is worded as what there is to do, with its key, in yellow: red is kept for a
change that failed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from ...core.basics.model import Severity, Tree
from ..visible_text import visible

if TYPE_CHECKING:
    from ...core.views.indexes import DriftReport  # the indexes load after the first frame

SEPARATOR = "  ·  "
NARROW_SEPARATOR = " · "
ORDER = ("marks", "root", "index", "health", "memories", "problems", "pending", "merge")
"""The parts, left to right."""
GIVE_WAY: tuple[tuple[str, int], ...] = (
    ("pending-if-none", 0),
    ("merge-if-none", 0),
    ("merge", 1),
    ("pending", 1),
    ("separator", 1),
    ("health", 1),
    ("health", 2),
    ("root", 1),
    ("memories", 2),
    ("problems", 1),
    ("index", 1),
    ("root", 2),
    ("marks", 1),
    ("merge", 2),
    ("pending", 2),
    ("problems", 2),
)
"""(part, form) in the order the parts give way; each form is shorter than the one before, and
the last form of a part is empty (it goes)."""

Forms = Mapping[str, Sequence[Text]]


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _root_forms(root: Path) -> list[Text]:
    home = Path.home()
    full = (
        f"~/{root.relative_to(home)}" if root.is_relative_to(home) and root != home else str(root)
    )
    parts = Path(full).parts
    forms = [full]
    if len(parts) > 2:
        forms.append("…/" + "/".join(parts[-2:]))
    forms.append(("…/" if len(parts) > 1 else "") + parts[-1] if parts else full)
    return [Text(visible(form), style="bold") for form in forms]


def tree_forms(tree: Tree, root: Path) -> dict[str, list[Text]]:
    """Each part of the line about the tree, longest form first."""
    errors = sum(1 for p in tree.all_problems if p.severity is Severity.ERROR)
    pending, merge = len(tree.pending_updates), len(tree.awaiting_merge)
    # Only errors are counted here; with none, nothing is said: "0 problems" beside the
    # Problems tab's count of warnings read as a contradiction.
    problems: list[Text] = []
    if errors:
        problems = [Text(f"{_plural(errors, 'problem')} to fix"), Text(_plural(errors, "problem"))]
        problems = [Text(form.plain, style="yellow") for form in problems]
    return {
        "root": _root_forms(root),
        "memories": [Text(_plural(len(tree.memories), "memory", "memories")), Text()],
        "problems": [*problems, Text()],
        "pending": [
            Text(_plural(pending, "pending update"), style="yellow" if pending else ""),
            Text(f"{pending} pending", style="yellow" if pending else ""),
            Text(),
        ],
        "merge": [
            Text(_plural(merge, "session") + " awaiting merge", style="yellow" if merge else ""),
            Text(f"{merge} to merge", style="yellow" if merge else ""),
            Text(),
        ],
    }


def marks_state(count: int, hidden: int = 0) -> Text:
    """`3 marked: c + - e d act on them, Esc clears` (empty with no marks)."""
    if not count:
        return Text()
    hid = f", {hidden} hidden by the search" if hidden else ""
    text = Text(f"{count} marked{hid}", style="bold reverse")
    text.append(": c + - e d act on them, Esc clears", style="bold")
    return text


def index_state(report: DriftReport | None, busy: bool = False, error: str = "") -> Text:
    """`indexes ✓`, `2 indexes to update (r)`, or what is happening to them."""
    return index_forms(report, busy, error)[0]


def checking_forms(files: int) -> list[Text]:
    """`checking 1,000 files…`: the list shows the catalog's records while the scan checks them."""
    return [
        Text(f"checking {files:,} files…", style="yellow"),
        Text("checking…", style="yellow"),
    ]


def index_forms(report: DriftReport | None, busy: bool = False, error: str = "") -> list[Text]:
    """The indexes' state, longest form first."""
    if error:
        full = Text(f"indexes not updated: {visible(error)}", style="bold red")
        return [full, Text("indexes not updated", style="bold red")]
    if busy:
        return [Text("indexes: regenerating…", style="yellow")]
    if report is None:
        return [Text("indexes: checking…", style="dim")]
    drifted = [kind for kind in report.kinds if kind.drifted]
    if not drifted:
        return [Text("indexes ✓", style="green")]
    return [
        Text(f"{_plural(len(drifted), 'index', 'indexes')} to update (r)", style="yellow"),
        Text("update indexes (r)", style="yellow"),
    ]


HEALTHY = 90
"""From this score (of 100) the health part is green; below, yellow: the report is work to do."""


def health_forms(score: int) -> list[Text]:
    """`health 69 (H)`: the health report's score (`H` opens the report), longest first."""
    style = "green" if score >= HEALTHY else "yellow"
    return [
        Text(f"health {score} (H)", style=style),
        Text(f"health {score}", style=style),
        Text(),
    ]


def fit(forms: Forms, width: int | None) -> Text:
    """The line in `width` cells (all of it when None): parts give way in GIVE_WAY's order, and
    what still does not fit is cut with an ellipsis."""
    chosen = dict.fromkeys(forms, 0)
    separator = SEPARATOR

    def line() -> Text:
        shown = [forms[name][chosen[name]] for name in ORDER if name in forms]
        text = Text(no_wrap=True, end="")
        for part in (part for part in shown if part.plain):
            if text.plain:
                text.append(separator, style="dim")
            text.append_text(part)
        return text

    text = line()
    for name, form in GIVE_WAY:
        if width is None or text.cell_len <= width:
            break
        if name == "separator":
            separator = NARROW_SEPARATOR
        elif name.endswith("-if-none"):
            part = name.removesuffix("-if-none")
            if part in forms and forms[part][0].plain.startswith("0 "):
                chosen[part] = len(forms[part]) - 1
        elif name in forms:
            chosen[name] = max(chosen[name], min(form, len(forms[name]) - 1))
        text = line()
    if width is not None and text.cell_len > width:
        text.truncate(width, overflow="ellipsis")
    return text


class StatusLine(Static):
    """Shows the tree's root, counts of memories and problems, pending work, and the indexes."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._tree: dict[str, list[Text]] = {}
        self._index: list[Text] = []
        self._health: list[Text] = []
        self._marks = Text()

    def show_tree(self, tree: Tree, root: Path) -> None:
        self._tree = tree_forms(tree, root)
        self._show()

    def show_index(self, report: DriftReport | None, busy: bool = False, error: str = "") -> None:
        self._index = index_forms(report, busy, error)
        self._show()

    def show_checking(self, files: int | None) -> None:
        """While the files are checked, that takes the indexes' place (they are checked after);
        None once the checked tree is shown."""
        self._index = checking_forms(files) if files is not None else []
        self._show()

    def show_health(self, score: int | None) -> None:
        """The health report's score; None while it is worked out (the part is left out)."""
        forms = health_forms(score) if score is not None else []
        if [f.plain for f in forms] != [f.plain for f in self._health]:
            self._health = forms
            self._show()

    def on_resize(self) -> None:
        self._show()

    def show_marks(self, count: int, hidden: int = 0) -> None:
        """How many rows are marked, and what the next key acts on."""
        marks = marks_state(count, hidden)
        if marks.plain != self._marks.plain:
            self._marks = marks
            self._show()

    def _show(self) -> None:
        if not self._tree:
            return
        forms = dict(self._tree)
        if self._index:
            # The indexes go second: on a narrow terminal the counts at the end give way first.
            forms["index"] = self._index
        if self._health:
            forms["health"] = self._health
        if self._marks:
            # While rows are marked, what the keys act on matters most: it goes first.
            forms["marks"] = [self._marks, Text(self._marks.plain.split(":", 1)[0], style="bold")]
        width = self.content_size.width
        self.update(fit(forms, width or None))

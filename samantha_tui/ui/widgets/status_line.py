"""The line under the panes: which tree is open, what needs attention, and the indexes' state."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import Static

from ...core.indexes import DriftReport
from ...core.model import Severity, Tree
from ..visible_text import visible

SEPARATOR = "  ·  "


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def describe(tree: Tree, root: Path) -> Text:
    home = Path.home()
    shown = (
        f"~/{root.relative_to(home)}" if root.is_relative_to(home) and root != home else str(root)
    )
    text = Text(visible(shown), style="bold")
    errors = sum(1 for p in tree.all_problems if p.severity is Severity.ERROR)
    parts = [
        (_plural(len(tree.memories), "memory", "memories"), ""),
        (_plural(errors, "problem"), "bold red" if errors else ""),
        (
            _plural(len(tree.pending_updates), "pending update"),
            "yellow" if tree.pending_updates else "",
        ),
        (
            _plural(len(tree.awaiting_merge), "session") + " awaiting merge",
            "yellow" if tree.awaiting_merge else "",
        ),
    ]
    for part, style in parts:
        text.append(SEPARATOR, style="dim")
        text.append(part, style=style)
    return text


def marks_state(count: int, hidden: int = 0) -> Text:
    """`3 marked: c + - e d act on them, Esc clears` (empty with no marks)."""
    if not count:
        return Text()
    hid = f", {hidden} hidden by the search" if hidden else ""
    text = Text(f"{count} marked{hid}", style="bold reverse")
    text.append(": c + - e d act on them, Esc clears", style="bold")
    return text


def index_state(report: DriftReport | None, busy: bool = False, error: str = "") -> Text:
    """`indexes ✓`, `indexes: 2 kinds drift (r)`, or what is happening to them."""
    if error:
        return Text(f"indexes not updated: {visible(error)}", style="bold red")
    if busy:
        return Text("indexes: regenerating…", style="yellow")
    if report is None:
        return Text("indexes: checking…", style="dim")
    drifted = [kind for kind in report.kinds if kind.drifted]
    if not drifted:
        return Text("indexes ✓", style="green")
    return Text(f"indexes: {_plural(len(drifted), 'kind')} drift (r)", style="yellow")


class StatusLine(Static):
    """Shows the tree's root, counts of memories and problems, pending work, and the indexes."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._tree = Text()
        self._index = Text()
        self._marks = Text()

    def show_tree(self, tree: Tree, root: Path) -> None:
        self._tree = describe(tree, root)
        self._show()

    def show_index(self, report: DriftReport | None, busy: bool = False, error: str = "") -> None:
        self._index = index_state(report, busy, error)
        self._show()

    def show_marks(self, count: int, hidden: int = 0) -> None:
        """How many rows are marked, and what the next key acts on."""
        marks = marks_state(count, hidden)
        if marks.plain != self._marks.plain:
            self._marks = marks
            self._show()

    def _show(self) -> None:
        text = self._composed()
        if self._marks:
            # While rows are marked, what the keys act on matters most: it goes first.
            marks = self._marks.copy()
            marks.append(SEPARATOR, style="dim")
            text = marks + text
        self.update(text)

    def _composed(self) -> Text:
        if not self._index:
            return self._tree
        # The indexes go second: on a narrow terminal the counts at the end are cut first.
        head, _, rest = self._tree.plain.partition(SEPARATOR)
        text = self._tree[: len(head)]
        text.append(SEPARATOR, style="dim")
        text.append_text(self._index)
        if rest:
            text.append_text(self._tree[len(head) :])
        return text

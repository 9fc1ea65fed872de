"""The line under the panes: which tree is open and what needs attention in it."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import Static

from ...core.model import Severity, Tree


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def describe(tree: Tree, root: Path) -> Text:
    home = Path.home()
    shown = (
        f"~/{root.relative_to(home)}" if root.is_relative_to(home) and root != home else str(root)
    )
    text = Text(shown, style="bold")
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
        text.append("  ·  ", style="dim")
        text.append(part, style=style)
    return text


class StatusLine(Static):
    """Shows the tree's root, counts of memories and problems, and pending work."""

    def show_tree(self, tree: Tree, root: Path) -> None:
        self.update(describe(tree, root))

"""The app's tabs: one per memory kind, then Critical and Problems, with their empty states."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.cells import cell_len

from ..core.basics.model import Kind


@dataclass(frozen=True)
class TabSpec:
    id: str
    label: str
    kind: Kind | None
    empty: str
    short: str = ""
    """The label when the full ones do not fit, where all seven must still fit."""
    tiny: str = ""
    """The label when even the short ones do not fit."""
    spoken: str = ""
    """What it lists, in words ("short-term memories"), for the palette and the help;
    the label in lower case when empty."""

    def names(self) -> tuple[str, str, str]:
        """Its labels, longest first: full, short, tiny (each falls back to the one before)."""
        short = self.short or self.label
        return (self.label, short, self.tiny or short)

    def words(self) -> str:
        """What it lists, in words, as a sentence says it."""
        return self.spoken or self.label.lower()


TAB_PADDING = 2
"""A tab's cells around its label (Textual's Tab has `padding: 0 1`)."""


TABS = (
    TabSpec(
        "short-term",
        "Short-term",
        Kind.SHORT_TERM,
        "No short-term memories yet: the assistant writes them to .ai/short-term-memory/.ai/.",
        "Short",
        "ST",
        "short-term memories",
    ),
    TabSpec(
        "long-term",
        "Long-term",
        Kind.LONG_TERM,
        "No long-term memories yet: promoted, foundational knowledge lands here.",
        "Long",
        "LT",
        "long-term memories",
    ),
    TabSpec(
        "tasks",
        "Tasks",
        Kind.CURRENT_TASKS,
        "No current tasks: each active project is a folder with a status.md.",
        tiny="Task",
        spoken="current tasks",
    ),
    TabSpec(
        "work-experience",
        "Work experience",
        Kind.WORK_EXPERIENCE,
        "No completed projects yet: finished tasks move here.",
        "Done",
    ),
    TabSpec(
        "procedural",
        "Procedural",
        Kind.PROCEDURAL,
        "No runbooks yet: procedural memory holds how-to-work-on-X guides.",
        "Runbooks",
        "Proc",
        "procedural runbooks",
    ),
    TabSpec(
        "critical",
        "Critical",
        None,
        "Nothing is marked critical: mark the few rules read every session (5-10 advised).",
        tiny="Crit",
        spoken="critical memories",
    ),
    TabSpec("problems", "Problems", None, "No problems: every file reads cleanly.", tiny="Prob"),
)


def fit_labels(width: int, counts: Mapping[str, str]) -> dict[str, str]:
    """Each tab's label with its count (`counts` by tab id), in the longest words with which all
    seven fit in `width` cells; the tiny ones when nothing fits."""
    for tier in range(3):
        labels = {
            spec.id: f"{spec.names()[tier]} {counts.get(spec.id, '')}".strip() for spec in TABS
        }
        if sum(cell_len(label) + TAB_PADDING for label in labels.values()) <= width:
            break
    return labels

"""The app's tabs: one per memory kind, then Critical and Problems, with their empty states."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.model import Kind


@dataclass(frozen=True)
class TabSpec:
    id: str
    label: str
    kind: Kind | None
    empty: str
    short: str = ""
    """The label on a terminal narrower than WIDE, where all seven must still fit."""


WIDE = 110


TABS = (
    TabSpec(
        "short-term",
        "Short-term",
        Kind.SHORT_TERM,
        "No short-term memories yet: the assistant writes them to .ai/short-term-memory/.ai/.",
        "Short",
    ),
    TabSpec(
        "long-term",
        "Long-term",
        Kind.LONG_TERM,
        "No long-term memories yet: promoted, foundational knowledge lands here.",
        "Long",
    ),
    TabSpec(
        "tasks",
        "Tasks",
        Kind.CURRENT_TASKS,
        "No current tasks: each active project is a folder with a status.md.",
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
    ),
    TabSpec(
        "critical",
        "Critical",
        None,
        "Nothing is marked critical: mark the few rules read every session (5-10 advised).",
    ),
    TabSpec("problems", "Problems", None, "No problems: every file reads cleanly."),
)

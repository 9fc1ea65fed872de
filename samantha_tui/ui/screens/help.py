"""Help for the screen the person is on, opened with `?` or F1 (F1 alone in a form).

Any screen supplies its own: `HELP_TITLE` and `HELP_PURPOSE` say what it is for, and its keys are
read from Textual's binding tables as they stand (the screen's, its focused widget's and the
app's, with the settings file's overrides and without what check_action turns off), so a key
shown is a key that works there. `HELP_KEYS` may give a longer meaning per binding id, and
`HELP_NOTES` sections after the keys (the markers of its list). The main
list's help is the app's own: every key by what it acts on, the list's keys and the markers,
read from the same tables (keys.bound), so a remapped key shows there too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from .. import keys
from .dismiss_once import DismissOnce
from .key_labels import hint

Rows = Sequence[tuple[str, str]]
Sections = Sequence[tuple[str, Rows]]

MARKERS: Rows = (
    ("★", "Critical: read every session (c marks or unmarks)"),
    ("!", "The file has errors: the Problems tab (7) says which"),
    ("·", "The file has warnings only"),
    ("▌", "Marked (Space): d deletes every marked memory at once"),
)

LIST_KEYS: Mapping[str, str] = {
    "list.up": "Up the list",
    "list.down": "Down the list",
    "list.page_up": "Up a page",
    "list.page_down": "Down a page",
    "list.first": "First row",
    "list.last": "Last row",
    "list.mark": "Mark or unmark the row",
}
"""Longer meanings of the list's own keys; a key added to the list shows its description."""

AROUND_THE_LIST: Rows = (
    ("Tab", "Between the list and the preview"),
    ("Ctrl+P", "Every action by name (command palette)"),
)

TAB_PURPOSE: Mapping[str, str] = {
    "short-term": "Recent decisions, learnings and interactions (a 30-90 day life).",
    "long-term": "Permanent, polished knowledge, promoted from short-term memory.",
    "tasks": "Active projects: one folder each, with its status.md.",
    "work-experience": "Completed projects, moved here from the current tasks.",
    "procedural": "Runbooks: how to work on a domain, loaded when their triggers match.",
    "critical": "Every memory marked critical, of every kind: read each session (5-10 advised).",
    "problems": "Every problem found in the files; each names the memory and the field.",
}

MAIN_PURPOSE = "Browse and curate the memories samantha-llm's assistant reads."


@dataclass(frozen=True)
class HelpPage:
    """What the help screen shows: a title, a sentence on what the screen is for, the keys."""

    title: str
    purpose: str
    sections: Sections
    notes: Sections = field(default=())
    """Sections after the keys that are not keys (the markers)."""

    @property
    def listed(self) -> list[tuple[str, str]]:
        """Every (keys, meaning) row of the key sections."""
        return [row for _, rows in self.sections for row in rows]


def main_page(
    tab_id: str, tab_label: str, sections: Sections, list_keys: Sequence[keys.Bound]
) -> HelpPage:
    """The main list's help: the app's keys by section, the list's own keys, the markers."""
    meanings = {**LIST_KEYS, "list.mark": "Mark or unmark (d deletes every marked one)"}
    in_the_list = [*binding_rows(list_keys, meanings), *AROUND_THE_LIST]
    return HelpPage(
        title=f"Keys · {tab_label} tab",
        purpose=f"{TAB_PURPOSE.get(tab_id, MAIN_PURPOSE)} {MAIN_PURPOSE}",
        sections=[*sections, ("In the list", in_the_list)],
        notes=[("Markers in the list", MARKERS)],
    )


def binding_rows(found: Sequence[keys.Bound], meanings: Mapping[str, str]) -> list[tuple[str, str]]:
    """(keys, meaning) of a widget's bindings as Textual binds them (see keys.bound)."""
    return [
        (bound.shown, meanings.get(bound.id, bound.binding.description))
        for bound in found
        if bound.binding.description
    ]


def screen_page(screen: Screen[object], fallback: HelpPage) -> HelpPage:
    """The help of `screen`: its title and purpose (else the fallback's), and the keys that work
    on it now, the screen's own first, then the app's."""
    title = getattr(screen, "HELP_TITLE", "")
    if not title:
        return fallback
    meanings = {**LIST_KEYS, **getattr(screen, "HELP_KEYS", {})}
    app = screen.app
    own: dict[tuple[int, str, str], list[str]] = {}
    everywhere: dict[tuple[int, str, str], list[str]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if binding.system or not binding.description or not _ours(active.node, binding, app):
            continue
        meaning = meanings.get(binding.id or "") or TEXTUAL_KEPT.get(
            binding.action, binding.description
        )
        group = everywhere if active.node is app else own
        group.setdefault((id(active.node), binding.action, meaning), []).append(key)
    # A key of the screen's that the keymap took for something else: listed, with no key.
    keyless = [
        (NO_KEY, meanings.get(found.id) or found.binding.description)
        for found in keys.bound(screen)
        if not found.keys and found.binding.description
    ]
    return HelpPage(
        title=f"Keys · {title}",
        purpose=getattr(screen, "HELP_PURPOSE", ""),
        sections=[
            (title, [*_rows(own), *keyless]),
            ("Everywhere", _rows(everywhere)),
        ],
        notes=tuple(getattr(screen, "HELP_NOTES", ())),
    )


NO_KEY = "no key"
"""Shown for a screen's action whose keys the keymap gave to others (set one in [keys])."""

TEXTUAL_KEPT: Mapping[str, str] = {
    "app.focus_next": "Next pane or field",
    "app.focus_previous": "Previous pane or field",
    "command_palette": "Every action by name (command palette)",
    "quit": "Quit",
}
"""Textual's own bindings worth listing, with their meaning here; its others (scrolling
sideways, copying a selection, an Input's cursor keys) are left out."""


def _ours(node: DOMNode, binding: Binding, app: DOMNode) -> bool:
    """A binding of the app, or one that this package's screens and widgets declare."""
    if binding.action in TEXTUAL_KEPT or node is app:
        return True
    declared = (
        vars(cls).get("BINDINGS", ())
        for cls in type(node).__mro__
        if cls.__module__.startswith("samantha_tui.")
    )
    return any(
        isinstance(b, Binding) and b.action == binding.action for found in declared for b in found
    )


def _rows(grouped: Mapping[tuple[int, str, str], list[str]]) -> list[tuple[str, str]]:
    return [(keys.display(",".join(found)), meaning) for (_, _, meaning), found in grouped.items()]


class HelpScreen(DismissOnce, ModalScreen[None]):
    """A modal page of keys for the screen under it (see `screen_page`)."""

    BINDINGS = [
        Binding("escape,question_mark,q,f1", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, page: HelpPage) -> None:
        super().__init__()
        self.page = page

    @property
    def listed(self) -> list[tuple[str, str]]:
        """Every (keys, meaning) row shown."""
        return self.page.listed

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 3))
        table.add_column(no_wrap=True)
        table.add_column()
        number = 0
        for title, rows in [*self.page.sections, *self.page.notes]:
            if not rows:
                continue
            if number:
                table.add_row("", "")
            number += 1
            table.add_row(Text(title.upper(), style="bold"), "")
            for shown, meaning in rows:
                table.add_row(Text(shown, style="bold"), Text(meaning))
        with VerticalScroll(id="help-box"):
            yield Static(Text(self.page.title, style="bold"), id="help-title")
            if self.page.purpose:
                yield Static(Text(self.page.purpose), id="help-purpose")
            yield Static(table)
            # Every key that closes it, as the keymap leaves them: none of them is hidden.
            yield Static(hint(self, ("help.close", "closes")), id="help-hint")

    # A plain method that closes at once; Textual's own is a coroutine that first waits for the
    # screen's pending callbacks.
    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)

"""The `S` chooser: every field a list sorts by, the current one with its direction marked.

Picking the current field again flips its direction; picking another starts it in the direction
a person wants first (newest, most important, A to Z). The app applies what is picked.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..core.basics.sorting import FIELDS_BY_ID, SortField, SortOrder, direction_words
from .screens.dismiss_once import DismissOnce
from .screens.key_labels import hint


def option_text(field: SortField, current: SortOrder) -> Text:
    """`▼ Date  newest first  (now; Enter flips)` for the current field, the others plain."""
    if field is current.field:
        text = Text(f"{current.arrow} ", style="bold")
        text.append(f"{field.label:<11}", style="bold")
        text.append(f"{direction_words(current)}  ")
        text.append(f"now; again: {direction_words(current.picked(field))}", style="dim")
        return text
    text = Text(f"  {field.label:<11}")
    text.append(direction_words(SortOrder.natural(field)), style="dim")
    return text


class SortMenu(DismissOnce, ModalScreen[SortField | None]):
    """Pick the field the list is sorted by; dismisses with it, or None on Esc."""

    WAITS_ON_PERSON = True
    """No busy bar shows while it asks (see work_progress.py): the app waits on the person."""

    BINDINGS = [Binding("escape,q", "cancel", "Cancel", id="sort.cancel")]

    def __init__(self, tab_label: str, current: SortOrder) -> None:
        super().__init__(classes="dialog")
        self._tab_label = tab_label
        self._current = current

    def compose(self) -> ComposeResult:
        fields = list(SortField)
        with Vertical(classes="dialog-box sort-box"):
            yield Static(Text(f"Sort {self._tab_label} by", style="bold"), classes="dialog-title")
            yield OptionList(
                *(Option(option_text(f, self._current), id=f.id) for f in fields),
                id="sort-fields",
            )
            yield Static(
                hint(self, "Enter picks", "the current one again flips", ("sort.cancel", "closes"))
            )

    def on_mount(self) -> None:
        for options in self.query("#sort-fields").results(OptionList):
            options.highlighted = list(SortField).index(self._current.field)
            options.focus()

    @on(OptionList.OptionSelected, "#sort-fields")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(FIELDS_BY_ID.get(event.option_id or ""))

    def action_cancel(self) -> None:
        self.dismiss(None)

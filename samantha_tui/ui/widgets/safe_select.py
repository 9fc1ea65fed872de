"""Textual's Select, safe under any key at any moment: every Select in the app is this one.

Textual 8.2.8's Select has two ways to end the app from a key (key mashing found both):
- a page key that reaches the open list before it is laid out (the moment after Enter opens it,
  or after it was closed and opened again) looks up a line the list has not made yet: KeyError;
- a choice (Enter, Space, a click) that is taken in after the options were replaced (the
  bootstrap screen offers the active projects anew whenever the tree changes) is looked up by
  its position in the new options: IndexError, or silently the wrong value when the new list
  is as long.

It also draws its prompt as written, where Textual's reads it as markup: a prompt may name user
text (the bootstrap preview's picker names the project its plan took by itself).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from textual import on
from textual._widget_navigation import Direction
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Select, Static
from textual.widgets._option_list import Option, OptionList
from textual.widgets._select import (
    NonSelectableStatic,
    NoSelection,
    SelectCurrent,
    SelectOverlay,
    SelectType,
)


@dataclass
class _Chosen(SelectOverlay.UpdateSelection):
    """A choice, with the option itself, so the Select can tell whether it is still offered."""

    option: Option


class _SafeOverlay(SelectOverlay):
    def _move_page(self, direction: Direction) -> None:
        # Textual moves a page from the highlighted option's line; before the list is laid out
        # it has made no lines, so there is no page to move yet and the key does nothing.
        if (self.highlighted or 0) in self._index_to_line:
            super()._move_page(direction)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # Replaces the base handler (prevent_default) so the choice carries its option.
        event.stop()
        event.prevent_default()
        self.post_message(_Chosen(event.option_index, event.option))


class _PlainCurrent(SelectCurrent):
    """The chosen option, or the prompt as plain text (Textual's draws the prompt as markup)."""

    def compose(self) -> ComposeResult:
        yield NonSelectableStatic(Content(self.placeholder), id="label")
        yield NonSelectableStatic("▼", classes="arrow down-arrow")
        yield NonSelectableStatic("▲", classes="arrow up-arrow")

    def update(self, label: RenderableType | NoSelection) -> None:
        # Textual's, with the prompt as Content: its own hands the prompt's string to Static.
        self.label = label
        self.has_value = not isinstance(label, NoSelection)
        shown = Content(self.placeholder) if isinstance(label, NoSelection) else label
        self.query_one("#label", Static).update(shown)


class SafeSelect(Select[SelectType]):
    """A Select whose list ignores page keys until laid out, and ignores a choice that is no
    longer among its options (the list stays as it is, showing what is offered now)."""

    def compose(self) -> ComposeResult:
        yield _PlainCurrent(self.prompt)
        yield _SafeOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)

    @on(SelectOverlay.UpdateSelection)
    def _ignore_a_choice_no_longer_offered(self, event: SelectOverlay.UpdateSelection) -> None:
        # Runs before Select's own handler (this class comes first); stopping the default here
        # keeps that handler from looking the choice up in options that have changed.
        overlay = self.query_one(SelectOverlay)
        index = event.option_index
        offered = (
            isinstance(event, _Chosen)
            and 0 <= index < min(len(self._options), overlay.option_count)
            and overlay.get_option_at_index(index) is event.option
        )
        if not offered:
            event.stop()
            event.prevent_default()

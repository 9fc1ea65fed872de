"""Textual's Select, safe from a page key that comes before its list is laid out."""

from __future__ import annotations

from textual._widget_navigation import Direction
from textual.app import ComposeResult
from textual.widgets import Select
from textual.widgets._select import SelectCurrent, SelectOverlay


class _LaidOutOverlay(SelectOverlay):
    def _move_page(self, direction: Direction) -> None:
        # Textual 8.2.8 moves a page from the highlighted option's line; in the moment after the
        # list opens it has made no lines yet, and a page key raised KeyError and closed the app.
        if (self.highlighted or 0) in self._index_to_line:
            super()._move_page(direction)


class SafeSelect(Select):
    """A Select whose open list ignores page keys until it has been laid out."""

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)
        yield _LaidOutOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)

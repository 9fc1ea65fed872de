"""Screens that close once: a second dismiss, from a key and a queued button press deciding at
nearly the same moment, is ignored rather than popping whatever screen is under them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.await_complete import AwaitComplete

if TYPE_CHECKING:
    from textual.screen import Screen

    _Screen = Screen[Any]
else:
    _Screen = object  # the screen it is mixed into, for the type checker only


class DismissOnce(_Screen):
    """Mixed into a Screen (before it in the bases): dismiss only while it is the top screen.

    Textual 8.2.8 pops the top screen whatever screen asks: `y` then a queued Enter on a button
    dismissed a confirmation twice, and the second pop took the list screen (the app closed) or
    the screen under the dialog.
    """

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)

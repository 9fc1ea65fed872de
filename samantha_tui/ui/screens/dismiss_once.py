"""Screens that close once: a second dismiss, from a key and a queued button press deciding at
nearly the same moment, is ignored rather than popping whatever screen is under them."""

from __future__ import annotations

from typing import Any

from textual.await_complete import AwaitComplete


class DismissOnce:
    """Mixed into a Screen (before it in the bases): dismiss only while it is the top screen.

    Textual 8.2.8 pops the top screen whatever screen asks: `y` then a queued Enter on a button
    dismissed a confirmation twice, and the second pop took the list screen (the app closed) or
    the screen under the dialog.
    """

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not self.is_active:  # type: ignore[attr-defined]
            return AwaitComplete.nothing()
        return super().dismiss(result)  # type: ignore[misc]

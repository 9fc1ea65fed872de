"""The main screen's shape at a terminal's width: the list beside its preview, or above it.

Textual sets the class on every screen as the terminal is resized (App.HORIZONTAL_BREAKPOINTS);
app.tcss lays the panes out by it.
"""

from __future__ import annotations

STACKED_BELOW = 100
"""Narrower than this, the preview goes under the list: beside it, neither the titles nor the
preview would have room to read (at 80 columns each would get about 35 cells)."""
BREAKPOINTS = [(0, "-stacked"), (STACKED_BELOW, "-side-by-side")]


def stacked(width: int) -> bool:
    """The preview sits under the list at this width."""
    return width < STACKED_BELOW

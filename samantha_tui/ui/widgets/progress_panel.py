"""The line that says how far long work has got: what it is doing, counts, and a bar.

Hidden until work has run for half a second (quick work never flashes it); while shown it says
the app is busy, because changes asked for meanwhile wait their turn in the ordered queue.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.widgets import ProgressBar, Static

from ...core.basics.progress import words
from ..visible_text import visible

BUSY = "  ·  busy"
WORKING = "Working"


class ProgressPanel(Horizontal):
    """One line: `Moving 120 of 375 to the trash…  ·  busy…` and a bar with a percentage."""

    DEFAULT_CSS = """
    ProgressPanel {
        display: none;
        height: 1;
        padding: 0 1;
        background: $boost;
    }
    ProgressPanel.-shown {
        display: block;
    }
    ProgressPanel > #progress-words {
        width: 1fr;
        height: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    ProgressPanel > ProgressBar {
        width: auto;
        height: 1;
        margin-left: 1;
    }
    ProgressPanel > ProgressBar > Bar {
        width: 24;
    }
    """

    said = ""
    """The line as last shown, in plain text."""
    _work: tuple[int, int, str] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="progress-words")
        # No ETA: a batch's steps differ in cost, and a guess that jumps reads as a fault.
        yield ProgressBar(show_eta=False, id="progress-bar")

    def show_work(self, done: int, total: int, what: str) -> None:
        """Show `done` of `total` of `what`; no counts yet (total 0): an indeterminate bar."""
        self._work = (done, total, what)
        self.add_class("-shown")
        self._draw()

    def on_mount(self) -> None:
        if self._work is not None:
            self._draw()

    def _draw(self) -> None:
        assert self._work is not None
        try:
            words_line = self.query_one("#progress-words", Static)
            bar = self.query_one("#progress-bar", ProgressBar)
        except NoMatches:
            # Not composed yet (it was mounted just now, above a screen's footer: on_mount draws
            # it), or being taken down with its screen: a report landing then has nowhere to go.
            return
        done, total, what = self._work
        said = words(done, total, what) if what and total else f"{WORKING}…"
        # The phrase can hold a plan's name, which names memories: text, never markup.
        line = Text(visible(said), style="bold")
        line.append(BUSY, style="dim")
        self.said = line.plain
        words_line.update(line)
        if total:
            bar.update(total=total, progress=min(done, total))
        else:
            bar.update(total=None)

    def hide(self) -> None:
        self.remove_class("-shown")

    @property
    def shown(self) -> bool:
        return self.has_class("-shown")

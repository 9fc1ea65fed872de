"""The search box over the list, with how many memories match ("23 of 412"), and under it, while
the query cannot be read, why: on lines of its own, wrapped to the pane, so the whole message
shows however narrow the terminal."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from ..visible_text import shown

PLACEHOLDER = 'search: words, "a phrase", -word, importance:high, topic:ci, age:<30'


class SearchInput(Input):
    """The query box. Enter goes to the list inside the key's own binding, not through a
    Submitted message on a later turn, so the keys typed after it in the same burst reach the
    list (see key_burst.py)."""

    async def action_submit(self) -> None:
        await self.run_action("app.focus_list")


class SearchBar(Vertical):
    """Hidden until `/`; the app owns the query and the results, this only shows them."""

    BINDINGS = [
        Binding("down,enter", "app.focus_list", "To the list", show=False, id="search.to_list"),
    ]

    def compose(self) -> ComposeResult:
        with Horizontal(id="search-row"):
            yield SearchInput(placeholder=PLACEHOLDER, id="search-input", compact=True)
            yield Static(id="search-count")
        yield Static(id="search-error")

    @property
    def input(self) -> Input:
        return self.query_one("#search-input", Input)

    def show_count(self, matched: int, total: int, listed: int) -> None:
        """`23 of 412`, and which share is listed when only the best are."""
        text = f"{matched:,} of {total:,}"
        if listed < matched:
            text += f" (best {listed:,} listed)"
        self.query_one("#search-count", Static).update(Text(text))
        self.show_error("")

    def show_error(self, message: str) -> None:
        """Why the query cannot be read, under the box (the count is left blank: the list keeps
        the last results read); "" takes it away."""
        error = self.query_one("#search-error", Static)
        if message:
            self.query_one("#search-count", Static).update("")
            error.update(shown(message, style="red"))
        error.display = bool(message)

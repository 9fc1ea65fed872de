"""The search box over the list, with how many memories match ("23 of 412")."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input, Static

from ..visible_text import shown

PLACEHOLDER = 'search: words, "a phrase", -word, importance:high, topic:ci, age:<30'


class SearchInput(Input):
    """The query box. Enter goes to the list inside the key's own binding, not through a
    Submitted message on a later turn, so the keys typed after it in the same burst reach the
    list (see key_burst.py)."""

    async def action_submit(self) -> None:
        await self.run_action("app.focus_list")


class SearchBar(Horizontal):
    """Hidden until `/`; the app owns the query and the results, this only shows them."""

    BINDINGS = [
        Binding("down,enter", "app.focus_list", "To the list", show=False, id="search.to_list"),
    ]

    def compose(self) -> ComposeResult:
        yield SearchInput(placeholder=PLACEHOLDER, id="search-input", compact=True)
        yield Static(id="search-count")

    @property
    def input(self) -> Input:
        return self.query_one("#search-input", Input)

    def show_count(self, matched: int, total: int, listed: int) -> None:
        """`23 of 412`, and which share is listed when only the best are."""
        text = f"{matched:,} of {total:,}"
        if listed < matched:
            text += f" (best {listed:,} listed)"
        self.query_one("#search-count", Static).update(Text(text))

    def show_error(self, message: str) -> None:
        self.query_one("#search-count", Static).update(shown(message, style="red"))

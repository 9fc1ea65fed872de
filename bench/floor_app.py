"""The floor: about the least a Textual app does to start; samantha-tui's start-up is held to it.

A header, a DataTable of ROWS rows filled on mount (as the curator fills its list) and a footer.
Run as a script (`python bench/floor_app.py`), spawned on a pseudo-terminal the way the console
script is; `q` quits.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Footer, Header

ROWS = 40
MARKER = "floor row"
"""The title of every row: its first appearance on the terminal is the first frame with rows."""


class FloorApp(App[None]):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable()
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("date", "title", "kind", "importance")
        table.add_rows(
            (f"2026-01-{1 + n % 28:02d}", f"{MARKER} {n}", "short-term", "medium")
            for n in range(ROWS)
        )


if __name__ == "__main__":
    FloorApp().run()

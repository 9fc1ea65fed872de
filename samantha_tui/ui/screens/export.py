"""The export dialog of the bootstrap preview: a file name, or the clipboard."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ...core.writing.atomic import write_atomic
from .dismiss_once import DismissOnce
from .key_labels import keyed

EXPORT_NAME = "bootstrap-plan.md"


@dataclass(frozen=True)
class ExportTarget:
    """Where the person sent the Markdown: a file, or the clipboard when path is None."""

    path: Path | None


class ExportScreen(DismissOnce, ModalScreen[ExportTarget | None]):
    """Asks for a file name (relative to the current folder) or offers the clipboard instead."""

    WAITS_ON_PERSON = True
    """No busy bar shows while it asks (see work_progress.py): the app waits on the person."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="export.cancel")]

    def __init__(self, folder: Path, name: str = EXPORT_NAME) -> None:
        super().__init__(classes="dialog")
        self._folder = folder
        self._name = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box", id="export-box"):
            yield Static(
                Text("Export the bootstrap plan as Markdown", style="bold"), classes="dialog-title"
            )
            where = Text("A file name, relative to ")
            where.append(str(self._folder), style="bold")
            yield Static(where)
            yield Input(self._name, id="export-name")
            yield Static("", id="export-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(keyed(self, "export.cancel", "Cancel"), id="cancel")
                yield Button("Copy to clipboard", id="copy")
                yield Button("Save", id="save", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#export-name", Input).focus()

    @on(Input.Submitted, "#export-name")
    def _submitted(self) -> None:
        self._save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self._save()
        elif event.button.id == "copy":
            self.dismiss(ExportTarget(None))
        else:
            self.dismiss(None)

    def _save(self) -> None:
        name = self.query_one("#export-name", Input).value.strip()
        if not name:
            self.query_one("#export-error", Static).update(
                Text("Name a file to save to", style="bold red")
            )
            return
        self.dismiss(ExportTarget(self._folder / Path(name).expanduser()))

    def action_cancel(self) -> None:
        self.dismiss(None)


def save_export(path: Path, data: bytes, expected: str | None) -> None:
    """Write the export all at once; `expected` is the digest of the file it may replace (None:
    there must be no file there).

    The export is not a memory and lives outside the tree, so it does not go through the store,
    which only writes memory files and re-indexes what it writes; the store's own atomic writer
    still gives it the all-or-nothing, never-clobber write.
    """
    write_atomic(path, data, str(path), expected)

"""The reader (`Enter` on a list): one memory full-screen, its fields, its problems, its body, and
for a project its notes.md and decisions.md. It follows the file: a change on disk shows at once,
a deletion is said. `n`/`p` (or `]`/`[`) read the next or previous memory of the list, whose
cursor follows, so Esc comes back to the row last read. Where the memory came from (its session,
or the original of a merge copy) is one line above its fields; `w` reads the original, or picks
one of the session's other memories to read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...core.basics.model import Memory
from ...core.views.origin import Origin, names_an_origin
from ...core.writing.project_files import NOTE_NAMES, ProjectFile, project_files
from .. import related_line
from ..markdown_source import markdown_source
from ..visible_text import shown, visible
from ..widgets.fitted_footer import FittedFooter
from ..widgets.markdown_body import MarkdownBody
from ..widgets.plain_lines import PlainLines
from ..widgets.preview import (
    above_body,
    find_origin,
    origin_text,
    show_related,
    without_title,
)
from ..workers import background
from ..wrapping import Wrapped
from .live_screen import LiveScreen

if TYPE_CHECKING:
    from ..host import Host

MARKDOWN_LIMIT = 20_000
"""Characters of a body drawn as Markdown; a longer one is shown as plain lines (see
plain_lines.py: Textual's Markdown widget takes seconds per few tens of thousands)."""

DELETED = "This file is no longer there: deleted or moved on disk. Esc goes back to the list."


class DocumentScroll(VerticalScroll):
    """The reader's document. End holds it at its end until another key moves it: a part laid
    out after the key (a file that changed on disk, the related line) does not leave it short."""

    def action_scroll_end(self) -> None:
        self.anchor()


class ReaderScreen(LiveScreen):
    """One memory, full-screen; all tree text goes in as Text or escaped Markdown source."""

    HELP_TITLE = "Reader"
    HELP_PURPOSE = (
        "One memory full-screen: its fields, its problems and its body, and for a project its "
        "notes.md and decisions.md. It follows the file: a change on disk shows at once."
    )
    HELP_KEYS = {
        "reader.next": "Read the next memory of the list",
        "reader.previous": "Read the previous memory of the list",
        "reader.close": "Back to the list, on the row last read",
        "reader.origin": "Read the original of a merge copy, or pick one of the other memories "
        "its session wrote",
        "reader.related": "Pick one of the memories closest in meaning, and read it",
    }

    BINDINGS = [
        Binding("escape,q", "close", "Back", id="reader.close"),
        Binding("e", "edit", "Edit fields", id="reader.edit"),
        Binding("n,right_square_bracket", "step(1)", "Next", id="reader.next", key_display="n"),
        Binding(
            "p,left_square_bracket", "step(-1)", "Previous", id="reader.previous", key_display="p"
        ),
        Binding("y", "copy_path", "Copy path", id="reader.copy_path"),
        Binding("O", "open_folder", "Open folder", id="reader.open_folder"),
        Binding("w", "origin", "Where from", id="reader.origin"),
        Binding("m", "related", "Related", show=False, id="reader.related"),
        Binding("o", "open_editor", "Open in $EDITOR", show=False, id="reader.open_editor"),
        Binding("space", "page(1)", "Page down", show=False, id="reader.page_down"),
        Binding("shift+space", "page(-1)", "Page up", show=False, id="reader.page_up"),
        Binding("j", "line(1)", "Down", show=False, id="reader.down"),
        Binding("k", "line(-1)", "Up", show=False, id="reader.up"),
    ]

    def __init__(self, memory: Memory) -> None:
        super().__init__()
        self.memory: Memory | None = memory
        self.path = memory.path
        self.notes: list[ProjectFile] = []

    @property
    def samantha(self) -> Host:
        return self.app

    def compose(self) -> ComposeResult:
        yield Static(id="reader-head")
        yield Static(id="reader-banner")
        with DocumentScroll(id="reader-scroll"):
            yield Static(id="reader-origin")
            yield Static(id="reader-related")
            yield Static(id="reader-fields")
            yield MarkdownBody(id="reader-body")
            # A slot for each note, filled in place: the document is whole from the frame that
            # shows it, so End (or a page key) sent with the key that opened it goes to its end.
            for index in range(len(NOTE_NAMES)):
                yield Static(id=f"reader-note-head-{index}", classes="reader-note-head")
                yield MarkdownBody(id=f"reader-note-{index}", classes="reader-note")
        yield PlainLines(id="reader-plain")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.query_one("#reader-banner", Static).display = False
        self.query_one("#reader-origin", Static).display = False
        self.query_one("#reader-related", Static).display = False
        self.show(self.memory)

    @property
    def scroller(self) -> VerticalScroll | PlainLines:
        plain = self.query_one("#reader-plain", PlainLines)
        return plain if plain.display else self.query_one("#reader-scroll", VerticalScroll)

    # --- showing ---------------------------------------------------------------------------------

    def show(self, memory: Memory | None, keep_place: bool = False) -> None:
        """Show `memory` (None: the file went away, and the last text stays, said so).

        Every part is updated in place, with nothing mounted or awaited: a key the scroller
        takes meanwhile (End) never sees half a document."""
        banner = self.query_one("#reader-banner", Static)
        if memory is None:
            banner.update(Text(DELETED, style="bold"))
            banner.display = True
            self.memory = None
            return
        banner.display = False
        self.memory = memory
        self.path = memory.path
        where = shown(f"{memory.kind.label} · {memory.path}", style="dim")
        head = Group(shown(memory.title, style="bold"), Wrapped(where))
        self.query_one("#reader-head", Static).update(head)
        parts = above_body(memory)
        fields = self.query_one("#reader-fields", Static)
        fields.update(Group(*parts))
        fields.display = bool(parts)
        self._look_up_origin(memory)
        if self.samantha.settings.meaning:
            self._find_related(memory)
        scroll = self.query_one("#reader-scroll", VerticalScroll)
        text = without_title(memory.body, memory.title)
        body = self.query_one("#reader-body", MarkdownBody)
        plain = self.query_one("#reader-plain", PlainLines)
        long_body = len(text) > MARKDOWN_LIMIT
        place = plain.scroll_y if keep_place and long_body and plain.display else None
        plain.display = long_body
        scroll.set_class(long_body, "-fields-only")
        if long_body:
            body.display = False
            body.show("")
            plain.set_text(text)
        else:
            body.display = bool(text.strip())
            body.show(markdown_source(text))
        self.notes = project_files(self.samantha.store, memory)
        self._show_notes()
        self.scroller.focus()
        if place is not None:
            plain.scroll_to(y=place, animate=False)
        elif not keep_place:
            # Shown again in place (a change on disk), the reading stays where it was.
            self.scroller.scroll_home(animate=False, immediate=True)

    def _show_notes(self) -> None:
        for index in range(len(NOTE_NAMES)):
            head = self.query_one(f"#reader-note-head-{index}", Static)
            body = self.query_one(f"#reader-note-{index}", MarkdownBody)
            note = self.notes[index] if index < len(self.notes) else None
            head.display = note is not None
            body.display = note is not None and bool(note.text.strip())
            if note is None:
                continue
            title = Text(note.name, style="bold")
            title.append(f"  {visible(note.path)}", style="dim")
            if note.problem:
                title.append(f"\n{visible(note.problem)}", style="yellow")
            head.update(title)
            if len(note.text) > MARKDOWN_LIMIT:
                body.show_text(shown(note.text, multi_line=True))
            else:
                body.show(markdown_source(note.text))

    # --- where it came from ----------------------------------------------------------------------

    def _look_up_origin(self, memory: Memory) -> None:
        """The origin line, found off the event loop; a memory naming none hides it at once."""
        if self.samantha.checking is not None or not names_an_origin(memory):
            self._show_origin(None)
            return
        # Emptied, its height kept, until this memory's line is found: never another's.
        self.query_one("#reader-origin", Static).update("")
        self._find_origin(memory)

    @background(group="reader-origin", exclusive=True)
    async def _find_origin(self, memory: Memory) -> None:
        origin = await find_origin(self.samantha.curator.tree, memory)
        if self.memory is memory:
            self._show_origin(origin)

    def _show_origin(self, origin: Origin | None) -> None:
        line = self.query_one("#reader-origin", Static)
        if origin is not None:
            line.update(origin_text(origin))
        line.display = origin is not None
        # Right above the fields, which keep their own top margin when there is no line.
        self.query_one("#reader-fields", Static).set_class(origin is not None, "-under-origin")

    def tree_changed(self, changed: tuple[str, ...]) -> None:
        """The file changed on disk (or by an edit): show it again where the reading was."""
        memory = self.samantha.curator.get(self.path)
        if memory is self.memory:
            return
        self.show(memory, keep_place=True)

    # --- keys ------------------------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def action_page(self, step: int) -> None:
        scroller = self.scroller
        if step > 0:
            scroller.scroll_page_down(animate=False)
        else:
            scroller.scroll_page_up(animate=False)

    def action_line(self, step: int) -> None:
        scroller = self.scroller
        if step > 0:
            scroller.scroll_down(animate=False)
        else:
            scroller.scroll_up(animate=False)

    def action_edit(self) -> None:
        # The form opens over the reader: saving lands in the file, and the reader shows it.
        if self.memory is not None:
            self.samantha.open_form(self.memory.kind, self.memory)

    def action_step(self, step: int) -> None:
        following = self.samantha.neighbour(self.path, step)
        if following is None:
            self.notify("The last memory of the list" if step > 0 else "The first of the list")
            return
        self.show(following)

    def action_copy_path(self) -> None:
        self.samantha.copy_path(self.path)

    def action_open_folder(self) -> None:
        self.samantha.open_folder_of(self.path)

    def action_open_editor(self) -> None:
        self.samantha.action_open_editor()

    def action_origin(self) -> None:
        if self.memory is not None:
            self.samantha.follow_origin(self.memory, self._read_reached)

    def action_related(self) -> None:
        if self.memory is not None:
            self.samantha.follow_related(self.memory, self._read_reached)

    @background(group="reader-related", exclusive=True, thread=True)
    def _find_related(self, memory: Memory) -> None:
        """The line of the memories closest in meaning, found in a thread (the first call of a
        session loads the model)."""
        line = related_line.line_of(self.samantha, memory)
        self.app.call_from_thread(self._show_related, memory, line)

    def _show_related(self, memory: Memory, line: Text | None) -> None:
        if self.memory is memory:
            show_related(self.query_one("#reader-related", Static), line)

    def _read_reached(self, path: str) -> None:
        """Read the memory reached from this one's origin, the list's cursor on it beneath (so
        Esc comes back to it, and n/p go on from it)."""
        memory = self.samantha.curator.get(path)
        if memory is None:
            return
        self.samantha.jump_to(path)
        self.show(memory)

"""The right pane: a memory's fields as a compact table, its problems, then its body as Markdown."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Callable
from itertools import zip_longest
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

from ...core.basics.model import Memory, Problem, Severity, Tree
from ...core.reading.frontmatter import render_field
from ...core.views.origin import Origin, names_an_origin, origin_of
from ..markdown_source import markdown_source
from ..visible_text import shown, visible_lines
from ..workers import background
from ..wrapping import Wrapped, wrap
from .markdown_body import MarkdownBody

MAX_VALUE_CHARS = 600
PREVIEW_BODY_CHARS = 20_000
"""Characters of a body the pane draws as Markdown: drawing is paid again at each width the pane
takes, and a 1 MB body would hold the app for seconds each time. The reader (Enter) shows all of
it."""


def preview_part(text: str) -> str:
    """The Markdown source the pane shows for a body: all of it, or its start and a note."""
    if len(text) <= PREVIEW_BODY_CHARS:
        return markdown_source(text)
    cut = text.rfind("\n", 0, PREVIEW_BODY_CHARS)
    cut = cut if cut > 0 else PREVIEW_BODY_CHARS
    rest = len(text) - cut
    return (
        markdown_source(text[:cut]) + f"\n\n*… {rest:,} more characters: Enter reads them all.*\n"
    )


def format_value(value: Any) -> str:
    """Scalars and flat lists on one line; nested values as the YAML lines the file would hold."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list) and all(not isinstance(v, list | dict) for v in value):
        return ", ".join(format_value(v) for v in value) or "(none)"
    if isinstance(value, list | dict):
        lines = [line.rstrip("\n") for line in render_field("_", value)]
        text = "\n".join(line.removeprefix("  ") for line in lines[1:]) or lines[0][3:]
    else:
        text = "" if value is None else str(value)
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def fields_table(memory: Memory) -> Fields:
    """A memory's fields, a key and its value on each row, folded to the pane's width."""
    rows = [
        (shown(str(key)), shown(format_value(value), multi_line=True), _nested(value))
        for key, value in memory.frontmatter.items()
    ]
    if memory.companions:
        # Relative to the project folder, so `docs/design.md` says where it lives.
        folder = memory.path.rsplit("/", 1)[0] + "/"
        names = ", ".join(path.removeprefix(folder) for path in memory.companions)
        rows.append((Text("files"), shown(names, style="italic"), False))
    return Fields(rows)


def _nested(value: Any) -> bool:
    """Whether format_value shows `value` as YAML lines of its own."""
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and any(isinstance(v, list | dict) for v in value)


FIELD_GAP = 2
"""Columns between a key and its value."""
STACKED_BELOW = 10
"""Below this many columns for the values, or fewer than the longest word of one takes, each
value goes under its key, indented."""
YAML_KEY = re.compile(r"(?:- )+|[^\s:][^:]*: ")
"""What a folded YAML line hangs under: its list dashes, or its key and colon."""


class Fields:
    """Keys in a bold column, values beside them folded at spaces and path separators (never
    mid-word while a word fits); a folded line of a nested value hangs under its own key, so the
    YAML still reads as the file holds it. Too narrow for a value's longest word beside the keys,
    each value goes under its key."""

    def __init__(self, rows: list[tuple[Text, Text, bool]]) -> None:
        self.rows = rows
        # A path breaks well at its `/`: only other words ask for the room to stay whole.
        self._longest_word = max(
            (
                cell_len(word)
                for _, value, _ in rows
                for word in value.plain.split()
                if "/" not in word
            ),
            default=0,
        )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        key_width = max((cell_len(key.plain) for key, _, _ in self.rows), default=0)
        value_width = width - key_width - FIELD_GAP
        stacked = value_width < max(STACKED_BELOW, self._longest_word)
        if stacked:
            key_width, value_width = width, width - FIELD_GAP
        out = Text()
        for key, value, nested in self.rows:
            lines = value_lines(value, value_width, nested)
            key_lines = wrap(key, key_width)
            if stacked:
                rows = [(line, Text()) for line in key_lines]
                rows += [(Text(), line) for line in lines]
            else:
                rows = list(zip_longest(key_lines, lines, fillvalue=Text()))
            for key_line, line in rows:
                if out:
                    out.append("\n")
                if line.plain:
                    # The gap is the key's: one run of cells, as a table cell pads its text.
                    pad = FIELD_GAP if stacked else key_width + FIELD_GAP - cell_len(key_line.plain)
                    key_line.append(" " * pad)
                key_line.stylize("bold")
                out.append_text(key_line)
                out.append_text(line)
        out.no_wrap = True
        out.overflow = "crop"
        yield out

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        keys = max((cell_len(key.plain) for key, _, _ in self.rows), default=0)
        values = max(
            (cell_len(line) for _, value, _ in self.rows for line in value.plain.split("\n")),
            default=0,
        )
        return Measurement(min(keys, 8), keys + FIELD_GAP + values).clamp(
            max_width=options.max_width
        )


def value_lines(value: Text, width: int, nested: bool) -> list[Text]:
    """A field's value folded to `width`: each line of nested YAML hangs under its own key (or
    its list dashes) once folded; a plain value's lines start at the column's edge."""
    out: list[Text] = []
    for line in value.split("\n", allow_blank=True):
        hang = 0
        if nested:
            plain = line.plain
            indent = len(plain) - len(plain.lstrip(" "))
            found = YAML_KEY.match(plain, indent)
            hang = indent + (len(found.group()) if found else 0)
            if hang > width // 2:
                hang = indent + FIELD_GAP
        out.extend(wrap(line, width, hang))
    return out


def problem_lines(problems: tuple[Problem, ...] | list[Problem]) -> Text:
    text = Text()
    for problem in problems:
        style = "bold red" if problem.severity is Severity.ERROR else "yellow"
        where = f"line {problem.line}: " if problem.line else ""
        text.append("✗ " if problem.severity is Severity.ERROR else "· ", style=style)
        text.append(f"{where}{visible_lines(problem.message)}\n")
    text.rstrip()
    return text


def without_title(body: str, title: str) -> str:
    """The body minus its first `# ` heading when that is the title shown above it."""
    stripped = body.lstrip()
    first, _, rest = stripped.partition("\n")
    if first.rstrip("\r").removeprefix("# ").strip() == title and first.startswith("# "):
        return rest
    return body


def origin_text(origin: Origin) -> Text:
    """Where a memory came from, as the one line the preview and the reader show (the session
    id, its project and a file name are user text: escaped, never markup)."""
    return shown(origin.line(), style="italic")


async def find_origin(tree: Tree[Memory], memory: Memory) -> Origin | None:
    """`origin_of` off the event loop: it reads the session's status.json."""
    return await asyncio.to_thread(origin_of, tree, memory)


def show_related(static: Static, line: Text | None) -> None:
    """The related line in its place above the fields (the preview's and the reader's), or the
    place hidden when there is none."""
    if line is not None:
        static.update(line)
    static.display = line is not None


TreeSource = Callable[[], "Tree[Memory] | None"]
"""The checked tree that origins are looked up in; None while there is none yet."""
RelatedSource = Callable[[Memory], "Text | None"]
"""The line of the memories closest in meaning to one (None: none, or comparing is off); called
in a thread, as it may load the embedding model."""


BODY_PAUSE = 0.08
"""Seconds without another held move before the body of the memory reached is laid out."""


class Preview(VerticalScroll):
    """Shows one memory; all user text goes in as Text or Markdown source, never as markup.

    While a key is held (a move marked `held`), each memory's title, path, problems and fields show
    at once and its body is hidden; the body of the memory the keys stopped on is laid out once
    they pause for BODY_PAUSE. Laying out Markdown for every row passed cost more than a frame,
    and its widgets, dropped a moment later, kept the garbage collector busy.
    """

    def __init__(
        self,
        *,
        origin_tree: TreeSource | None = None,
        related: RelatedSource | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._origin_tree = origin_tree
        self._related = related

    def compose(self) -> ComposeResult:
        yield Static(id="preview-head")
        origin = Static(id="preview-origin")
        origin.display = False
        yield origin
        related = Static(id="preview-related")
        related.display = False
        yield related
        yield Static(id="preview-fields")
        yield MarkdownBody(id="preview-body")

    shown: Memory | None = None
    """The record on show; records are immutable, so the same object needs no redraw."""

    _body_timer: Timer | None = None

    @property
    def body_pending(self) -> bool:
        """Whether the body of the memory on show waits for held keys to pause."""
        return self._body_timer is not None

    def show_memory(self, memory: Memory, held: bool = False) -> AwaitComplete:
        """Show a memory. `held`: more moves are likely to follow at once, so the body waits
        until they pause. The result is already complete: it is awaitable for the screens that
        await it."""
        if memory is self.shown:
            # A search re-ranking as you type often keeps the same memory first: nothing of it
            # needs drawing again.
            if not held and not self.body_pending:
                self._origin_again(memory)
            return AwaitComplete.nothing()
        self.shown = memory
        head = Group(shown(memory.title, style="bold"), Wrapped(shown(memory.path, style="dim")))
        head_widget = self.query_one("#preview-head", Static)
        update_in_place(head_widget, head, grow_only=held)
        parts = above_body(memory)
        fields = self.query_one("#preview-fields", Static)
        update_in_place(fields, Group(*parts), grow_only=held)
        fields.display = bool(parts)
        body = self.query_one("#preview-body", MarkdownBody)
        self.scroll_home(animate=False)
        if held:
            # Hidden, not left showing the body of a row passed before.
            body.display = False
            self._blank_origin()
            self._blank_related()
            self._stop_body_timer()
            self._body_timer = self.set_timer(BODY_PAUSE, self._draw_waiting_body)
            return AwaitComplete.nothing()
        self._stop_body_timer()
        self._look_up_origin(memory)
        self._look_up_related(memory)
        text = without_title(memory.body, memory.title)
        body.display = bool(text.strip())
        body.show(preview_part(text))
        return AwaitComplete.nothing()

    def _draw_waiting_body(self) -> None:
        self._body_timer = None
        memory = self.shown
        if memory is None:
            return
        # Sized for the tallest row passed while the keys were held: now exactly this one's.
        fit_height(self.query_one("#preview-head", Static))
        fit_height(self.query_one("#preview-fields", Static))
        self._look_up_origin(memory)
        self._look_up_related(memory)
        body = self.query_one("#preview-body", MarkdownBody)
        text = without_title(memory.body, memory.title)
        body.show(preview_part(text))
        body.display = bool(text.strip())

    # --- where the memory came from ---------------------------------------------------------------

    def _blank_origin(self) -> None:
        """While keys are held no status.json is read: the line of a row passed is emptied, its
        height kept (no layout for each row)."""
        line = self.query_one("#preview-origin", Static)
        if line.display:
            line.update("", layout=False)

    _origin_seen: object = None
    """The tree the line on show was looked up in."""

    def _origin_again(self, memory: Memory) -> None:
        """The same record shown again after the tree changed (a memory of its session deleted,
        the checked tree replacing the catalog's): its line may say something else now."""
        tree = self._origin_tree() if self._origin_tree is not None else None
        if tree is not self._origin_seen and names_an_origin(memory):
            self._look_up_origin(memory)

    def _look_up_origin(self, memory: Memory) -> None:
        """Show where `memory` came from once it is found (off the event loop); most memories
        name no origin and hide the line at once, reading nothing."""
        tree = self._origin_tree() if self._origin_tree is not None else None
        self._origin_seen = tree
        if tree is None or not names_an_origin(memory):
            self._show_origin(None)
            return
        self._blank_origin()
        self._find_origin(tree, memory)

    @background(group="preview-origin", exclusive=True)
    async def _find_origin(self, tree: Tree[Memory], memory: Memory) -> None:
        origin = await find_origin(tree, memory)
        if self.shown is memory:
            self._show_origin(origin)

    def _show_origin(self, origin: Origin | None) -> None:
        line = self.query_one("#preview-origin", Static)
        if origin is None:
            line.display = False
            return
        line.update(origin_text(origin))
        line.display = True

    # --- what is close in meaning ----------------------------------------------------------------

    def _blank_related(self) -> None:
        line = self.query_one("#preview-related", Static)
        if line.display:
            line.update("", layout=False)

    def _look_up_related(self, memory: Memory) -> None:
        """The titles of the memories closest in meaning, found in a thread once the body is
        drawn (never for the rows passed while a key is held); no line when comparing is off."""
        if self._related is None:
            return
        self._blank_related()
        self._find_related(memory)

    @background(group="preview-related", exclusive=True, thread=True)
    def _find_related(self, memory: Memory) -> None:
        assert self._related is not None
        line = self._related(memory)
        self.app.call_from_thread(self._show_related, memory, line)

    def _show_related(self, memory: Memory, line: Text | None) -> None:
        if self.shown is memory:
            show_related(self.query_one("#preview-related", Static), line)

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.stop()
            self._body_timer = None

    def show_message(self, title: str, message: str = "") -> None:
        self._stop_body_timer()
        self.shown = None
        self.query_one("#preview-head", Static).update(shown(title, style="bold"))
        fields = self.query_one("#preview-fields", Static)
        fields.update(shown(message, multi_line=True))
        fields.display = bool(message)
        self.query_one("#preview-origin", Static).display = False
        self.query_one("#preview-related", Static).display = False
        self.query_one("#preview-body", MarkdownBody).display = False


def update_in_place(static: Static, content: Any, *, grow_only: bool = False) -> None:
    """Update a Static of automatic height, laying the screen out again only when the new content
    takes another number of lines (with `grow_only`, only when it takes more: the shorter content
    shows in the taller box, blank lines under it, until `fit_height`).

    A layout is Textual's reflow of every widget on the screen; paging through memories whose
    fields fill as many lines as the last one's then repaints the pane alone."""
    width, height = static.size
    static.update(content, layout=False)
    if not width or not static.display:
        static.refresh(layout=True)
        return
    lines = static.get_content_height(static.size, static.size, width)
    if lines > height or (lines < height and not grow_only):
        static.refresh(layout=True)


def fit_height(static: Static) -> None:
    """Lay the screen out again if a Static's content no longer fills exactly its height."""
    width, height = static.size
    if static.display and static.get_content_height(static.size, static.size, width) != height:
        static.refresh(layout=True)


def above_body(memory: Memory) -> list[Any]:
    """What the preview and the reader show above a memory's body: its problems, its fields."""
    parts: list[Any] = []
    if memory.problems:
        parts.append(problem_lines(memory.problems))
    if memory.frontmatter or memory.companions:
        parts.append(fields_table(memory))
    return parts

"""The `ctrl+k` jump palette: every memory of every kind, ranked by the core's search index.

Textual's own fuzzy matcher walks every candidate on each keystroke (~300 ms at 10,000 titles);
here a keystroke costs one `SearchIndex.search`, run off the event loop, and only the hits shown
are turned into text.
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.screen import Screen
from textual.style import Style
from textual.system_commands import SystemCommandsProvider
from textual.theme import ThemeProvider

from ..core.basics.model import Kind, Memory, Tree
from ..core.basics.visible import visible, visible_with_spans
from ..core.views.naming import names_of
from . import rows
from .rows import Spans
from .screens.dismiss_once import DismissOnce
from .visible_text import shown_content

if TYPE_CHECKING:
    from ..core.views.query import Term
    from ..core.views.search import SearchIndex, SearchResult
    from ..core.writing.store import Store

PLACEHOLDER = "Jump to a memory…"
SEARCH_LIMIT = 50
"""Hits listed for a query: more than a palette shows, fewer than costs time to draw."""
DISCOVERY_LIMIT = 30
"""Memories listed before anything is typed: the critical ones, then the newest short-term."""
FALLBACK_MATCH_STYLE = Style(bold=True, underline=True)
"""Used when the palette names no highlight style of its own."""


class JumpHost(Protocol):
    """What the palette needs from the app it opens in."""

    store: Store
    """Its `tree` holds the records of every path the index can return."""
    search_index: SearchIndex | None
    """None until the tree is read."""

    def jump_to(self, path: str) -> None: ...


class JumpProvider(Provider):
    """Memories for the jump palette; the app's `jump_to(path)` runs when one is chosen."""

    def __init__(self, screen: Screen[Any], match_style: Style | None = None) -> None:
        super().__init__(screen, match_style)
        self._tree: Tree | None = None
        self._by_path: Mapping[str, Memory] = {}

    @property
    def _host(self) -> JumpHost:
        # The app this provider opens in is SamanthaApp, which has what JumpHost lists.
        return self.app  # type: ignore[return-value]

    def _records(self) -> Mapping[str, Memory]:
        """Path -> memory of the store's current tree; rebuilt only when the tree was replaced."""
        tree = self._host.store.tree
        if tree is not self._tree:
            self._by_path = {memory.path: memory for memory in tree.memories}
            self._tree = tree
        return self._by_path

    async def search(self, query: str) -> Hits:
        index = self._host.search_index
        if index is None:
            yield _hint("Still reading the tree…", "The memories appear here once it is read.")
            return
        result, records, named = await asyncio.to_thread(self._ranked, index, query)
        if result.error is not None:
            yield _hint(result.error, "Fix the query to see memories again.")
            return
        # A Content, not a rich Text: the palette's highlight style has transparent colours that
        # only Content blends (as a rich style they would paint the matches black).
        style = self.match_style or FALLBACK_MATCH_STYLE
        for hit in result.hits:
            memory = records.get(hit.path)
            if memory is None:
                continue
            name, marks = named.get(hit.path, (memory.title, hit.title_spans))
            plain, spans = visible_with_spans(name, marks)
            title = Content(plain)
            for start, end in spans:
                title = title.stylize(style, start, end)
            yield Hit(
                hit.score / 100,
                title,
                self._jump(memory.path),
                text=plain,
                help=_help(memory),
            )

    def _ranked(
        self, index: SearchIndex, query: str
    ) -> tuple[SearchResult, Mapping[str, Memory], dict[str, tuple[str, Spans]]]:
        """The hits, the records, and for each hit not named by its title its name and the
        query's words marked in it (a hit's spans mark the title)."""
        from ..core.views.search import spans_in  # loaded with the index this search ran on

        result = index.search(query, SEARCH_LIMIT)
        records = self._records()
        names = names_of(self._host.store.tree)
        named: dict[str, tuple[str, Spans]] = {}
        terms: tuple[Term, ...] | None = None
        for hit in result.hits:
            memory = records.get(hit.path)
            if memory is None or names.is_plain(memory):
                continue
            if terms is None:
                terms = _terms(query)
            name = names.shown(memory)
            named[hit.path] = (
                name,
                spans_in(name, terms) if name != memory.title else hit.title_spans,
            )
        return result, records, named

    async def discover(self) -> Hits:
        names = names_of(self._host.store.tree)
        for memory in await asyncio.to_thread(self._discovered):
            name = names.shown(memory)
            yield DiscoveryHit(
                shown_content(name),
                self._jump(memory.path),
                text=visible(name),
                help=_help(memory),
            )

    def _discovered(self) -> list[Memory]:
        """The critical memories (newest first), then the newest short-term ones."""
        memories = self._records().values()
        critical = rows.sort_memories(None, [m for m in memories if m.critical])
        short_term = (m for m in memories if m.kind is Kind.SHORT_TERM and not m.critical)
        newest = heapq.nlargest(
            max(DISCOVERY_LIMIT - len(critical), 0),
            short_term,
            key=lambda m: (m.date.toordinal() if m.date else 0, m.path),
        )
        return [*critical, *newest][:DISCOVERY_LIMIT]

    def _jump(self, path: str) -> Callable[[], None]:
        return partial(self._host.jump_to, path)


def _terms(query: str) -> tuple[Term, ...]:
    from ..core.views.query import QueryError, parse

    try:
        return parse(query).wanted
    except QueryError:
        return ()


def _help(memory: Memory) -> str:
    """The kind and the path under the title; a Content so a `[` in a file name stays literal."""
    parts = [memory.kind.label, "critical" if memory.critical else "", memory.path]
    # Hit.help is typed str, but the palette passes a Content through its markup parser untouched.
    return shown_content("  ·  ".join(part for part in parts if part))  # type: ignore[return-value]


def _hint(message: str, help: str) -> Hit:
    """A line that explains why nothing is listed; choosing it only closes the palette."""
    message = visible(message)
    return Hit(0.0, Content.styled(message, "italic"), _nothing, text=message, help=help)


def _nothing() -> None:
    """Choosing a hint does nothing beyond closing the palette."""


NAME_RANK = 0.7
"""Commands whose name holds the query rank above this; the others below it."""
ALIAS_SCORE = 0.6
FUZZY_RANK = 0.3
"""A name that matches only loosely (the query's letters in order, "exit" in "index: ...
entries tied") ranks between an alias and the help text."""
HELP_SCORE = 0.2


def command_score(
    query: str, name: str, name_score: float, aliases: tuple[str, ...], help_text: str
) -> float:
    """How well a command fits `query`: a name that holds it first, then an alias that holds
    it, then a loose fuzzy match of the name (Textual's score), then its help text; 0 for none."""
    wanted = query.strip().lower()
    if not wanted:
        return 0.0
    # Textual's fuzzy scores are not bounded by 1: brought into [0, 1) so the tiers hold.
    name_score = max(name_score, 0.0) / (1 + max(name_score, 0.0))
    if wanted in name.lower():
        return NAME_RANK + name_score * (1 - NAME_RANK)
    if any(wanted in alias.lower() for alias in aliases):
        return ALIAS_SCORE
    if name_score > 0:
        return FUZZY_RANK + name_score * (ALIAS_SCORE - FUZZY_RANK)
    words = help_text.lower()
    if all(word in words for word in wanted.split()):
        return HELP_SCORE
    return 0.0


class CommandsProvider(SystemCommandsProvider):
    """The app's commands, found by name, by alias ("exit" finds quit) and by what they do."""

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        aliases: Mapping[str, tuple[str, ...]] = getattr(self.app, "command_aliases", dict)()
        for name, help_text, callback, *_ in self.app.get_system_commands(self.screen):
            name_score = matcher.match(name)
            score = command_score(query, name, name_score, aliases.get(name, ()), help_text)
            if score > 0:
                shown = matcher.highlight(name) if name_score > 0 else Content(name)
                yield Hit(score, shown, callback, text=name, help=help_text)


class Palette(DismissOnce, CommandPalette):
    """Textual's command palette, safe from keys that come faster than it draws.

    Races of Textual 8.2.8 closed the app: a page key before the list is laid out (`ctrl+k` then
    `PgDn`), a letter typed just before `Esc`, whose search started after the palette was
    dismissed and looked for its list while the palette was taken down, and a second dismiss.
    """

    def _action_command_list(self, action: str) -> None:
        # Moving a page starts from the highlighted option's line; until the list has a size it
        # has made no lines (KeyError).
        if action.startswith("page_") and not self.query_one(CommandList).scrollable_content_region:
            return
        super()._action_command_list(action)

    # Textual's is an async @work method (calling it starts a worker); this plain one calls it.
    def _gather_commands(self, search_value: str) -> None:  # type: ignore[override]
        # Off the screen stack means dismissed (popping is immediate, taking down is not).
        if self.is_active:
            super()._gather_commands(search_value)

    def _watch__list_visible(self) -> None:
        if self.is_active:
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self.is_active:
            await super()._watch__show_busy()


def palette_open(app: App[Any]) -> bool:
    """A palette anywhere on the screen stack, current or not yet shown.

    Textual's own check looks at the current screen only: two `ctrl+p` in one burst, or one
    pressed while a screen covers a palette, pushed a second palette with the same id, which
    Textual refuses by closing the app (key mashing found it).
    """
    return any(isinstance(screen, CommandPalette) for screen in app.screen_stack)


def open_jump_palette(app: App[Any]) -> None:
    """Open the palette over every memory (the app must satisfy JumpHost)."""
    if not palette_open(app):
        app.push_screen(Palette(providers=[JumpProvider], placeholder=PLACEHOLDER))


def open_command_palette(app: App[Any]) -> None:
    """`ctrl+p`: Textual's palette of every command, as a Palette."""
    if app.use_command_palette and not palette_open(app):
        app.push_screen(Palette(id="--command-palette"))


def open_theme_palette(app: App[Any]) -> None:
    """`theme: change`: Textual's theme picker, as a Palette."""
    if not palette_open(app):
        app.push_screen(Palette(providers=[ThemeProvider], placeholder="Search for themes…"))

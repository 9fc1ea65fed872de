"""The jump palette over a few given memories (the other memories of a session), all listed at
once and narrowed by typing; choosing one calls back with its path.

A palette's providers are classes it makes itself, so the memories and the callback go in as
the attributes of a subclass made for each opening.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from ..core.basics.model import Memory
from ..core.basics.visible import visible
from ..core.views.naming import Names
from .jump import FALLBACK_MATCH_STYLE, Palette, _help, palette_open
from .visible_text import shown_content


class ListedProvider(Provider):
    """The memories of `listed`, in their order; `choose(path)` runs on the one picked."""

    listed: tuple[tuple[Memory, str], ...] = ()
    """Each memory with the name it is shown by (views/naming.py)."""

    @staticmethod
    def choose(path: str) -> object:
        """Replaced by each opening's callback."""
        return None

    def _chosen(self, path: str) -> Callable[[], object]:
        return partial(type(self).choose, path)

    async def discover(self) -> Hits:
        for memory, name in self.listed:
            yield DiscoveryHit(
                shown_content(name),
                self._chosen(memory.path),
                text=visible(name),
                help=_help(memory),
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        style = self.match_style or FALLBACK_MATCH_STYLE
        for memory, name in self.listed:
            # Matched on the shown text (escapes, not control characters; the distinguishing
            # line of a shared heading); highlighted on a Content made from it, never parsed as
            # markup (the matcher's own highlight is).
            plain = visible(name)
            score, offsets = matcher.fuzzy_search.match(query, plain)
            if score <= 0:
                continue
            title = Content(plain)
            for offset in offsets:
                title = title.stylize(style, offset, offset + 1)
            yield Hit(score, title, self._chosen(memory.path), text=plain, help=_help(memory))


def open_memory_picker(
    app: App[Any],
    memories: Sequence[Memory],
    choose: Callable[[str], object],
    placeholder: str,
    names: Names,
) -> bool:
    """Open the palette over `memories`, each shown by its name among `names` (its tree's);
    whether it opened (one palette at a time)."""
    if palette_open(app):
        return False
    listed = tuple((memory, names.shown(memory)) for memory in memories)
    provider = type(
        "PickedMemories",
        (ListedProvider,),
        {"listed": listed, "choose": staticmethod(choose)},
    )
    app.push_screen(Palette(providers=[provider], placeholder=visible(placeholder)))
    return True

"""The memories closest in meaning to one, and the line the preview and the reader show of them
(`Related (m): title · title`), once a body is drawn. Apart from the `m` key's picker
(related_jump.py), so the screens that show the line import no palette."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ..core.basics.model import Memory
from ..core.views.meaning import Related, Unavailable
from ..core.views.naming import names_of
from .health import UNASKED_MAX
from .visible_text import shown

if TYPE_CHECKING:
    from .host import Host


def related_of(host: Host, memory: Memory) -> tuple[Related, ...] | Unavailable:
    """The memories closest to `memory` (any thread: it reads records and the catalog)."""
    from ..core.views.meaning.analysis import related_if  # with the first preview, not before

    curator = host.curator
    return related_if(
        host.settings.meaning, memory.path, curator.tree.memories, curator.store.catalog()
    )


def related_line(host: Host, found: tuple[Related, ...]) -> Text | None:
    """`Related (m): name · name · …`, or None when nothing is close; each memory by the name
    it is shown by (a session's by its distinguishing line)."""
    names = names_of(host.curator.tree)
    titles = [names.shown(m) for m in (host.curator.get(r.path) for r in found) if m is not None]
    if not titles:
        return None
    line = Text()
    line.append("Related (m): ", style="bold")
    for n, title in enumerate(titles):
        if n:
            line.append(" · ", style="dim")
        line.append_text(shown(title))
    return line


def line_of(host: Host, memory: Memory) -> Text | None:
    """The line for `memory`, or None when nothing is close or comparing is off (any thread).
    Over UNASKED_MAX memories there is no line: its first reading would embed the whole tree
    (minutes and a gigabyte at 100,000) for a line nobody asked for; `m` still compares."""
    if len(host.curator.tree.memories) > UNASKED_MAX:
        return None
    found = related_of(host, memory)
    return None if isinstance(found, Unavailable) else related_line(host, found)

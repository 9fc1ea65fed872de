"""The related key (`m`): the memories closest in meaning to one, in a picker, best first; Enter
goes to the one chosen (related_line.py finds them and words the line above the fields). Where
the person lands is the caller's, as for the origin key. The comparison runs in a thread: the
first one of a session loads the embedding model (half a second), later ones reuse the vectors
the catalog keeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.basics.model import Memory
from ..core.views.meaning import Unavailable
from ..core.views.naming import names_of
from .memory_picker import open_memory_picker
from .origin_jump import land_on
from .related_line import related_of

if TYPE_CHECKING:
    from .host import Host

NONE_CLOSE = "No memory is close in meaning to {name}"


async def follow(host: Host, memory: Memory, land: Callable[[str], object]) -> None:
    """Pick among the memories closest to `memory`, or say why there are none."""
    if host.checking is not None:
        host.notify("Still reading the tree: try again in a moment", timeout=3)
        return
    found = await asyncio.to_thread(related_of, host, memory)
    if isinstance(found, Unavailable):
        host.notify(f"Related memories are off: {found.reason}", timeout=5)
        return
    memories = [m for m in (host.curator.get(r.path) for r in found) if m is not None]
    if not memories:
        host.notify(NONE_CLOSE.format(name=memory.name), timeout=4)
        return
    names = names_of(host.curator.tree)
    placeholder = f"Closest in meaning to {names.shown(memory)}…"
    open_memory_picker(host, memories, lambda path: land_on(host, path, land), placeholder, names)

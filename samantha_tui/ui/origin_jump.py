"""The origin key (`w`): from a memory to where it came from.

A merge copy goes to the memory it was copied beside; a memory a subconscious session wrote opens
a picker of that session's other memories. Where the person lands is the caller's: the list's
cursor on the main screen, the reader itself in the reader (its list's cursor following).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.basics.model import Memory
from ..core.views.naming import names_of
from .memory_picker import open_memory_picker
from .widgets.preview import find_origin

if TYPE_CHECKING:
    from .host import Host

NO_ORIGIN = "{name} names no session and is no merge copy: it has no origin to go to"
ALONE = "{line}: no other memory of that session is in the tree"
NOT_LISTED = (
    "{path} is in no tab: the tree lists no memory there (a staged file, or gone since), "
    "so there is nothing to jump to"
)


async def follow(host: Host, memory: Memory, land: Callable[[str], object]) -> None:
    """Find where `memory` came from (off the event loop), then land on it or pick among the
    session's others; a memory with nothing to go to says so in a short notice."""
    if host.checking is not None:
        host.notify("Still reading the tree: try again in a moment", timeout=3)
        return
    origin = await find_origin(host.curator.tree, memory)
    if origin is None:
        host.notify(NO_ORIGIN.format(name=memory.name), timeout=4)
        return
    if origin.original is not None:
        land_on(host, origin.original, land)
        return
    session = origin.session
    others = [m for m in (host.curator.get(path) for path in origin.others) if m is not None]
    if session is None or not others:
        host.notify(ALONE.format(line=origin.line()), timeout=5)
        return
    when = session.started.strftime("%Y-%m-%d %H:%M") if session.started else session.id
    open_memory_picker(
        host,
        others,
        lambda path: land_on(host, path, land),
        f"Other memories of session {when}…",
        names_of(host.curator.tree),
    )


def land_on(host: Host, path: str, land: Callable[[str], object]) -> None:
    """`land(path)` when the tree lists a memory at `path` now; otherwise say why not."""
    if host.curator.get(path) is None:
        host.notify(NOT_LISTED.format(path=path), severity="warning", timeout=6)
        return
    land(path)

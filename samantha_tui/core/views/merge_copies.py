"""samantha-llm's merge copies: its merge copies each session's memory into short-term memory
again, and on a name clash writes `<stem>_<session id>.md` beside `<stem>.md` (the worker's
finalize put the first copy there). A copy is that file's twin, or a later session's file of the
same name; the duplicate check proposes merging it away."""

from __future__ import annotations

import re

from ..basics.model import Memory, Tree

MERGE_COPY_NAME = re.compile(r"^(?P<stem>.+)_(?P<stamp>\d{8}_\d{6})\.md$")


def original_of(path: str) -> str | None:
    """The path (in the same folder, in the same form) of the original a file named as a merge
    copy stands beside; None for any other name."""
    folder, slash, name = path.rpartition("/")
    match = MERGE_COPY_NAME.match(name)
    return None if match is None else f"{folder}{slash}{match.group('stem')}.md"


def merge_copies(tree: Tree[Memory]) -> dict[str, Memory]:
    """Each merge copy whose original is still beside it: the copy's path -> the original."""
    by_path = {memory.path: memory for memory in tree.memories}
    found: dict[str, Memory] = {}
    for memory in tree.memories:
        original = by_path.get(original_of(memory.path) or "")
        if original is not None:
            found[memory.path] = original
    return found


def same_as_original(memory: Memory, copies: dict[str, Memory]) -> bool:
    """Whether `memory` is a merge copy byte for byte its original's twin: whatever is said of
    the original's text is said of it, once is enough."""
    original = copies.get(memory.path)
    return original is not None and bool(memory.digest) and memory.digest == original.digest

"""index.md patched as a three-way merge: what samantha-tui changes in the lines it generates is
carried onto the file as it is on disk, so sections and lines others wrote survive every write.

`base` is index.md as samantha-tui would render the index.json on disk, `ours` as it renders the
patched one, `theirs` the file on disk. A run of lines that changed from base to ours is carried
over where theirs still has base's lines; lines of theirs that base does not have (an appended
section, a hand-written note) are never touched. Where theirs changed the same lines, theirs is
kept and our new lines go beside them, so nothing anyone wrote is lost.
"""

from __future__ import annotations

from difflib import SequenceMatcher


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def merge_markdown(base: bytes, ours: bytes, theirs: bytes) -> bytes:
    """theirs with the change from base to ours applied; ours itself when theirs is base."""
    if theirs == base:
        return ours
    if base == ours:
        return theirs
    base_lines, our_lines, their_lines = _lines(base), _lines(ours), _lines(theirs)
    # Where each base line stands in theirs (only lines both still have, in order).
    at: dict[int, int] = {}
    for block in SequenceMatcher(
        None, base_lines, their_lines, autojunk=False
    ).get_matching_blocks():
        for offset in range(block.size):
            at[block.a + offset] = block.b + offset
    replaced: dict[int, list[bytes]] = {}
    """theirs line -> the lines that take its place (an empty list deletes it)."""
    inserted: dict[int, list[bytes]] = {}
    """theirs position -> lines inserted before that line (len(theirs): at the end)."""
    for tag, b1, b2, o1, o2 in SequenceMatcher(
        None, base_lines, our_lines, autojunk=False
    ).get_opcodes():
        if tag == "equal":
            continue
        new = our_lines[o1:o2]
        mapped = [at.get(index) for index in range(b1, b2)]
        if mapped and all(place is not None for place in mapped):
            # theirs still has these base lines: our lines take their place.
            first = mapped[0]
            for place in mapped:
                replaced[place] = []
            replaced[first] = new  # type: ignore[index]
            continue
        if not new:
            continue  # base lines theirs already changed or dropped: theirs stands
        inserted.setdefault(_anchor(at, b1, b2, len(their_lines)), []).extend(new)
    merged: list[bytes] = []

    def insert(lines: list[bytes]) -> None:
        if lines and merged and not merged[-1].endswith((b"\n", b"\r")):
            merged[-1] += b"\n"  # a last line without its newline, now followed by ours
        merged.extend(lines)

    for index, line in enumerate(their_lines):
        insert(inserted.get(index, []))
        merged.extend(replaced.get(index, [line]))
    insert(inserted.get(len(their_lines), []))
    return b"".join(merged)


def _anchor(at: dict[int, int], b1: int, b2: int, end: int) -> int:
    """Where in theirs to put lines that stand at base[b1:b2]: after the nearest base line
    before them that theirs still has, else before the nearest one after them."""
    before = [index for index in at if index < b1]
    if before:
        return at[max(before)] + 1
    after = [at[index] for index in at if index >= b2]
    return min(after) if after else end

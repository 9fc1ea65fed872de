"""index.md patched, not rewritten: the lines of the memories in scope follow the rendered file,
and every other line of the file on disk stays where it is, as it is.

The assistant keeps index.md by hand and appends to it; samantha-tui recognises only what it
renders itself: a memory's line (`- \\`file\\` - …`), a project's or runbook's block (`### name`
and its `**Field**: …` lines), the count lines at the top, and headings. A change removes the
units of the memories in scope from the file on disk and puts their new rendering back where the
old one stood, or, for a new memory, beside its neighbours in the rendered file; a section the
rendered file has and the file on disk lacks is added after the one before it. Nothing else is
touched: a hand-written line, an appended section, a unit of a memory out of scope.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ...basics.model import Kind
from .odd_names import markdown_name

_MEMORY_LINE = re.compile(rb"^- `([^`\n]+)`(?: - |\s*$)")
_HEADER = re.compile(
    rb"^\*\*(Last Updated|Total Memories|Active Projects|Completed Projects|Total Runbooks)\*\*: "
)
_FILE_LINE = re.compile(rb"^\*\*File\*\*: `([^`\n]+)`")


@dataclass(slots=True)
class _Item:
    """One unit of index.md: a heading, a memory's line or a block, a count line, or other."""

    what: str
    """heading | unit | header | other"""
    lines: list[bytes]
    section: tuple[bytes, bytes]
    """The `## ` and `### ` headings it stands under (for a block, only the `## `)."""
    key: str | None = None
    """unit: the memory it stands for; header: its label; heading: its text."""


def _bare(line: bytes) -> bytes:
    return line.rstrip(b"\r\n")


def _parse(
    data: bytes, kind: Kind, block_key: Callable[[bytes, list[bytes]], str | None]
) -> list[_Item]:
    # A hot loop: an index.md of 10,000 memories is parsed twice a change. Each line is told
    # apart by its first byte before any pattern is tried, and the helpers are inlined.
    blocks = kind.is_project_kind or kind is Kind.PROCEDURAL
    items: list[_Item] = []
    append = items.append
    memory_line, header = _MEMORY_LINE.match, _HEADER.match
    section = (b"", b"")
    lines = data.splitlines(keepends=True)
    index, count = 0, len(lines)
    while index < count:
        line = lines[index]
        first = line[:1]
        if first == b"#":
            bare = line.rstrip(b"\r\n")
            if bare.startswith(b"## "):
                section = (bare, b"")
                append(_Item("heading", [line], section, bare.decode("utf-8", "replace")))
                index += 1
                continue
            if bare.startswith(b"### ") and blocks:
                block = [line]
                while index + 1 < count and not lines[index + 1].startswith(b"#"):
                    block.append(lines[index + 1])
                    index += 1
                blank: list[bytes] = []
                while len(block) > 1 and not _bare(block[-1]).strip():
                    blank.insert(0, block.pop())
                h2 = (section[0], b"")
                append(_Item("unit", block, h2, block_key(bare[4:], block)))
                items.extend(_Item("other", [b], h2) for b in blank)
                index += 1
                continue
            if bare.startswith(b"### "):
                section = (section[0], bare)
                append(_Item("heading", [line], section, bare.decode("utf-8", "replace")))
                index += 1
                continue
        elif first == b"-" and not blocks:
            if match := memory_line(line.rstrip(b"\r\n")):
                append(_Item("unit", [line], section, markdown_name(match.group(1))))
                index += 1
                continue
        elif first == b"*" and (match := header(line)):
            append(_Item("header", [line], section, match.group(1).decode()))
            index += 1
            continue
        append(_Item("other", [line], section))
        index += 1
    return items


def block_keys(kind: Kind, names: Mapping[str, str]) -> Callable[[bytes, list[bytes]], str | None]:
    """How a `### ` block names its memory: a runbook by its `**File**:` line, a project by its
    heading, through `names` (entry name -> the key the index ties it to)."""

    def key(heading: bytes, block: list[bytes]) -> str | None:
        if kind is Kind.PROCEDURAL:
            for line in block[1:]:
                if match := _FILE_LINE.match(line):
                    return markdown_name(match.group(1))
            return None
        return names.get(heading.decode("utf-8", "replace").strip())

    return key


def patch_markdown(
    ours: bytes,
    theirs: bytes,
    kind: Kind,
    in_scope: Callable[[str], bool],
    block_key: Callable[[bytes, list[bytes]], str | None] | None = None,
) -> bytes:
    """theirs with the units of in-scope memories taken from ours, and ours' count lines.

    A unit of ours goes right after the unit ours puts before it (and the lines that follow
    that one in the file, such as a hand-written note); at the top of its section when ours puts
    it first there; else where its old self stood, else at the top: so patching once more
    changes nothing.
    """
    if ours == theirs:
        return theirs
    block_key = block_key or (lambda heading, block: None)
    mine = _parse(ours, kind, block_key)
    old = _parse(theirs, kind, block_key)

    def scoped(item: _Item) -> bool:
        return item.what == "unit" and item.key is not None and in_scope(item.key)

    chain = _Chain(_followers(old))
    stood: dict[tuple[tuple[bytes, bytes], str | None], _Item | None] = {}
    for item in old:
        if scoped(item):
            stood.setdefault((item.section, item.key), chain.last)
        else:
            chain.append(item)
    counts = {item.key: item for item in mine if item.what == "header"}
    for item in chain:
        if item.what == "header" and item.key in counts:
            item.lines = counts[item.key].lines  # count lines follow the rendering
    _add_sections(chain, mine)
    present = {(i.section, i.key): i for i in chain if i.what == "unit"}
    earlier: dict[tuple[bytes, bytes], list[tuple[tuple[bytes, bytes], str | None]]] = {}
    for item in mine:
        if item.what != "unit":
            continue
        here = (item.section, item.key)
        before = earlier.setdefault(item.section, [])
        if scoped(item):
            anchor: _Item | None
            neighbour = next((present[k] for k in reversed(before) if k in present), None)
            if neighbour is not None:
                anchor = chain.attached_end(neighbour)
            elif here in stood and before:
                # Its rendered neighbours are all gone from the file: where it stood. A unit
                # rendered first in its section goes to the top, even if it stood lower (a
                # memory whose new date puts it before the others of its topic).
                anchor = stood[here]
            else:
                anchor = chain.section_top(item.section)
            chain.insert_after(anchor, item)
            present[here] = item
        before.append(here)
    output = list(chain)
    _drop_filled_nones(output)
    for item in output[:-1]:
        if not item.lines[-1].endswith((b"\n", b"\r")):
            item.lines[-1] += b"\n"  # a last line without its newline, now followed by more
    return b"".join(line for item in output for line in item.lines)


class _Chain:
    """The file's items as a linked list: inserting after any item costs the same."""

    def __init__(self, followers: dict[tuple[tuple[bytes, bytes], str | None], set[int]]) -> None:
        self.followers = followers
        self.first: _Item | None = None
        self.last: _Item | None = None
        self.next: dict[int, _Item | None] = {}
        # The first heading of each section and of each (section, key), kept as headings come
        # in: a lookup walked the whole chain, and an index.md of thousands of sections made a
        # patch of it take seconds. None when a second heading of a name came in (which of the
        # two is first is then found by a walk, once).
        self._by_section: dict[tuple[bytes, bytes], _Item] | None = {}
        self._by_key: dict[tuple[tuple[bytes, bytes], str | None], _Item] | None = {}

    def __iter__(self) -> Iterator[_Item]:
        item = self.first
        while item is not None:
            yield item
            item = self.next[id(item)]

    def append(self, item: _Item) -> None:
        self.insert_after(self.last, item)

    def insert_after(self, anchor: _Item | None, item: _Item) -> None:
        """After anchor; None: at the very start."""
        if anchor is None:
            self.next[id(item)] = self.first
            self.first = item
        else:
            self.next[id(item)] = self.next[id(anchor)]
            self.next[id(anchor)] = item
        if self.next[id(item)] is None:
            self.last = item
        if item.what == "heading":
            self._note_heading(item)

    def _note_heading(self, item: _Item) -> None:
        if self._by_section is not None:
            if item.section in self._by_section:
                self._by_section = None
            else:
                self._by_section[item.section] = item
        if self._by_key is not None:
            if (item.section, item.key) in self._by_key:
                self._by_key = None
            else:
                self._by_key[(item.section, item.key)] = item

    def _headings(
        self,
    ) -> tuple[
        dict[tuple[bytes, bytes], _Item], dict[tuple[tuple[bytes, bytes], str | None], _Item]
    ]:
        """The first heading of each section, and of each (section, key), in the chain now."""
        if self._by_section is None or self._by_key is None:
            by_section: dict[tuple[bytes, bytes], _Item] = {}
            by_key: dict[tuple[tuple[bytes, bytes], str | None], _Item] = {}
            for item in self:
                if item.what == "heading":
                    by_section.setdefault(item.section, item)
                    by_key.setdefault((item.section, item.key), item)
            self._by_section, self._by_key = by_section, by_key
        return self._by_section, self._by_key

    def heading(self, section: tuple[bytes, bytes], key: str | None) -> _Item | None:
        """The first heading of `section` named by `key` in the chain, or None."""
        return self._headings()[1].get((section, key))

    def attached_end(self, unit: _Item) -> _Item:
        """The last of the lines that followed this unit in the file (a hand-written note under
        it) and still follow it; the unit itself when there are none."""
        mine = self.followers.get((unit.section, unit.key), set())
        last = unit
        item = self.next[id(unit)]
        while item is not None and id(item) in mine:
            last = item
            item = self.next[id(item)]
        return last

    def section_top(self, section: tuple[bytes, bytes]) -> _Item | None:
        """Where a section's first unit goes: after its heading and the blank line under it."""
        item = self._headings()[0].get(section)
        if item is None:
            return self.last
        follows = self.next[id(item)]
        if follows is not None and follows.what == "other" and _blank(follows):
            return follows
        return item


def _followers(items: list[_Item]) -> dict[tuple[tuple[bytes, bytes], str | None], set[int]]:
    """For each unit, the lines after it up to the next unit: a note written under it. The blank
    lines that close a section belong to no unit."""
    found: dict[tuple[tuple[bytes, bytes], str | None], set[int]] = {}
    index = 0
    while index < len(items):
        item = items[index]
        index += 1
        if item.what != "unit":
            continue
        run: list[_Item] = []
        while index < len(items) and items[index].what not in ("unit", "heading"):
            run.append(items[index])
            index += 1
        if index >= len(items) or items[index].what == "heading":
            while run and (_blank(run[-1]) or _bare(run[-1].lines[0]) == b"None."):
                run.pop()
        found.setdefault((item.section, item.key), set()).update(id(i) for i in run)
    return found


def _add_sections(chain: _Chain, mine: list[_Item]) -> None:
    """Headings ours has and the file lacks, each with the blank lines under it, after the end
    of the section ours puts before it (at the end of the file when there is none)."""
    have = {(item.section, item.key) for item in chain if item.what == "heading"}
    for position, heading in enumerate(mine):
        if heading.what != "heading" or (heading.section, heading.key) in have:
            continue
        block = [heading]
        for item in mine[position + 1 :]:
            if item.what == "heading":
                break
            if item.what == "other":
                block.append(_Item("other", list(item.lines), item.section))
        anchor = chain.last
        for before in range(position - 1, -1, -1):
            if mine[before].what == "heading" and (mine[before].section, mine[before].key) in have:
                anchor = _section_end(chain, mine[before])
                break
        if anchor is chain.last and anchor is not None and not _blank(anchor):
            block.insert(0, _Item("other", [b"\n"], heading.section))
        for item in block:
            chain.insert_after(anchor, item)
            anchor = item
        have.add((heading.section, heading.key))


def _section_end(chain: _Chain, heading: _Item) -> _Item | None:
    """The last item of the section a heading opens (up to a heading of its level or above)."""
    level = heading.lines[0].count(b"#", 0, 4)
    start = chain.heading(heading.section, heading.key)
    if start is None:
        return chain.last
    last = start
    item = chain.next[id(start)]
    while item is not None:
        if item.what == "heading" and item.lines[0].count(b"#", 0, 4) <= level:
            break
        last = item
        item = chain.next[id(item)]
    return last


def _blank(item: _Item) -> bool:
    return not _bare(item.lines[0]).strip()


def _drop_filled_nones(items: list[_Item]) -> None:
    """A section that had nothing says "None."; once it holds a unit, that line goes."""
    filled = {item.section for item in items if item.what == "unit"}
    items[:] = [
        item
        for item in items
        if not (
            item.what == "other" and item.section in filled and _bare(item.lines[0]) == b"None."
        )
    ]

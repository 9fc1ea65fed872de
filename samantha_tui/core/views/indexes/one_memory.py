"""The short-term index files patched for an edit of one memory, from the index files alone.

A whole patch (plan.py) builds the short-term index from every record of the tree: at 100,000
memories a one-key edit from a script then loads the whole tree. When the index files were in
step before the edit, everything the patch needs is already in them: the lists of index.json
hold the other memories' entries (and their dates, which order them), its stats count them,
and index.md lists every memory by topic. So this plan works from those two files and the
edited memory's record before and after, and gives the very bytes the whole patch would.

It answers None whenever it cannot be sure of that: an index file missing, unreadable or laid
out by hand; an index.md that is not exactly what the index.json and its own lines render (a
hand-written line, an appended section); counts that do not add up; a merge copy in a list; an
edit that moves the memory to another day or first topic (its place among memories the index
files give no date for is unknown), or that the passing days moved to another section. The
caller then patches the whole way.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...basics.model import Kind, Memory
from ...reading.scan import INDEX_FILES
from ..merge_copies import MERGE_COPY_NAME
from . import plan
from .entries import MEMORY, entry_key, importance, memory_entry
from .jsonfmt import SharedEntry, dump_json
from .markdown import render_markdown
from .markdown_local import NotLocal, patch_local
from .markdown_merge import block_keys, patch_markdown
from .memories import HIGH_PRIORITY_REFERENCES, OLDER_DAYS, RECENT_DAYS, UNTAGGED
from .merge import lost, merge_root, merge_shared, without
from .odd_names import markdown_name
from .patch import patch_data
from .scope import derived_entry
from .sections import Built, entry_keys, first_by_key

_KIND = Kind.SHORT_TERM
_LEVELS = ("high", "medium", "low")
_UNIT = re.compile(r"^- `([^`\n]+)`(?: - |\s*$)")
_RECENT = "## Recent (Last 30 Days)"
_OLDER = "## Older (30-90 Days)"
_BY_TOPIC = "## By Topic"


class _Unsure(Exception):
    """The index files do not say enough (or are not in step): patch the whole way."""


@dataclasses.dataclass
class _Lines:
    """What index.md lists in the sections only it has: each unit's key and line, in order."""

    recent: list[tuple[str, str]]
    older: list[tuple[str, str]]
    under_heading: set[str]
    """Older units right under the section's heading and the blank line below it."""
    known: set[str]
    """Every name the by-topic lists hold: the memories (merge copies and unreadable files
    are in none)."""
    topics: str
    """The By Topic section's text, from its first `### ` heading."""


def plan_edit(
    root: Path, today: dt.date, before: Memory, after: Memory
) -> list[plan.IndexUpdate] | None:
    """The short-term index files as the whole patch would write them after `before` became
    `after` (one short-term memory, same path); None when that cannot be known from them."""
    try:
        return _plan(Path(root), today, before, after)
    except _Unsure:
        return None


def _plan(root: Path, today: dt.date, before: Memory, after: Memory) -> list[plan.IndexUpdate]:
    _check_records(before, after)
    json_rel = f"{_KIND.folder}/{plan.INDEX_JSON}"
    md_rel = f"{_KIND.folder}/{plan.INDEX_MD}"
    if not (root / _KIND.folder).is_dir():
        raise _Unsure
    old_json, old_md = plan._read(root, json_rel), plan._read(root, md_rel)
    if old_json is None or old_md is None:
        raise _Unsure
    json_key = f"{root}/{json_rel}"
    old, problem = plan._load(old_json, json_key)
    if problem or not old:
        raise _Unsure
    if not plan._standard(json_key, old_json) and dump_json(old) != old_json:
        raise _Unsure  # hand-laid: the whole patch keeps its layout
    try:
        text = old_md.decode("utf-8")
    except UnicodeDecodeError:
        raise _Unsure from None
    lines = _parse_md(text)
    known = lines.known
    total = old.get("total_memories")
    if type(total) is not int:
        raise _Unsure
    key = entry_key(_KIND, after)
    if key not in known:
        raise _Unsure
    stamp = old.get("last_updated")
    stamp = stamp if isinstance(stamp, str) else today.isoformat()

    critical_old = _listed(old.get("critical"), known)
    frequent_old = _listed(old.get("high_priority"), known)
    recent = old.get("recent")
    if not isinstance(recent, Mapping):
        raise _Unsure
    high_old = _listed(recent.get("high_importance"), known)
    medium_old = _listed(recent.get("medium_importance"), known)
    if set(high_old) & set(medium_old):
        raise _Unsure

    # index.md's Recent lists the memories of the last 30 days when it was written (index.json
    # keeps every entry it ever listed there): their lines are their json entries'.
    # Lines of no memory the by-topic lists name are the file's own: never anyone's neighbour.
    lines.recent = [(k, line) for k, line in lines.recent if k in known]
    lines.older = [(k, line) for k, line in lines.older if k in known]
    recent_before: dict[str, Mapping[str, Any]] = {}
    for found, _ in lines.recent:
        listed_entry = high_old.get(found) or medium_old.get(found)
        if listed_entry is None or found in recent_before:
            raise _Unsure
        recent_before[found] = listed_entry

    previous = first_by_key(_KIND, old).get(key)
    if previous is not None:
        gone = _lost_topics(before, after)
        if gone:
            previous = {f: without(v, gone[f]) if f in gone else v for f, v in previous.items()}
    entry = merge_shared(memory_entry(_KIND, after), previous, MEMORY)

    since = today - dt.timedelta(days=RECENT_DAYS)
    oldest = today - dt.timedelta(days=OLDER_DAYS)
    day = after.date or dt.date.min
    in_recent, in_older = day >= since, oldest <= day < since
    if in_recent != (key in dict(lines.recent)) or in_older != (key in dict(lines.older)):
        raise _Unsure  # the days moved it to another section: its place there is unknown
    if in_older and lines.older[0][0] == key and key not in lines.under_heading:
        # First in Older: the whole patch, whose Older may begin with memories the days moved
        # there since, puts it back where it stood, this one at the top: the same place only
        # when it stood right under the heading.
        raise _Unsure

    def others(found: dict[str, Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
        return {k: e for k, e in found.items() if k != key}

    def plus(found: dict[str, Mapping[str, Any]], wanted: bool) -> list[Mapping[str, Any]]:
        return list(_newest({**found, key: entry} if wanted else found).values())

    # The last 30 days now: those index.md listed, less the ones the days since took out.
    recent_now = {k: e for k, e in others(recent_before).items() if _day(e) >= since}
    critical = plus(others(critical_old), after.critical)
    frequent = plus(others(frequent_old), after.reference_count >= HIGH_PRIORITY_REFERENCES)
    level = importance(after)
    high = plus(
        {k: e for k, e in recent_now.items() if k in high_old}, in_recent and level == "high"
    )
    medium = plus(
        {k: e for k, e in recent_now.items() if k in medium_old}, in_recent and level != "high"
    )

    derived: dict[str, Any] = {
        "last_updated": stamp,
        "total_memories": total,
        "critical": critical,
        "high_priority": frequent,
        "recent": {"high_importance": high, "medium_importance": medium},
    }
    kept_older = "older" in old
    if kept_older:
        # A hand-kept `older` list: the memory stays where it stands in it (its day is the
        # same), so the other entries are only its neighbours.
        older_old = _listed(old["older"], known)
        if (key in older_old) != in_older:
            raise _Unsure
        derived["older"] = plus(
            {k: e for k, e in others(older_old).items() if oldest <= _day(e) < since}, in_older
        )
    for listed in (critical, frequent, high, medium, derived.get("older", ())):
        # Only the memory's neighbours place it (patch._inserted): they must be memories.
        at = next((i for i, e in enumerate(listed) if e is entry), None)
        if at is not None:
            _check_memories(
                root, [e["file"] for e in listed[max(at - 1, 0) : at + 2] if e is not entry]
            )
    derived["stats"] = _stats(old.get("stats"), before, after, total)
    data = merge_root(derived, old, nested=frozenset({"recent", "stats"}))
    known_now = known | {key}
    key_of = entry_keys(_KIND, known_now)
    prefix = key + "/"

    def in_scope(found: str) -> bool:
        return found == key or found.startswith(prefix)

    data = patch_data(_KIND, old, data, in_scope, key_of, frozenset({key}))
    new_json = dump_json(data)
    if new_json != old_json:
        built, new_json = plan._restamped_json(new_json, Built(data, {}, ()), today.isoformat())
        data = built.data
        plan._PARSED[json_key] = (new_json, data)
        plan._DUMPED[json_key] = new_json

    recent_lines = list(_newest({**recent_now, key: entry} if in_recent else recent_now).values())
    listed_in_json = {e.get("file") for e in (*critical, *frequent, *high, *medium)}
    if kept_older or key in listed_in_json:
        line_entry = entry
    else:
        line_entry = merge_shared(memory_entry(_KIND, after), None, MEMORY)
    older = [(k, line) for k, line in lines.older]
    older_entries = [_line_stub(k, line) for k, line in older]
    if in_older:
        older_entries = [
            line_entry if k == key else e for (k, _), e in zip(older, older_entries, strict=False)
        ]
    # The patch needs only the sections holding this memory's lines: of By Topic, its group.
    group = _group(lines.topics, _first_topic(after))
    if key not in group:
        raise _Unsure
    extra = {
        "recent": recent_lines,
        "older": older_entries,
        "by_topic": _topics({_first_topic(after): group}),
    }
    built = Built(data, extra, ())
    try:
        new_md = _markdown(built, old_md, in_scope, key)
    except NotLocal:
        built.extra["by_topic"] = _topics(_groups(lines.topics))
        new_md = _markdown(built, old_md, in_scope, None)

    updates: list[plan.IndexUpdate] = []
    if new_json != old_json:
        updates.append(plan.IndexUpdate(json_rel, old_json, new_json, ("patched",)))
    if new_md != old_md:
        change = "the lines of its entries updated"
        updates.append(plan.IndexUpdate(md_rel, old_md, new_md, (change,)))
    return updates


def _check_records(before: Memory, after: Memory) -> None:
    if before.path != after.path or before.kind is not _KIND or after.kind is not _KIND:
        raise _Unsure
    for memory in (before, after):
        if not memory.frontmatter and memory.has_errors:
            raise _Unsure  # its entries come or go: counts the index files cannot check
        if importance(memory) not in _LEVELS:
            raise _Unsure
        for value in (memory.type, memory.project):
            if value is not None and not isinstance(value, str):
                raise _Unsure
    if MERGE_COPY_NAME.match(after.path.rsplit("/", 1)[-1]):
        raise _Unsure
    if before.date != after.date or _first_topic(before) != _first_topic(after):
        raise _Unsure  # a new place among memories whose dates the index files do not give


def _check_memories(root: Path, files: list[str]) -> None:
    """Unsure unless each is a memory file the whole patch would list: index.md's by-topic
    lines named it, but a line written by hand there could name a file that is not one."""
    folder = root / _KIND.folder
    for file in files:
        parts = file.split("/")
        name = parts[-1]
        if (
            any(part.startswith(".") or not part for part in parts)
            or not name.endswith(".md")
            or name in INDEX_FILES
            or MERGE_COPY_NAME.match(name)  # the whole patch leaves merge copies out
            or not (folder / file).is_file()
        ):
            raise _Unsure


def _first_topic(memory: Memory) -> str:
    return memory.topics[0] if memory.topics else UNTAGGED


def _lost_topics(before: Memory, after: Memory) -> dict[str, Any]:
    """Topics the edit took out of the file: the entry loses them too (plan._lost_items)."""
    gone = lost(
        derived_entry(_KIND, before).get("topics"), derived_entry(_KIND, after).get("topics")
    )
    return {"topics": gone} if gone is not None else {}


def _listed(items: Any, known: set[str]) -> dict[str, Mapping[str, Any]]:
    """A list's entries of memories (first of each), by file; unsure of anything unusual."""
    if not isinstance(items, list):
        raise _Unsure
    found: dict[str, Mapping[str, Any]] = {}
    for item in items:
        if not isinstance(item, Mapping) or not isinstance(item.get("file"), str):
            raise _Unsure
        file = item["file"]
        if file in known:
            found.setdefault(file, item)
            _day(item)
    return found


def _day(entry: Mapping[str, Any]) -> dt.date:
    """An entry's date as its memory's sort key has it (no date: before every day)."""
    value = entry.get("date")
    if value is None:
        return dt.date.min
    if not isinstance(value, str):
        raise _Unsure
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise _Unsure from None
    if day.isoformat() != value:
        raise _Unsure
    return day


def _newest(found: Mapping[str, Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """Entries newest first by (date, file), as the short-term lists are ordered."""
    return dict(sorted(found.items(), key=lambda item: (_day(item[1]), item[0]), reverse=True))


def _stats(old: Any, before: Memory, after: Memory, total: int) -> dict[str, Any]:
    """The stats the whole build counts, from the old ones and the edit's difference."""
    if not isinstance(old, Mapping):
        raise _Unsure
    levels = old.get("by_importance")
    if not isinstance(levels, Mapping) or set(levels) != set(_LEVELS):
        raise _Unsure
    counts = {level: levels[level] for level in _LEVELS}
    if any(type(value) is not int for value in counts.values()) or sum(counts.values()) != total:
        raise _Unsure
    counts[importance(before)] -= 1
    counts[importance(after)] += 1
    found: dict[str, Any] = {"by_importance": counts}
    for name, field in (("by_type", "type"), ("by_project", "project")):
        counted = old.get(name)
        if not isinstance(counted, Mapping):
            raise _Unsure
        tally: Counter[str] = Counter()
        for value, count in counted.items():
            if type(count) is not int or count <= 0:
                raise _Unsure
            tally[value] = count
        for memory, step in ((before, -1), (after, 1)):
            value = getattr(memory, field)
            if value:
                tally[value] += step
        if any(count < 0 for count in tally.values()):
            raise _Unsure
        tally = +tally
        found[name] = dict(sorted(tally.items(), key=lambda item: (-item[1], item[0])))
    return found


_H2 = re.compile(r"^## .*$", re.MULTILINE)
_H3 = re.compile(r"^### (.*)$", re.MULTILINE)
_UNITS = re.compile(r"^- `([^`\n]+)`(?: - |[ \t\f\v]*$)", re.MULTILINE)


def _name(raw: str) -> str:
    return raw if "\\" not in raw else markdown_name(raw.encode("utf-8", "surrogateescape"))


def _parse_md(text: str) -> _Lines:
    """index.md's Recent and Older units, and the By Topic names; unsure when one of those
    sections is missing or there twice, holds a `### ` heading (Recent, Older) or a unit twice."""
    heads = [(m.start(), m.group()) for m in _H2.finditer(text)]
    spans: dict[str, tuple[int, int]] = {}
    for at, (start, line) in enumerate(heads):
        if line in (_RECENT, _OLDER, _BY_TOPIC):
            if line in spans:
                raise _Unsure
            end = heads[at + 1][0] if at + 1 < len(heads) else len(text)
            spans[line] = (start, end)
    if len(spans) != 3:
        raise _Unsure
    found = _Lines([], [], set(), set(), "")
    for heading, units in ((_RECENT, found.recent), (_OLDER, found.older)):
        section = text[slice(*spans[heading])]
        if _H3.search(section):
            raise _Unsure
        rows = section.split("\n")
        seen: set[str] = set()
        for at, line in enumerate(rows):
            if match := _UNIT.match(line):
                key = _name(match.group(1))
                if key in seen:
                    raise _Unsure
                seen.add(key)
                units.append((key, line))
                if heading == _OLDER and at == 2 and rows[1] == "":
                    found.under_heading.add(key)
    section = text[slice(*spans[_BY_TOPIC])]
    first = _H3.search(section)
    found.topics = section[first.start() :] if first else ""
    names = _UNITS.findall(found.topics)
    # A name is written as it is unless it holds a backslash (odd_names): most files, none.
    found.known = set(names) if "\\" not in found.topics else {_name(raw) for raw in names}
    headings = _H3.findall(found.topics)
    if len(set(headings)) != len(headings):
        raise _Unsure
    return found


def _group(topics: str, topic: str) -> list[str]:
    """The names under one `### topic` heading, in order."""
    heading = f"### {topic}"
    at = topics.find(heading + "\n") if not topics.startswith(heading + "\n") else 0
    while at > 0 and topics[at - 1] != "\n":
        at = topics.find(heading + "\n", at + 1)
    if at == -1:
        raise _Unsure
    nxt = _H3.search(topics, at + len(heading))
    return [_name(raw) for raw in _UNITS.findall(topics, at, nxt.start() if nxt else len(topics))]


def _groups(topics: str) -> dict[str, list[str]]:
    """Every `### ` group's names, in order."""
    found: dict[str, list[str]] = {}
    marks = list(_H3.finditer(topics))
    for at, mark in enumerate(marks):
        end = marks[at + 1].start() if at + 1 < len(marks) else len(topics)
        found[mark.group(1)] = [_name(raw) for raw in _UNITS.findall(topics, mark.end(), end)]
    return found


def _line_stub(key: str, line: str) -> SharedEntry:
    """An Older memory's entry as index.md already renders it: its line, kept as it is."""
    stub = SharedEntry({"file": key})
    stub.rendered["md"] = line
    return stub


def _topics(groups: Mapping[str, list[str]]) -> dict[str, list[dict[str, str]]]:
    return {topic: [{"file": key} for key in keys] for topic, keys in sorted(groups.items())}


def _markdown(built: Built, old: bytes, in_scope: Any, name: str | None) -> bytes:
    """index.md as plan._markdown patches it in a fresh process (nothing rendered before):
    patched from the sections holding `name`'s lines only (NotLocal when it cannot be), or
    (None) from the whole rendering.

    The rendering here differs from the whole one only in lines of other memories, which a
    patch never takes; so the patch is the same. The whole patch keeps the file as it is when
    nothing but its date would change, which the other memories' lines decide: when that may
    be so, unsure.
    """
    new = render_markdown(_KIND, built)
    keys = block_keys(_KIND, {})
    if name is None:
        patched = patch_markdown(new, old, _KIND, in_scope, keys)
    else:
        patched = patch_local(new, old, _KIND, in_scope, name, keys)
    if patched == old:
        return old
    match = plan._MD_STAMP.search(old)
    if match is None:
        return patched
    again = plan._MD_STAMP.search(patched)
    if again is None:
        raise _Unsure
    if patched[: again.start()] + match.group(0) + patched[again.end() :] == old:
        raise _Unsure
    return patched

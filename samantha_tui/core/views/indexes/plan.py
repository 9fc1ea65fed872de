"""Plan and write index files: full rebuilds, the per-change refresh, and the drift report."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...basics.digest import digest_bytes
from ...basics.errors import StoreError
from ...basics.json_read import TOO_DEEP, TooDeep
from ...basics.json_read import loads as json_loads
from ...basics.model import Kind, Memory, Tree
from ...basics.progress import report as report_progress
from ...reading import known_files
from ...reading.scan import PENDING_DIR
from . import held_back
from .drift import (
    JSON_LAYOUT,
    JSON_MISSING,
    JSON_OUTSIDE,
    MD_MISSING,
    MD_STALE,
    DriftReport,
    KindDrift,
    compare,
    placed,
    shape_of,
)
from .entries import entry_key, readable
from .index_only import removal_lines
from .json_text import rewrite_json, same
from .jsonfmt import SharedEntry, dump_json
from .markdown import render_markdown
from .markdown_merge import block_keys, patch_markdown
from .memories import build_long_term, build_short_term
from .merge import lost, without
from .patch import InScope, patch_data
from .procedural import build_procedural
from .projects import build_current_tasks, build_work_experience
from .scope import KindScope, Scope, derived_entry
from .sections import Built, EntryKey, first_by_key, key_field, sections, untied

INDEX_JSON = "index.json"
INDEX_MD = "index.md"
_MD_STAMP = re.compile(rb"^\*\*Last Updated\*\*: (.*)$", re.MULTILINE)


@dataclass(frozen=True)
class IndexUpdate:
    """One index file that needs rewriting, with what it held and why it changes."""

    path: str
    """Relative to the root."""
    old: bytes | None
    new: bytes
    changes: tuple[str, ...]
    """Human lines: what differs."""


@dataclass(frozen=True)
class KindPlan:
    """One kind's index files as planned: what to write and how far they drifted."""

    updates: tuple[IndexUpdate, ...]
    drift: KindDrift
    unreadable: bool = False
    """Its index.json is there but cannot be read: only a person's request rebuilds it."""


def _read(root: Path, rel: str) -> bytes | None:
    try:
        # Unread when its stat proves it is what this process last wrote or read there.
        return known_files.read(root / rel)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreError(
            f"cannot read {rel}: {error.strerror or error}; fix it and index again"
        ) from None


_PARSED: dict[str, tuple[bytes, dict[str, Any]]] = {}
"""The last index.json read at each path, parsed: while its bytes stay the same, the next write
after a change neither parses it again nor encodes its entries again (every object in it is a
SharedEntry, which keeps its JSON text, and nothing ever changes one)."""


_DUMPED: dict[str, bytes] = {}
"""The last index.json written at each path in the standard layout (the dump of the data kept in
_PARSED): while the file holds these bytes it is known not to be hand-laid, without dumping it
again to see."""


def _standard(key: str, raw: bytes) -> bool:
    known = _DUMPED.get(key)
    cached = _PARSED.get(key)
    return known is not None and cached is not None and cached[0] is known and known == raw


def _load(raw: bytes, rel: str = "") -> tuple[dict[str, Any] | None, str | None]:
    """The parsed index, or None and the reason it cannot be used."""
    cached = _PARSED.get(rel)
    if cached is not None and cached[0] == raw:
        return cached[1], None
    try:
        data = json_loads(raw.decode("utf-8"), object_hook=SharedEntry)
    except TooDeep:
        return None, f"index.json is {TOO_DEEP}"
    except (UnicodeDecodeError, ValueError):
        return None, "index.json is not valid JSON"
    if not isinstance(data, dict):
        return None, "index.json is not a JSON object"
    if rel:
        _PARSED[rel] = (raw, data)
    return data, None


def _build(
    kind: Kind,
    tree: Tree,
    old: Mapping[str, Any] | None,
    today: dt.date,
    stamp: str,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
    key_of: EntryKey | None = None,
    memories: list[Memory] | None = None,
) -> Built:
    if kind is Kind.SHORT_TERM:
        # The whole tree: what changed in it is found faster than its short-term list is made.
        return build_short_term(memories or tree.memories, old, today, stamp, previous)
    if memories is None:
        memories = tree.of_kind(kind)
    if kind is Kind.LONG_TERM:
        return build_long_term(memories, old, today, stamp, previous)
    if kind is Kind.CURRENT_TASKS:
        return build_current_tasks(memories, tree, old, stamp, previous, key_of)
    if kind is Kind.WORK_EXPERIENCE:
        return build_work_experience(memories, old, stamp, previous)
    return build_procedural(memories, old, stamp, previous)


def _stamped(built: Built, stamp: str) -> Built:
    return dataclasses.replace(built, data={**built.data, "last_updated": stamp})


def _restamped_json(dumped: bytes, built: Built, stamp: str) -> tuple[Built, bytes]:
    """built with `last_updated` set to stamp, and its JSON.

    Only the top level is indented by two spaces, and JSON escapes every newline inside a string,
    so the stamp's line is found exactly; swapping it saves dumping the whole index a second time
    (about a third of a write's cost at 10,000 memories).
    """
    restamped = _stamped(built, stamp)
    old = built.data.get("last_updated")
    line = b'\n  "last_updated": '
    if isinstance(old, str) and dumped.count(line + json.dumps(old).encode("ascii")) == 1:
        new_line = line + json.dumps(stamp).encode("ascii")
        return restamped, dumped.replace(line + json.dumps(old).encode("ascii"), new_line)
    return restamped, dump_json(restamped.data)


_RENDERED: dict[str, None] = {}
"""Digests of index.md texts rendered whole from an index.json (no line of anyone else's in
them): such a file on disk holds nothing to keep, so the next render replaces it without a
merge."""
_RENDERED_LIMIT = 1_000


def _remember_rendered(data: bytes) -> None:
    if len(_RENDERED) >= _RENDERED_LIMIT:
        _RENDERED.clear()
    _RENDERED[digest_bytes(data)] = None


def _markdown(
    kind: Kind,
    built: Built,
    old: bytes | None,
    in_scope: InScope,
    key_of: EntryKey,
    old_data: Mapping[str, Any] | None = None,
) -> bytes:
    """index.md: rendered, then only its lines of the memories in scope carried onto the file
    on disk, so everything else there (an appended section, a hand-written line) stays.

    Its old date is kept when nothing but the date would change.
    """
    new = render_markdown(kind, built)
    if old is None or new == old:
        _remember_rendered(new)
        return new
    match = _MD_STAMP.search(old)
    if match:
        stamp = match.group(1).decode("utf-8", "replace")
        if _one_line(stamp) and _one_line(built.data.get("last_updated")):
            # The header is the first such line: swap its date instead of rendering again.
            line = b"**Last Updated**: " + stamp.encode("utf-8")
            same = _MD_STAMP.sub(lambda _: line, new, count=1)
        else:
            same = render_markdown(kind, _stamped(built, stamp))
        if same == old:
            return old
    if digest_bytes(old) in _RENDERED:
        _remember_rendered(new)
        return new  # rendered whole by this process: nobody else's line is in it
    names = {
        str(entry.get("name")): key
        for data in (old_data or {}, built.data)
        for _, items in sections(kind, data)
        for entry in items
        if (key := key_of(entry)) is not None
    }
    patched = patch_markdown(new, old, kind, in_scope, block_keys(kind, names))
    if patched == new:
        _remember_rendered(new)
    return patched


def _one_line(value: Any) -> bool:
    return isinstance(value, str) and "\n" not in value and "\r" not in value


def _note(memory: Memory) -> str:
    return f"{memory.path} is not indexed: {memory.problems[0].message}"


def unindexed(tree: Tree) -> list[str]:
    """One line per memory the indexes leave out because its frontmatter cannot be read, and per
    runbook trigger field they leave as it was (held_back)."""
    good, bad = readable(tree.memories)
    return [_note(memory) for memory in bad] + held_back.notes(
        m for m in good if m.kind is Kind.PROCEDURAL
    )


def _lost_items(kind: Kind, before: Memory, after: Memory) -> dict[str, Any]:
    """List items a change took out of a memory's file (topics, trigger signals): the index
    loses them too, while items only the index ever had stay."""
    shape = shape_of(kind)
    if not shape.union:
        return {}
    old_entry, new_entry = derived_entry(kind, before), derived_entry(kind, after)
    found = {}
    for key in shape.union:
        items = lost(old_entry.get(key), new_entry.get(key))
        if items is not None:
            found[key] = items
    # A trigger list turned into one word is left out of the new entry, not emptied.
    return held_back.without_held_back(after, found) if found else found


_FIRSTS: dict[int, tuple[Mapping[str, Any], Kind, dict[str, Mapping[str, Any]]]] = {}
"""Each entry's first appearance by its `file`, for the index data last planned from (by id;
the tuple keeps the data alive, and nothing changes an index's data once read or made)."""
_FIRSTS_LIMIT = 16


def _first_by_file(kind: Kind, old: Mapping[str, Any]) -> dict[str, Mapping[str, Any]] | None:
    """first_by_key of a memory kind's index by `file` alone, made once per index data.

    For a key that names a memory this is what first_by_key with the scope's keys gives (an
    entry's key is its `file` when that names a memory): the index's entries are looked up
    only by memories' keys, so the entries of no memory it also holds change nothing.
    """
    if kind.is_project_kind:
        return None
    cached = _FIRSTS.get(id(old))
    if cached is not None and cached[0] is old and cached[1] is kind:
        return cached[2]
    found = first_by_key(kind, old)
    if len(_FIRSTS) >= _FIRSTS_LIMIT:
        _FIRSTS.clear()
    _FIRSTS[id(old)] = (old, kind, found)
    return found


def _previous_entries(
    kind: Kind,
    tree: Tree,
    old: Mapping[str, Any] | None,
    keys: KindScope,
    previous: Mapping[str, Memory],
    current: Mapping[str, Memory] | None = None,
) -> dict[str, Mapping[str, Any]]:
    """The index's entry for each memory, less the list items the change took out of its file.

    Read it, never change it: for a memory kind it may be the map kept for this very index.
    """
    found = _first_by_file(kind, old) if old else {}
    if kind.is_project_kind or found is None:
        found = first_by_key(kind, old, keys.key_of)
    if not previous:
        return found
    copied = False
    # The records now at the changed paths: handed over by the caller, or found in one pass.
    now = (
        current if current is not None else {m.path: m for m in tree.memories if m.path in previous}
    )
    for path, before in previous.items():
        if before.kind not in keys.feeding:
            continue
        key = entry_key(before.kind, before)
        entry = found.get(key)
        if entry is None or not keys.in_scope(key):
            continue
        after = now.get(path)
        if before.kind is not kind or after is None:
            continue  # gone (its entry goes) or moved (its entry's lists stay as they are)
        items = _lost_items(kind, before, after)
        if items:
            if not copied:
                found, copied = dict(found), True
            found[key] = {
                field: without(value, items[field]) if field in items else value
                for field, value in entry.items()
            }
    return found


def _plan_kind(
    tree: Tree,
    root: Path,
    today: dt.date,
    kind: Kind,
    explain: bool = True,
    scope: Scope | None = None,
    files: Mapping[str, bytes | None] | None = None,
) -> KindPlan | None:
    """The updates and drift of one kind; without `explain`, the drift says nothing of entries
    and the updates do not list what changed in them (the comparison is skipped). `files`
    (paths from the root: bytes, None for no file) stand in for the index files they name."""
    if not (root / kind.folder).is_dir():
        return None
    scope = scope or Scope()
    json_rel, md_rel = f"{kind.folder}/{INDEX_JSON}", f"{kind.folder}/{INDEX_MD}"

    def read(rel: str) -> bytes | None:
        return files[rel] if files is not None and rel in files else _read(root, rel)

    old_json, old_md = read(json_rel), read(md_rel)
    json_key = f"{root}/{json_rel}"
    # Stand-in bytes are parsed, never cached over what was read from the disk.
    parsed_key = "" if files is not None and json_rel in files else json_key
    old, problem = _load(old_json, parsed_key) if old_json is not None else (None, None)
    keys = KindScope(kind, tree, scope)
    previous = (
        _previous_entries(kind, tree, old, keys, scope.previous, scope.current) if old else {}
    )
    stamp = old.get("last_updated") if old else None
    stamp = stamp if isinstance(stamp, str) else today.isoformat()
    built = _build(kind, tree, old, today, stamp, previous, keys.key_of)
    if old:
        data = patch_data(kind, old, built.data, keys.in_scope, keys.key_of, keys.exact)
        built = dataclasses.replace(built, data=data)
    new_json = dump_json(built.data)
    hand_laid = False
    if new_json != old_json:
        hand_laid = old_json is not None and old is not None and not _standard(json_key, old_json)
        # Dumped again only when this process did not write these very bytes in that layout.
        hand_laid = hand_laid and dump_json(old) != old_json
        if hand_laid and old_json is not None:
            # Laid out by someone else's hand: only what changed is written, in that layout.
            if not same(built.data, old):
                built = _stamped(built, today.isoformat())
            new_json = rewrite_json(old_json, old, built.data, standard=False)
        else:
            # `last_updated` moves only with a real change, so regenerating is quiet in git.
            built, new_json = _restamped_json(new_json, built, today.isoformat())
        # Once written, the next change starts from this very data (its entries' text kept).
        # A plan over stand-in files is never written: what is on disk stays the one cached.
        if files is None:
            _PARSED[json_key] = (new_json, built.data)
            if not hand_laid:
                _DUMPED[json_key] = new_json

    md_scope, md_keys = keys.in_scope, keys.key_of
    if scope.remove_stale and old:
        # The lines of the entries being removed go with them: in index.md they are named by
        # their file (or project name), not by the key the removal gives them.
        field = key_field(kind)
        stale = {
            str(entry.get(field))
            for _, items in sections(kind, old)
            for entry in items
            if keys.plain_key_of(entry) is None
        }
        md_scope = lambda key: key in stale or keys.in_scope(key)  # noqa: E731
        md_keys = lambda entry: keys.plain_key_of(entry) or str(entry.get(field))  # noqa: E731
    new_md = _markdown(kind, built, old_md, md_scope, md_keys, old)

    looked = keys.plain_key_of
    added, removed, disagreeing = (
        compare(kind, old, built.data, looked) if explain else ((), (), ())
    )
    kept = tuple(untied(kind, built.data, looked)) if explain else ()
    findings: list[str] = []
    if problem:
        findings.append(f"{problem}; `index` regenerates it from the files")
    elif old_json is None:
        findings.append(JSON_MISSING)
    elif new_json != old_json and explain and not (added or removed or disagreeing):
        # A hand-laid file keeps its layout: what differs is then outside the entries.
        findings.append(JSON_OUTSIDE if hand_laid else JSON_LAYOUT)
    if new_md != old_md:
        findings.append(MD_MISSING if old_md is None else MD_STALE)
    notes = tuple(map(_note, built.unindexed))
    if kind is Kind.PROCEDURAL:
        notes += tuple(held_back.notes(m for m in tree.memories if m.kind is kind))
    drift = KindDrift(kind, json_rel, added, removed, disagreeing, tuple(findings), notes, kept)

    updates: list[IndexUpdate] = []
    if scope.remove_stale and scope.paths == frozenset() and not untied(kind, old, looked):
        # Removing entries tied to no file, and this index has none: nothing to write here
        # (bringing its counts in step is `r`'s plan, not this one's).
        return KindPlan((), drift, unreadable=problem is not None)
    if new_json != old_json:
        changes = [f"{problem}; regenerated from the files"] if problem else []
        if old_json is None:
            changes.append("created from the files")
        changes += ["added {} under {}".format(*placed(entry)) for entry in added]
        changes += [
            "removed {} from {}: it no longer belongs there".format(*placed(entry))
            for entry in removed
        ]
        changes += [line for d in disagreeing for line in d.sentences()]
        if scope.remove_stale:
            changes += removal_lines(kind, old, built.data, looked, tree, root)
        elif kept:
            changes += [
                "kept {} under {}: it has no file of its own".format(*placed(entry))
                for entry in kept
            ]
        standard = explain and not hand_laid
        unexplained = "rewritten in the standard layout" if standard else "patched"
        updates.append(IndexUpdate(json_rel, old_json, new_json, tuple(changes or [unexplained])))
    if new_md != old_md:
        change = "created from the files" if old_md is None else "the lines of its entries updated"
        updates.append(IndexUpdate(md_rel, old_md, new_md, (change,)))
    return KindPlan(tuple(updates), drift, unreadable=problem is not None)


def _planned(
    tree: Tree,
    root: Path,
    today: dt.date,
    kinds: Iterable[Kind] | None,
    explain: bool = True,
    scope: Scope | None = None,
    files: Mapping[str, bytes | None] | None = None,
) -> list[KindPlan]:
    wanted = set(Kind) if kinds is None else set(kinds)
    found = (
        _plan_kind(tree, Path(root), today, kind, explain, scope, files)
        for kind in Kind
        if kind in wanted
    )
    return [planned for planned in found if planned is not None]


def plan_updates(
    tree: Tree,
    root: Path,
    today: dt.date,
    kinds: Iterable[Kind] | None = None,
    scope: Scope | None = None,
) -> list[IndexUpdate]:
    """Index files (of `kinds`, default all) the tree would change; writes nothing."""
    return [
        update
        for planned in _planned(tree, root, today, kinds, scope=scope)
        for update in planned.updates
    ]


def drift(
    tree: Tree, root: Path, today: dt.date, kinds: Iterable[Kind] | None = None
) -> DriftReport:
    """Per kind (of `kinds`, default all): entries missing, or disagreeing with the files, and
    the entries tied to no file (kept, not drift); writes nothing."""
    planned = planned_by_kind(tree, root, today, kinds, True, None, CHECKING)
    return DriftReport(tuple(kind_plan.drift for kind_plan in planned))


UPDATING = "Updating the indexes: {count} kinds"
CHECKING = "Checking the indexes: {count} kinds"
WRITING = "Writing {count} index files"


def planned_by_kind(
    tree: Tree,
    root: Path,
    today: dt.date,
    kinds: Iterable[Kind] | None,
    explain: bool,
    scope: Scope | None,
    what: str = UPDATING,
    files: Mapping[str, bytes | None] | None = None,
) -> list[KindPlan]:
    """`_planned`, kind by kind, saying how far it got (see progress.py); `files` stand in for
    the index files they name (see `_plan_kind`)."""
    asked = set(Kind) if kinds is None else set(kinds)
    wanted = [kind for kind in Kind if kind in asked]
    found: list[KindPlan] = []
    for done, kind in enumerate(wanted):
        report_progress(done, len(wanted), what)
        found.extend(_planned(tree, root, today, [kind], explain, scope, files))
    report_progress(len(wanted), len(wanted), what)
    return found


def kinds_affected(paths: Iterable[str]) -> set[Kind]:
    """The kinds whose indexes depend on these changed paths (files or whole folders).

    Index files and pending updates feed no index, so writing an index never asks for another.
    Work experience feeds the current-tasks index too (projects move there when completed).
    """
    found: set[Kind] = set()
    for path in paths:
        for kind in Kind:
            if path != kind.folder and not path.startswith(kind.folder + "/"):
                continue
            inside = path[len(kind.folder) + 1 :]
            first = inside.split("/", 1)[0]
            if inside in (INDEX_JSON, INDEX_MD) or (
                kind is Kind.CURRENT_TASKS and first == PENDING_DIR
            ):
                continue
            found.add(kind)
            if kind is Kind.WORK_EXPERIENCE:
                found.add(Kind.CURRENT_TASKS)
    return found

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

from ..atomic import StoreError, digest_bytes
from ..model import Kind, Memory, Tree
from ..scan import PENDING_DIR
from ..store import Store
from .drift import DriftReport, KindDrift, compare
from .entries import entry_key, readable
from .jsonfmt import dump_json
from .markdown import render_markdown
from .memories import build_long_term, build_short_term
from .procedural import build_procedural
from .projects import build_current_tasks, build_work_experience
from .sections import Built

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
class _Planned:
    updates: tuple[IndexUpdate, ...]
    drift: KindDrift
    unreadable: bool = False
    """Its index.json is there but cannot be read: only a person's request rebuilds it."""


def _read(root: Path, rel: str) -> bytes | None:
    try:
        return (root / rel).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreError(
            f"cannot read {rel}: {error.strerror or error}; fix it and index again"
        ) from None


def _load(raw: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The parsed index, or None and the reason it cannot be used."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, "index.json is not valid JSON"
    if not isinstance(data, dict):
        return None, "index.json is not a JSON object"
    return data, None


def _build(
    kind: Kind, tree: Tree, old: Mapping[str, Any] | None, today: dt.date, stamp: str
) -> Built:
    memories = tree.of_kind(kind)
    if kind is Kind.SHORT_TERM:
        return build_short_term(memories, old, today, stamp)
    if kind is Kind.LONG_TERM:
        return build_long_term(memories, old, today, stamp)
    if kind is Kind.CURRENT_TASKS:
        return build_current_tasks(memories, tree, old, stamp)
    if kind is Kind.WORK_EXPERIENCE:
        return build_work_experience(memories, old, stamp)
    return build_procedural(memories, old, stamp)


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


def _markdown(kind: Kind, built: Built, old: bytes | None) -> bytes:
    """index.md, keeping its old date when nothing but the date would change."""
    new = render_markdown(kind, built)
    if old is None or new == old:
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
    return new


def _one_line(value: Any) -> bool:
    return isinstance(value, str) and "\n" not in value and "\r" not in value


def _note(memory: Memory) -> str:
    return f"{memory.path} is not indexed: {memory.problems[0].message}"


def unindexed(tree: Tree) -> list[str]:
    """One line per memory the indexes leave out because its frontmatter cannot be read."""
    return [_note(memory) for memory in readable(tree.memories)[1]]


def _existing(kind: Kind, tree: Tree) -> set[str]:
    """Entry names whose file or folder exists; recently completed projects live on elsewhere."""
    kinds = [kind, Kind.WORK_EXPERIENCE] if kind is Kind.CURRENT_TASKS else [kind]
    return {entry_key(k, m) for k in kinds for m in tree.of_kind(k)}


def _plan_kind(
    tree: Tree, root: Path, today: dt.date, kind: Kind, explain: bool = True
) -> _Planned | None:
    """The updates and drift of one kind; without `explain`, the drift says nothing of entries
    and the updates do not list what changed in them (the comparison is skipped)."""
    if not (root / kind.folder).is_dir():
        return None
    json_rel, md_rel = f"{kind.folder}/{INDEX_JSON}", f"{kind.folder}/{INDEX_MD}"
    old_json, old_md = _read(root, json_rel), _read(root, md_rel)
    old, problem = _load(old_json) if old_json is not None else (None, None)
    stamp = old.get("last_updated") if old else None
    built = _build(kind, tree, old, today, stamp if isinstance(stamp, str) else today.isoformat())
    new_json = dump_json(built.data)
    if new_json != old_json:
        # `last_updated` moves only with a real change, so regenerating is quiet in git.
        built, new_json = _restamped_json(new_json, built, today.isoformat())
    new_md = _markdown(kind, built, old_md)

    missing, gone, disagreeing = (
        compare(kind, old, built.data, _existing(kind, tree)) if explain else ((), (), ())
    )
    findings: list[str] = []
    if problem:
        findings.append(f"{problem}; `index` regenerates it from the files")
    elif old_json is None:
        findings.append("index.json is missing")
    elif new_json != old_json and explain and not (missing or gone or disagreeing):
        findings.append("index.json differs only in layout")
    if new_md != old_md:
        findings.append("index.md is missing" if old_md is None else "index.md is out of date")
    notes = tuple(map(_note, built.unindexed))
    drift = KindDrift(kind, json_rel, missing, gone, disagreeing, tuple(findings), notes)

    updates: list[IndexUpdate] = []
    if new_json != old_json:
        changes = [f"{problem}; regenerated from the files"] if problem else []
        if old_json is None:
            changes.append("created from the files")
        changes += [f"added {entry}" for entry in missing]
        changes += [f"removed {entry}: its file is gone" for entry in gone]
        changes += [d.format() for d in disagreeing]
        unexplained = "rewritten in the standard layout" if explain else "regenerated"
        updates.append(IndexUpdate(json_rel, old_json, new_json, tuple(changes or [unexplained])))
    if new_md != old_md:
        change = "created from the files" if old_md is None else "rewritten to match index.json"
        updates.append(IndexUpdate(md_rel, old_md, new_md, (change,)))
    return _Planned(tuple(updates), drift, unreadable=problem is not None)


def _planned(
    tree: Tree, root: Path, today: dt.date, kinds: Iterable[Kind] | None, explain: bool = True
) -> list[_Planned]:
    wanted = set(Kind) if kinds is None else set(kinds)
    found = (_plan_kind(tree, Path(root), today, kind, explain) for kind in Kind if kind in wanted)
    return [planned for planned in found if planned is not None]


def plan_updates(
    tree: Tree, root: Path, today: dt.date, kinds: Iterable[Kind] | None = None
) -> list[IndexUpdate]:
    """Index files (of `kinds`, default all) the tree would change; writes nothing."""
    return [update for planned in _planned(tree, root, today, kinds) for update in planned.updates]


def drift(
    tree: Tree, root: Path, today: dt.date, kinds: Iterable[Kind] | None = None
) -> DriftReport:
    """Per kind (of `kinds`, default all): entries missing, gone, or disagreeing with the files;
    writes nothing."""
    return DriftReport(tuple(planned.drift for planned in _planned(tree, root, today, kinds)))


def regenerate(
    store: Store,
    kinds: Iterable[Kind] | None = None,
    today: dt.date | None = None,
    settled: dict[Kind, KindDrift] | None = None,
    automatic: bool = False,
    explain: bool = True,
) -> list[IndexUpdate]:
    """Plan from the store's in-memory tree and write what drifted, through the store.

    `automatic` (after a change, not asked for) leaves alone a kind whose index.json cannot be
    read: it may be another program's half-written file, or hold a person's edits to repair, so
    it is reported and rebuilt only on request. Once every write landed, `settled` (when given)
    gets each kind's drift as it now is: nothing but the notes on unreadable memories, so no
    second comparison is needed to know it. Without `explain` the updates do not list what
    changed in the entries: comparing the old index with the new costs a sixth of a write at
    10,000 memories, and only `samantha-tui index` shows it.
    """
    planned = _planned(store.tree, store.root, today or store.today(), kinds, explain)
    if automatic:
        planned = [kind_plan for kind_plan in planned if not kind_plan.unreadable]
    updates = [update for kind_plan in planned for update in kind_plan.updates]
    for update in updates:
        expected = digest_bytes(update.old) if update.old is not None else None
        store.write_file(update.path, update.new, expected)
    if settled is not None:
        for kind_plan in planned:
            kind_drift = kind_plan.drift
            settled[kind_drift.kind] = KindDrift(
                kind_drift.kind, kind_drift.path, unindexed=kind_drift.unindexed
            )
    return updates


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


def refresh(store: Store, paths: Iterable[str], today: dt.date | None = None) -> list[IndexUpdate]:
    """After a write: regenerate only the kinds those paths feed, from the in-memory tree."""
    kinds = kinds_affected(paths)
    return regenerate(store, kinds, today) if kinds else []

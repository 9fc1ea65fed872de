"""Current-tasks and work-experience indexes: one entry per project folder."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from ...basics.model import Kind, Memory, Tree
from .entries import PROJECT, entry_key, project_entry, readable
from .merge import merge_entry, merge_root, ordered
from .sections import PROJECT_LISTS, Built, EntryKey, entries, first_by_key, listed_in

DONE_MARK = "✅"
"""What samantha-llm's project analyzer appends to a project's status when it finds the work
complete ("Phase 2 - API done ✅"): its `projects status` shows a status as it is written."""


def completed_status(status: Any) -> str:
    """A project's status once it is complete, as samantha-llm's completion writes it: the
    hand-written phase text with DONE_MARK after it, unless it already says it is complete
    (samantha-llm's test: "complete" in it; or the mark is there already); "completed" for none.
    """
    text = str(status or "").strip()
    if not text:
        return "completed"
    if "complete" in text.lower() or DONE_MARK in text:
        return text
    return f"{text} {DONE_MARK}"


def _completed(entry: Mapping[str, Any], old: Mapping[str, Any] | None) -> dict[str, Any]:
    """A project entry listed as recently completed: its status says so (completed_status)."""
    values = dict(entry)
    values["status"] = completed_status(values.get("status"))
    return ordered(values, PROJECT.order, old or entry)


def _moved_to_finished(entry: Mapping[str, Any], finished: Memory) -> dict[str, Any]:
    """An active or blocked entry whose folder now lives in work experience.

    Hand-written phase text ("Phase 2 - API done") described work in progress, which the move made
    untrue, so its status is marked complete as samantha-llm marks it (completed_status); summary,
    started and recent_progress stay as written.
    """
    values = _completed(entry, entry)
    completed = finished.frontmatter.get("completed")
    if "completed" not in values and isinstance(completed, dt.date):
        values["completed"] = completed.isoformat()
    return ordered(values, PROJECT.order, entry)


def build_current_tasks(
    memories: Sequence[Memory],
    tree: Tree,
    old: Mapping[str, Any] | None,
    stamp: str,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
    key_of: EntryKey | None = None,
) -> Built:
    """active / blocked from the folders' status; recently_completed kept and fed by moves.

    Entries are by project folder (`key_of` ties an index entry to its folder; by default by
    name); the entry keeps the index's own `name`.
    """
    kind = Kind.CURRENT_TASKS
    good, bad = readable(memories)
    finished = {entry_key(Kind.WORK_EXPERIENCE, m): m for m in tree.of_kind(Kind.WORK_EXPERIENCE)}
    if previous is None:
        previous = first_by_key(kind, old, key_of)
    was_in = listed_in(kind, old, key_of)
    here = {entry_key(kind, m) for m in memories}
    lists: dict[str, dict[str, Mapping[str, Any]]] = {name: {} for name in PROJECT_LISTS}
    for m in good:
        name = entry_key(kind, m)
        status = m.status or "active"
        target = {"blocked": "blocked", "completed": "recently_completed"}.get(status, "active")
        merged = merge_entry(project_entry(kind, m, "active"), previous.get(name), PROJECT)
        if target == "recently_completed":
            # Its hand-written phase text was kept: left as it was, `projects status` would
            # show a finished project as still in progress.
            merged = _completed(merged, previous.get(name))
        lists[target][name] = merged
    for m in bad:
        # An unreadable status.md must not cost the project its hand-written entry.
        name = entry_key(kind, m)
        if name in previous:
            lists[was_in[name][0]][name] = previous[name]
    for name, entry in previous.items():
        if name in here or name not in finished:
            continue
        if was_in[name][0] == "recently_completed":
            lists["recently_completed"][name] = entry
        else:
            lists["recently_completed"][name] = _moved_to_finished(entry, finished[name])
    # New completions first (as the real tool lists them), then the old list in its own order.
    done = lists["recently_completed"]
    old_order = [
        item["name"] for item in entries((old or {}).get("recently_completed")) if item.get("name")
    ]
    if key_of is not None:
        old_order = [
            key for item in entries((old or {}).get("recently_completed")) if (key := key_of(item))
        ]
    fresh = sorted(name for name in done if name not in old_order)
    kept = [name for name in dict.fromkeys(old_order) if name in done]
    active = [lists["active"][name] for name in sorted(lists["active"])]
    derived = {
        "last_updated": stamp,
        "active_count": len(active),
        "active": active,
        "blocked": [lists["blocked"][name] for name in sorted(lists["blocked"])],
        "recently_completed": [done[name] for name in fresh + kept],
    }
    return Built(data=merge_root(derived, old), extra={}, unindexed=tuple(bad))


def build_work_experience(
    memories: Sequence[Memory],
    old: Mapping[str, Any] | None,
    stamp: str,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
) -> Built:
    """Completed projects in the current-tasks project shape, under `completed`, by folder."""
    kind = Kind.WORK_EXPERIENCE
    good, bad = readable(memories)
    if previous is None:
        previous = first_by_key(kind, old)
    projects: dict[str, Mapping[str, Any]] = {}
    for m in good:
        name = entry_key(kind, m)
        projects[name] = merge_entry(
            project_entry(kind, m, "completed"), previous.get(name), PROJECT
        )
    for m in bad:
        name = entry_key(kind, m)
        if name in previous:
            projects[name] = previous[name]
    derived = {
        "last_updated": stamp,
        "total_projects": len(projects),
        "completed": [projects[name] for name in sorted(projects)],
    }
    return Built(data=merge_root(derived, old), extra={}, unindexed=tuple(bad))

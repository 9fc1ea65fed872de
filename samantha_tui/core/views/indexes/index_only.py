"""What removing an index entry tied to no file takes with it, said in the plan's lines.

samantha-llm keeps state in its indexes that no file holds: a current-tasks project with no
folder, a runbook entry whose triggers the merge grew in the index alone. Removing such an entry
is a decision, so its plan line says what is lost ("known only to the index: the assistant
forgets it") and names what depends on it:
- a pending project update for that project: `samantha-llm projects review` applies one to the
  entry of the same `name` in `active` or `recently_completed` and fails when there is none, so
  the update is left waiting for good;
- a runbook entry's trigger signals: the assistant loads runbooks from the index's triggers;
- a session awaiting merge that observed that runbook's domain: the merge adds its signals to
  the index entry of that domain only, and with no entry drops them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ...basics.json_read import read_json
from ...basics.model import Kind, Tree
from ...basics.plans import Plan
from ...reading.subconscious import session_id
from ...reading.triggers import CATEGORIES, MalformedTriggers, read_triggers
from .sections import EntryKey, entries, key_field, sections

FORGETS = "known only to the index: the assistant forgets it"
REVIEW_COMMAND = "samantha-llm projects review"
REVIEW_LISTS = ("active", "recently_completed")
"""The lists `projects review` looks a pending update's project up in, in this order."""
MAX_OBSERVATIONS_BYTES = 5 * 1024 * 1024
"""A session's procedural file larger than this is not read: no real one comes near it."""


def removed_entries(plan: Plan) -> int:
    """How many entries known only to the index a plan's writes remove."""
    return sum(
        line.startswith("removed ") and line.endswith(FORGETS)
        for op in plan.operations
        for line in op.reason.splitlines()
    )


def removal_lines(
    kind: Kind,
    old: Mapping[str, Any] | None,
    new: Mapping[str, Any],
    key_of: EntryKey,
    tree: Tree,
    root: Path,
) -> list[str]:
    """One line per entry tied to no file that the write removes (in index order, once each),
    each followed by an indented line for everything that depends on it."""
    lines: list[str] = []
    seen: set[str] = set()
    field = key_field(kind)
    for section, entry in _untied(kind, old, key_of):
        value = entry.get(field)
        name = value if isinstance(value, str) else "(unnamed)"
        label = f"{name} ({section})"
        if label in seen:
            continue
        seen.add(label)
        lines.append(f"removed {label}: {FORGETS}")
        if kind is Kind.CURRENT_TASKS and isinstance(value, str):
            lines += [f"  {line}" for line in _pending_updates(value, new, tree)]
        if kind is Kind.PROCEDURAL:
            lines += [f"  {line}" for line in _runbook_signals(entry)]
            domain = entry.get("domain")
            if isinstance(domain, str) and domain.strip():
                lines += [f"  {line}" for line in _observing_sessions(domain, tree, root)]
    return lines


def _untied(
    kind: Kind, data: Mapping[str, Any] | None, key_of: EntryKey
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for section, items in sections(kind, data or {}):
        for item in items:
            if key_of(item) is None:
                yield section, item


def _still_named(name: str, data: Mapping[str, Any]) -> bool:
    """Whether `projects review` still finds an entry of this name after the write."""
    return any(
        entry.get("name") == name
        for listing in REVIEW_LISTS
        for entry in entries(data.get(listing))
    )


def _pending_updates(name: str, new: Mapping[str, Any], tree: Tree) -> list[str]:
    if _still_named(name, new):
        return []
    return [
        f"pending update {update.path} waits for {name}: `{REVIEW_COMMAND}` finds no entry"
        " of that name and cannot apply it"
        for update in tree.pending_updates
        if update.project == name
    ]


def _runbook_signals(entry: Mapping[str, Any]) -> list[str]:
    """The trigger signals the entry holds: the assistant loads the runbook by these."""
    try:
        triggers = read_triggers(entry.get("triggers"))
    except MalformedTriggers as problem:
        if entry.get("triggers") is None:
            return []
        return [f"its `triggers` go with it ({problem})"]
    named = [
        f"{category}: {', '.join(triggers.positive[category])}"
        for category in CATEGORIES
        if triggers.positive.get(category)
    ]
    if triggers.negative:
        named.append("negative: " + ", ".join(n.signal for n in triggers.negative))
    if not named:
        return []
    return [
        "its trigger signals go with it (the assistant loads the runbook by them): "
        + "; ".join(named)
    ]


def _observing_sessions(domain: str, tree: Tree, root: Path) -> list[str]:
    found = []
    for session in sorted(tree.awaiting_merge, key=session_id):
        if _observes(root / session.path / "procedural", domain):
            found.append(
                f"session {session_id(session)} awaits merge with observations for {domain}:"
                " its merge finds no runbook entry of that domain and drops the trigger signals"
                " it observed"
            )
    return found


def _observes(folder: Path, domain: str) -> bool:
    """Whether a session's procedural files observe, recommend or correct this domain."""
    try:
        files = sorted(folder.glob("procedural_*.json"))
    except OSError:
        return False
    for path in files:
        try:
            if path.stat().st_size > MAX_OBSERVATIONS_BYTES:
                continue
            data = read_json(path)
        except (OSError, ValueError):
            continue  # the merge skips an unreadable file too
        if not isinstance(data, Mapping) or not data.get("session_had_procedural_patterns"):
            continue  # as the merge, which reads nothing else of such a file
        for listing in ("observations", "runbook_recommendations", "corrections_to_propagate"):
            if any(item.get("domain") == domain for item in entries(data.get(listing))):
                return True
    return False

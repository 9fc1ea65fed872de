"""The curator's everyday changes to memories, each as a plan the store applies in one go.

Flags and fields set here leave `updated:` alone: marking a memory critical or fixing its metadata
does not change what it says, and the form shows `updated` for the person to set themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..basics.model import Memory
from ..basics.plans import Operation, Plan
from ..basics.schema import IMPORTANCE
from ..basics.wording import quoted
from ..reading import frontmatter
from . import trash
from .atomic import StoreError

# The edits' names: the rule of the plans made here (see Plan.rule).
CRITICAL = "critical"
STEP_IMPORTANCE = "importance"
FORM = "form"
TRASH = "trash"
CREATE = "create"
RESTORE = "restore"
RESTORE_COPY = "restore as a copy"
EDITOR = "editor"
"""A file saved in the editor the app launched: its undo puts the previous bytes back."""


def name_of(path: str) -> str:
    """What a person calls a memory in a notice: its file name, or its project for a status.md."""
    folder, _, name = path.rpartition("/")
    return folder.rpartition("/")[2] if name == "status.md" else name


def _edit(
    path: str,
    reason: str,
    values: Mapping[str, Any] | None = None,
    unset: Sequence[str] = (),
    expected: str | None = None,
    title: str | None = None,
) -> Operation:
    return Operation(
        "edit",
        path,
        reason,
        values=dict(values or {}),
        unset=tuple(unset),
        expected=expected,
        touch_updated=False,
        title=title,
    )


def why_fields_cannot_be_saved(raw: bytes) -> str | None:
    """Why no field can be written into a file of these bytes (not UTF-8 text, no frontmatter,
    frontmatter that cannot be read), said as the store would refuse it; None when they can."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "it is not UTF-8 text"
    parsed = frontmatter.parse(text)
    if parsed.mapping is not None:
        return None
    return parsed.errors[0][1] if parsed.errors else "it has no frontmatter"


def toggle_critical(memory: Memory) -> Plan:
    """Mark a memory critical (`critical: true`), or remove the key when it is."""
    if memory.critical:
        op = _edit(memory.path, "no longer critical", unset=("critical",))
        return Plan(f"{name_of(memory.path)}: no longer critical", (op,), rule=CRITICAL)
    op = _edit(memory.path, "read every session", values={"critical": True})
    return Plan(f"{name_of(memory.path)}: marked critical", (op,), rule=CRITICAL)


def step_importance(memory: Memory, step: int) -> Plan:
    """Raise (step 1) or lower (step -1) importance along low < medium < high.

    A memory without importance goes to low when raised; lowering it, or going past either end,
    is refused with a message, as is a value outside the scale (the form fixes that).
    """
    raw = memory.frontmatter.get("importance")
    if raw is None:
        if step < 0:
            raise StoreError(f"{memory.path} has no importance to lower")
        target = IMPORTANCE[0]
    elif raw not in IMPORTANCE:
        raise StoreError(
            f"{memory.path} has importance {quoted(raw)}, which is not low, medium or high; "
            "fix it in the form (e)"
        )
    else:
        index = IMPORTANCE.index(raw) + step
        if not 0 <= index < len(IMPORTANCE):
            raise StoreError(f"{memory.path} is already at {raw} importance")
        target = IMPORTANCE[index]
    op = _edit(memory.path, f"importance {raw or 'unset'} -> {target}", {"importance": target})
    return Plan(f"{name_of(memory.path)}: importance {target}", (op,), rule=STEP_IMPORTANCE)


def edit_fields(
    path: str,
    set_values: Mapping[str, Any],
    unset: Sequence[str],
    expected: str | None,
    title: str | None = None,
) -> Plan:
    """Save a form: set and remove keys, and with `title` rewrite the body's `# ` heading line,
    against the digest the form was opened on."""
    op = _edit(path, "edited in the form", set_values, unset, expected, title)
    # Named for what it does, not as done: the conflict dialog shows it for a change not written.
    said = "fields edited" if set_values or unset else "title edited"
    return Plan(f"{name_of(path)}: {said}", (op,), rule=FORM)


def delete(memories: Iterable[Memory]) -> Plan:
    """Move memories to the trash (a project's status.md takes its whole folder)."""
    # A record whose bytes were never read (over the size limit, unreadable) has no digest to
    # compare: without one, its step is not called changed since the plan (the trash keeps the
    # file whole, whatever it holds).
    ops = tuple(
        Operation("trash", m.path, "deleted by you", seen=m.digest or None) for m in memories
    )
    first = name_of(ops[0].path) if ops else "nothing"
    more = f" and {len(ops) - 1} more" if len(ops) > 1 else ""
    return Plan(f"{first}{more} moved to the trash", ops, rule=TRASH)


def create(rel: str, data: bytes) -> Plan:
    """Write a new memory file (refused if one is already there)."""
    op = Operation("add", rel, "new memory", data=data)
    return Plan(f"{name_of(rel)}: created", (op,), rule=CREATE)


def restore(entry: trash.TrashEntry) -> Plan:
    """Put a trashed item back where it was (refused if anything is there now); its index
    entries are patched in with it, as for any change through the door."""
    op = Operation("restore", entry.path, "restored by you", target=entry.id)
    return Plan(f"restore {name_of(entry.path)}", (op,), rule=RESTORE)


def restore_copy(root: Path, entry: trash.TrashEntry) -> Plan:
    """Restore a trashed file as a new file beside its old place (`<stem>_restored.md`, never
    over anything); the trash keeps its own copy until it is emptied. Undo removes the copy."""
    data = trash.item_bytes(root, entry)
    rel = trash.copy_name(entry, lambda r: (root / r).exists() or (root / r).is_symlink())
    op = Operation("add", rel, f"restored as a copy of {entry.path}", data=data)
    return Plan(f"{name_of(rel)}: restored as a copy", (op,), rule=RESTORE_COPY)

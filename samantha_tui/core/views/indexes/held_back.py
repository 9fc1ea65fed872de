"""Trigger fields of a runbook that samantha-llm's merge could not take: never put in an index.

samantha-llm's merge appends the signals it observes to each list under `triggers.positive` of a
runbook's index entry. A category written as one word in the file (`repo_signals: db-infra`)
and copied into index.json as text makes that merge stop with `'str' object has no attribute
'append'`, on every retry. So such a field is held back: the entry keeps what the index had for
it (nothing, for a new entry, which the merge then starts as a list), and the person is told,
since the file and its entry now differ there until the file is fixed. A `negative` that is not
a list is held back the same way: the index's own negative signals stay the veto they were.

Holding back, rather than refusing the whole write: one runbook's typo would otherwise stop
every other index from following its files, and `check` already names the line to fix.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...basics import schema
from ...basics.model import Kind, Memory


def held_back(memory: Memory) -> tuple[str, ...]:
    """Dotted paths of the trigger fields of a runbook that are not lists
    (`triggers.positive.repo_signals`, `triggers.negative`)."""
    if memory.kind is not Kind.PROCEDURAL:
        return ()
    return tuple(path for path, _ in schema.trigger_errors(memory.frontmatter.get("triggers")))


def _note(memory: Memory, path: str) -> str:
    value: Any = memory.frontmatter
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    scalar = isinstance(value, str | int) and not isinstance(value, bool)
    return (
        f"{memory.path}: `{path}` is not a list, so its index entry keeps what it had there "
        "(samantha-llm's merge adds signals to a list and stops on anything else); write it as "
        f"a list: `{path.rsplit('.', 1)[-1]}: [{value if scalar else ''}]`"
    )


def notes(memories: Iterable[Memory]) -> list[str]:
    """One line for each held-back trigger field of these memories."""
    return [_note(memory, path) for memory in memories for path in held_back(memory)]


def without_held_back(memory: Memory, lost: Mapping[str, Any]) -> dict[str, Any]:
    """`lost` (list items a change took out of the memory's entry, by key) less those under its
    held-back fields: a field turned into one word lost nothing, the index keeps it all."""
    found = dict(lost)
    for path in held_back(memory):
        first, *inner = path.split(".")
        if first in found:
            found[first] = _forget(found[first], inner)
            if found[first] is None:
                del found[first]
    return found


def _forget(value: Any, path: list[str]) -> Any:
    """value without the item at path (nested maps); None when nothing is left of it."""
    if not path:
        return None
    if not isinstance(value, Mapping) or path[0] not in value:
        return value
    rest = _forget(value[path[0]], path[1:])
    kept = {key: item for key, item in value.items() if key != path[0]}
    if rest is not None:
        kept[path[0]] = rest
    return kept or None

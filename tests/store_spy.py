"""Each change a store makes to the files, heard from outside it the moment it lands.

The product needs no such hook (the store's callers learn what changed from what its methods
return); tests that must act or count at that moment (a fault armed after the first operation,
another program writing between a write and its undo step, a ledger of every write's bytes) wrap
the store's operations here instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from samantha_tui.core.writing.store import Store


@dataclass(frozen=True)
class Change:
    """One file operation of the store, as it landed."""

    action: str
    """write | create | move | trash | restore"""
    paths: tuple[str, ...]
    previous: bytes | None = None
    """The bytes a memory write replaced."""


Listener = Callable[[Change], None]


def on_change(store: Store, listener: Listener) -> None:
    """Call `listener` after each file operation of `store`, in the thread that made it, once the
    store's records show it. A memory write is heard inside the store's lock, with the bytes it
    replaced; the other operations as they return."""
    write = store._write

    def written(rel: str, path: Path, data: bytes, previous: bytes) -> Any:
        memory = write(rel, path, data, previous)
        listener(Change("write", (rel,), previous))
        return memory

    store._write = written  # type: ignore[method-assign]
    _after(store, "write_file", listener, lambda args, _result: Change("write", (args[0],)))
    _after(store, "add_file", listener, lambda args, _result: Change("create", (args[0],)))
    _after(store, "move", listener, lambda args, _result: Change("move", (args[0], args[1])))
    _after(store, "trash", listener, lambda _args, entry: Change("trash", (entry.path,)))
    _after(store, "restore", listener, lambda _args, rel: Change("restore", (rel,)))


def _after(
    store: Store, name: str, listener: Listener, change: Callable[[tuple[Any, ...], Any], Change]
) -> None:
    method = getattr(store, name)

    def run(*args: Any, **kwargs: Any) -> Any:
        result = method(*args, **kwargs)
        listener(change(args, result))
        return result

    setattr(store, name, run)

"""What every command shares: the --tree option, finding the tree, and errors a person can fix."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.basics.visible import visible
from ..core.reading.locate import find_root

if TYPE_CHECKING:
    from ..core.basics.plans import Plan
    from ..core.writing.store import Store

EXIT_PROBLEMS = 1
EXIT_NOT_FOUND = 2


class UserError(Exception):
    """A mistake the person can fix; printed as one line, exit 1."""


def tree_option(parser: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    """Add --tree; SUPPRESS by default so a subcommand never resets a --tree given before it."""
    parser.add_argument(
        "--tree", metavar="PATH", default=default, help="the memory tree (root, .ai/ or workspace)"
    )


def tree_argument(parser: argparse.ArgumentParser) -> None:
    """For commands whose only argument is the tree: PATH positional, or --tree."""
    parser.add_argument("path", nargs="?", help="the memory tree (root, .ai/ or workspace)")
    tree_option(parser)


def locate(args: argparse.Namespace) -> Path:
    """The tree named by a positional PATH, --tree, or found in the documented order."""
    return find_root(getattr(args, "path", None) or getattr(args, "tree", None))


def open_store(args: argparse.Namespace, say_interrupted: bool = True) -> Store:
    """A store over the tree the arguments name, already scanned; an interrupted change is
    told on stderr with what to run about it (unless `say_interrupted` is False: `check`
    reports it as a problem of its own)."""
    # Imported here: the store brings the writer, YAML and the trash, which a search never needs.
    from ..core.writing import journal
    from ..core.writing.store import Store

    store = Store(locate(args))
    tree = store.scan()
    for notice in tree.notices:  # the catalog's: damaged, locked, or not where it should be
        print(f"samantha-tui: {visible(notice)}", file=sys.stderr)
    waiting = journal.notice(store.root) if say_interrupted else None
    if waiting is not None:
        print(f"samantha-tui: {visible(waiting)}", file=sys.stderr)
    return store


def print_unpatched(store: Store, plan: Plan, written: Iterable[str] = ()) -> None:
    """Say which index a change could not patch (it cannot be read) and so left as it is;
    `written` (index files the change wrote) were read to be patched, so are not looked at."""
    # Imported here: only the commands that write bring the indexes and the plans.
    from ..core.basics.plans import touched_by
    from ..core.views.indexes import health, held_back, kinds_affected

    paths = [path for op in plan.operations for path in touched_by(op)]
    done = set(written)
    if not all(f"{kind.folder}/index.json" in done for kind in kinds_affected(paths)):
        for line in health.unpatched_after(store.root, paths):
            print(visible(line))
    for line in held_back.notes(m for path in paths if (m := store.get(path)) is not None):
        print(f"note: {visible(line)}")

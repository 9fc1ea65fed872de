"""`trash list|restore|empty`: what was deleted, and getting it back."""

from __future__ import annotations

import argparse
import sys

from ..core.writing import door, edits, journal, leftover, trash, tree_lock
from ..core.writing.store import Store
from .common import EXIT_PROBLEMS, UserError, open_store, tree_option
from .output import say


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("trash", help="list, restore or empty the trash")
    tree_option(parser)
    actions = parser.add_subparsers(dest="trash_command", metavar="ACTION", required=True)
    tree_option(actions.add_parser("list", help="what is in the trash"))
    restore = actions.add_parser("restore", help="put an item back where it was")
    restore.add_argument("id")
    restore.add_argument(
        "--as-copy",
        action="store_true",
        help="restore a file beside its old place as <name>_restored.md; the trash keeps it",
    )
    tree_option(restore)
    empty = actions.add_parser("empty", help="delete for good what was trashed long ago")
    empty.add_argument("--older-than", type=int, required=True, metavar="DAYS")
    tree_option(empty)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    if args.trash_command == "list":
        return list_trash(store)
    if args.trash_command == "empty" and args.older_than < 0:
        raise UserError("--older-than takes a number of days, 0 or more")
    # As every change: one writer at a time, and nothing while an interrupted change waits (its
    # finishing or rolling back may need what is in the trash).
    with tree_lock.hold(store.root):
        finished = leftover.finish_if_only_indexes(store)
        if finished:
            print(finished)
        journal.refuse_if_pending(store.root)
        if args.trash_command == "restore" and args.as_copy:
            plan = edits.restore_copy(store.root, trash.find(store.root, args.id))
            door.apply(store, plan)
            print(f"restored {plan.operations[0].path} as a copy; the trash still holds {args.id}")
        elif args.trash_command == "restore":
            entry = trash.find(store.root, args.id)
            door.apply(store, edits.restore(entry))
            say(f"restored {entry.path}")
        else:
            removed = store.empty_trash(args.older_than)
            print(f"deleted {len(removed)} item(s) trashed more than {args.older_than} days ago")
    return 0


def list_trash(store: Store) -> int:
    """Print what can be restored; report damaged entries on stderr and exit 1 when there are."""
    found = store.trash_listing()
    for entry in found.entries:
        say(f"{entry.id}  {entry.trashed_at:%Y-%m-%d %H:%M}  {entry.path}")
    for damaged in found.damaged:
        print(f"samantha-tui: trash entry {damaged.id}: {damaged.reason}", file=sys.stderr)
    if found.problem:
        print(f"samantha-tui: {found.problem}", file=sys.stderr)
    elif not found.entries and not found.damaged:
        print("the trash is empty", file=sys.stderr)
    return EXIT_PROBLEMS if found.damaged or found.problem else 0

"""`trash list|restore|empty`: what was deleted, and getting it back."""

from __future__ import annotations

import argparse
import sys

from .common import UserError, open_store, tree_option


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("trash", help="list, restore or empty the trash")
    tree_option(parser)
    actions = parser.add_subparsers(dest="trash_command", metavar="ACTION", required=True)
    tree_option(actions.add_parser("list", help="what is in the trash"))
    restore = actions.add_parser("restore", help="put an item back where it was")
    restore.add_argument("id")
    tree_option(restore)
    empty = actions.add_parser("empty", help="delete for good what was trashed long ago")
    empty.add_argument("--older-than", type=int, required=True, metavar="DAYS")
    tree_option(empty)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    if args.trash_command == "list":
        entries = store.trash_entries()
        for entry in entries:
            print(f"{entry.id}  {entry.trashed_at:%Y-%m-%d %H:%M}  {entry.path}")
        if not entries:
            print("the trash is empty", file=sys.stderr)
    elif args.trash_command == "restore":
        print(f"restored {store.restore(args.id)}")
    else:
        if args.older_than < 0:
            raise UserError("--older-than takes a number of days, 0 or more")
        removed = store.empty_trash(args.older_than)
        print(f"deleted {len(removed)} item(s) trashed more than {args.older_than} days ago")
    return 0

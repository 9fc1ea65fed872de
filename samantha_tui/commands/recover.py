"""`recover`: finish or roll back a change a crash interrupted; without a flag, say what waits."""

from __future__ import annotations

import argparse
import sys

from ..core import journal
from ..core.recovery import FINISH, ROLLBACK, recover
from ..core.store import Store
from .common import EXIT_PROBLEMS, locate, tree_argument


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "recover", help="finish or roll back a change that was interrupted; exit 1 if one waits"
    )
    tree_argument(parser)
    way = parser.add_mutually_exclusive_group()
    way.add_argument("--finish", action="store_true", help="complete the interrupted change")
    way.add_argument(
        "--rollback", action="store_true", help="put every file back as it was before the change"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = Store(locate(args))
    if args.finish or args.rollback:
        print(recover(store, FINISH if args.finish else ROLLBACK).describe())
        return 0
    found = journal.current(store.root)
    if isinstance(found, journal.InProgress):
        # Its writer is still at work: nothing to finish or roll back, and its temporary files
        # are live writes, not leftovers.
        print(f"{found.describe()}; it is not interrupted: let it finish")
        return 0
    leftovers = journal.temporary_files(store.root)
    if found is None and not leftovers:
        print("nothing was interrupted")
        return 0
    if found is not None:
        print(f"interrupted: {found.describe()} (started {found.started})")
    for rel in leftovers:
        print(f"leftover of an interrupted write: {rel}")
    what = "complete it" if found is not None else "remove the leftovers"
    undo = ", or --rollback to put every file back as it was" if found is not None else ""
    print(f"run `samantha-tui recover --finish` to {what}{undo}", file=sys.stderr)
    return EXIT_PROBLEMS

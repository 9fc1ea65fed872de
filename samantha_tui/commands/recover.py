"""`recover`: finish or roll back a change a crash interrupted; without a flag, say what waits."""

from __future__ import annotations

import argparse
import sys

from ..core.writing import journal
from ..core.writing.recovery import FINISH, ROLLBACK, Preview, index_drift, preview, recover
from ..core.writing.store import Store
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
        _print_drift(index_drift(store))
        return 0
    found = journal.current(store.root)
    if isinstance(found, journal.InProgress):
        # Its writer is still at work: nothing to finish or roll back, and its temporary files
        # are live writes, not leftovers.
        print(f"{found.describe()}; it is not interrupted: let it finish")
        return 0
    leftovers = journal.temporary_files(store.root)
    drifting = index_drift(store) if found is None else ()
    if found is None and not leftovers and not drifting:
        print("nothing was interrupted")
        return 0
    if found is None and not leftovers:
        print("nothing was interrupted, but index files lag behind the memory files")
        _print_drift(drifting)
        return EXIT_PROBLEMS
    if found is not None:
        print(f"interrupted: {found.describe()} (started {found.started})")
        _print_preview(preview(store, found))
    for rel in leftovers:
        print(f"leftover of an interrupted write: {rel}")
    _print_drift(drifting)
    what = "complete it" if found is not None else "remove the leftovers"
    undo = ", or --rollback to put every file back as it was" if found is not None else ""
    print(f"run `samantha-tui recover --finish` to {what}{undo}", file=sys.stderr)
    return EXIT_PROBLEMS


def _print_preview(shown: Preview) -> None:
    """Every file each choice would change, before the person makes it."""
    for heading, lines in (("finish would:", shown.finish), ("roll back would:", shown.rollback)):
        print(heading)
        for line in lines or ("change nothing",):
            print(f"  {line}")


def _print_drift(drifting: tuple[str, ...]) -> None:
    """Index files a kill left behind the memory files (no journal records that)."""
    for line in drifting:
        print(f"index drift: {line}")
    if drifting:
        print(
            "run `samantha-tui index --check` to see the drift, `samantha-tui index` to patch it",
            file=sys.stderr,
        )

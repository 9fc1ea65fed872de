"""`index`: regenerate every index.json / index.md from the files; `--check` only reports drift."""

from __future__ import annotations

import argparse

from ..core.indexes import drift, regenerate, unindexed
from .common import EXIT_PROBLEMS, open_store, tree_argument


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "index", help="rewrite the index files that drifted from the memories"
    )
    tree_argument(parser)
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; report the drift and exit 1 if there is any",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    today = store.today()
    if args.check:
        report = drift(store.tree, store.root, today)
        for line in report.lines():
            print(line)
        return EXIT_PROBLEMS if report.drifted else 0
    updates = regenerate(store, today=today)
    for update in updates:
        print(f"{update.path}:")
        for change in update.changes:
            print(f"  {change}")
    for note in unindexed(store.tree):
        print(f"note: {note}")
    print(f"{len(updates)} index files rewritten" if updates else "indexes are up to date")
    return 0

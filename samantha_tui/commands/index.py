"""`index`: patch every index.json / index.md from the files; `--check` only reports drift;
`--remove-stale` removes the entries known only to the index (samantha-llm's own state: the
assistant forgets them), each listed with the pending updates and runbook signals that depend on
it, and applied only with --yes, as `prune` and every other destructive command confirms."""

from __future__ import annotations

import argparse

from ..core.views.indexes import drift, unindexed
from ..core.views.indexes.index_only import removed_entries
from ..core.writing import leftover
from ..core.writing.curator import Curator
from ..core.writing.door import apply
from .common import EXIT_PROBLEMS, open_store, tree_argument
from .output import say


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "index", help="patch the index files that drifted from the memories"
    )
    tree_argument(parser)
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; report the drift and exit 1 if there is any",
    )
    parser.add_argument(
        "--remove-stale",
        action="store_true",
        help=(
            "remove the entries known only to the index, so the assistant forgets them (listed"
            " with what depends on them; applied only with --yes)"
        ),
    )
    parser.add_argument("--yes", action="store_true", help="with --remove-stale: remove them")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    if args.check:
        report = drift(store.tree, store.root, store.today())
        for line in report.lines():
            say(line)
        return EXIT_PROBLEMS if report.drifted else 0
    plan = Curator(store).index_plan(remove_stale=args.remove_stale)
    for op in plan.operations:
        say(f"{op.path}:")
        # Split on newlines only: a carriage return in a file name is not a line of its own.
        for change in op.reason.split("\n"):
            say(f"  {change}")
    for note in unindexed(store.tree):
        say(f"note: {note}")
    if not plan:
        print("indexes are up to date")
        return 0
    if args.remove_stale and not args.yes:
        print(
            f"{_entries(removed_entries(plan))} known only to the index would be removed;"
            " run again with --yes to remove them"
        )
        return 0
    # One batch through the store's door: journaled, each file refused if it changed meanwhile.
    apply(store, plan, reindex=False, finish_first=leftover.finish_if_only_indexes)
    if args.remove_stale:
        print(f"{_entries(removed_entries(plan))} known only to the index removed")
    print(f"{len(plan.operations)} index files rewritten")
    return 0


def _entries(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"

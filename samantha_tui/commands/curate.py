"""`review`, and the curation commands that print a plan and apply it only with --yes."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..core.basics.model import Kind, Tree
from ..core.basics.plans import Plan
from ..core.reading import subconscious
from ..core.reading.subconscious import MERGE_COMMAND
from ..core.views import lifecycle
from ..core.views.naming import names_of
from ..core.writing import door, impact, leftover
from ..core.writing.door import apply
from ..core.writing.store import Store
from .common import open_store, print_unpatched, tree_argument
from .output import print_json, say

RULES = {
    "prune": "move stale short-term memories to the trash",
    "promote": "move lasting short-term memories to long-term memory",
    "escalate": "raise importance of memories referenced often; mark 10+ critical",
    "dedupe": "move merge copies and near-identical memories to the trash",
    "complete": "move finished tasks to work experience",
}


def register(commands: argparse._SubParsersAction) -> None:
    review = commands.add_parser("review", help="list every curation candidate with its reason")
    tree_argument(review)
    review.add_argument("--json", action="store_true", help="machine-readable output")
    review.set_defaults(handler=run_review)
    for name, help_text in RULES.items():
        parser = commands.add_parser(name, help=f"{help_text} (a plan; --yes applies it)")
        tree_argument(parser)
        parser.add_argument("--yes", action="store_true", help="apply the plan")
        if name == "complete":
            parser.add_argument(
                "--project", action="append", metavar="NAME", help="complete this task (repeatable)"
            )
        parser.set_defaults(handler=run_rule)


def proposal_for(store: Store, args: argparse.Namespace) -> lifecycle.Proposal:
    tree, today = store.tree, store.today()
    if args.command == "prune":
        return lifecycle.prune(tree)
    if args.command == "promote":
        return lifecycle.promote(tree, today)
    if args.command == "escalate":
        return lifecycle.escalate(tree)
    if args.command == "dedupe":
        return lifecycle.dedupe(tree)
    return lifecycle.complete(tree, today, args.project)


def unmatched_projects(store: Store, args: argparse.Namespace) -> list[str]:
    """Projects named with --project that have no folder (one kept in the index alone)."""
    named = getattr(args, "project", None) or []
    inside = Kind.CURRENT_TASKS.folder + "/"
    folders = {
        m.path.removeprefix(inside).split("/", 1)[0] for m in store.tree.of_kind(Kind.CURRENT_TASKS)
    }
    return [name for name in named if name not in folders]


def run_rule(args: argparse.Namespace) -> int:
    store = open_store(args)
    proposal = proposal_for(store, args)
    plan = proposal.plan()
    if not plan:
        for name in unmatched_projects(store, args):
            print(f"complete: {name} has no folder in current tasks; there is nothing to move")
        print(f"{proposal.name}: nothing to do")
        return 0
    for candidate in proposal.candidates:
        say(f"{candidate.path}  ({candidate.reason})")
        for operation in candidate.operations:
            say(f"    {operation.describe()}")
        alone = Plan(candidate.path, candidate.operations, rule=proposal.name)
        for line in impact.also_goes_lines(alone, store.tree):
            say(f"    {line}")
    if not args.yes:
        print(f"{len(proposal.candidates)} candidate(s); run again with --yes to apply")
        return 0
    applied = apply(store, plan, finish_first=leftover.finish_if_only_indexes)
    if applied.finished_first:
        print(applied.finished_first)
    for skipped in applied.skipped:
        say(f"skipped: {skipped.describe()}")
    if applied.skipped:
        # Not a failure: each skipped file holds a change someone made after the plan, or says
        # what its rule does not allow (the plan may have come from the catalog's records).
        total = len(applied.plan.operations)
        print(
            f"applied: {applied.ran} of {total} operation(s); skipped {len(applied.skipped)} "
            f"{door.skipped_why(applied.skipped)}; their index entries patched"
        )
    else:
        print(f"applied: {applied.ran} operation(s); their index entries patched")
    print_unpatched(store, applied.plan)
    return 0


def _namer(tree: Tree) -> Callable[[str, str], str]:
    """(path, candidate's title) -> the name the memory is shown by (views/naming.py); the
    candidate's own title for a project folder or an update."""
    names = names_of(tree)
    by_path = {memory.path: memory for memory in tree.memories}

    def named(path: str, title: str) -> str:
        memory = by_path.get(path)
        return title if memory is None or memory.title != title else names.shown(memory)

    return named


def run_review(args: argparse.Namespace) -> int:
    store = open_store(args)
    proposals = lifecycle.review(store.tree, store.today())
    merges = subconscious.merge_plan(store.tree)
    if args.json:
        named = _namer(store.tree)
        payload: dict[str, list[dict[str, Any]]] = {
            p.name: [
                {
                    "path": c.path,
                    "title": c.title,
                    "name": named(c.path, c.title),
                    "reason": c.reason,
                }
                for c in p.candidates
            ]
            for p in proposals
        }
        payload["sessions awaiting merge"] = [
            {
                "path": m.session.path,
                "memories": list(m.session.memory_files),
                "merge writes": [
                    {"staged": c.staged, "target": c.target, "replaces": c.replaces}
                    for c in m.copies
                ],
                "explanation": subconscious.explain(m),
            }
            for m in merges
        ]
        print_json(payload, default=str)
        return 0
    for proposal in proposals:
        print(f"{proposal.name} ({len(proposal.candidates)})")
        for candidate in proposal.candidates:
            say(f"  {candidate.path}  ({candidate.reason})")
    print(f"sessions awaiting merge ({len(merges)}; `{MERGE_COMMAND}` brings them in)")
    for merge in merges:
        count = len(merge.session.memory_files)
        say(f"  {merge.session.path}  ({count} {'memory' if count == 1 else 'memories'})")
        for line in subconscious.explain(merge):
            print(f"    {line}")
    return 0

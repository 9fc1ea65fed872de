"""`check`: every problem in the tree, one line each; exit 1 when there is any."""

from __future__ import annotations

import argparse
import json
import sys

from ..core.model import Severity
from .common import EXIT_PROBLEMS, open_store, tree_argument


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("check", help="list every problem in the tree; exit 1 if any")
    tree_argument(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    tree = store.tree
    problems = tree.all_problems
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if args.json:
        payload = {
            "root": str(store.root),
            "memories": len(tree.memories),
            "errors": len(errors),
            "warnings": len(problems) - len(errors),
            "problems": [
                {"path": p.path, "line": p.line, "message": p.message, "severity": p.severity.value}
                for p in problems
            ],
        }
        print(json.dumps(payload, indent=2))
    else:
        for problem in problems:
            prefix = "warning: " if problem.severity is Severity.WARNING else ""
            where = f"{problem.path}:{problem.line}" if problem.line else problem.path
            print(f"{where}: {prefix}{problem.message}")
        summary = f"{len(tree.memories)} memories, {len(errors)} problems"
        if len(problems) > len(errors):
            summary += f", {len(problems) - len(errors)} warnings"
        print(summary, file=sys.stderr)
    return EXIT_PROBLEMS if errors else 0

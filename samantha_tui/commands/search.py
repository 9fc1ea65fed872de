"""`search QUERY`: the memories a query finds, best first, as the UI's search would rank them.

It reads no more of the tree than its answer needs (core/views/tree_search.py), and imports
neither the store nor the writer: a headless search is a command to run many times a minute.
"""

from __future__ import annotations

import argparse
import sys

from ..core.basics import clock
from ..core.basics.model import Memory
from ..core.basics.visible import visible
from ..core.reading.catalog import Catalog
from ..core.views.query import QueryError, parse
from ..core.views.tree_search import answer_tree
from .common import UserError, locate, tree_option
from .output import print_json, say

DEFAULT_LIMIT = 20


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "search",
        help='find memories: words, "phrases", field:value filters, -negation',
        epilog=(
            "Filters: importance:high type:decision topic:ci (tag:) project:atlas"
            " kind:short|long|task|work|proc critical critical:false refs:>=5 age:<30d"
            " date:2026-01. A word or filter starting with - must come after -- or inside one"
            " quoted QUERY: samantha-tui search -- gateway -type:decision"
        ),
    )
    parser.add_argument("query", nargs="*", metavar="QUERY", help="the query (several words join)")
    tree_option(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"show at most N hits (default {DEFAULT_LIMIT}; 0 shows all)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.limit < 0:
        raise UserError("--limit takes a number of hits, 0 or more (0 shows all)")
    query = " ".join(args.query)
    try:
        parsed = parse(query)
    except QueryError as error:
        raise UserError(str(error)) from None
    root = locate(args)
    with Catalog.open(root) as catalog:
        found = answer_tree(root, catalog, clock.today(), parsed, args.limit or None)
        notice = catalog.notice
    if notice:  # the catalog's: damaged, locked, or not where it should be
        print(f"samantha-tui: {visible(notice)}", file=sys.stderr)
    result, memories, names = found.result, found.records, found.names
    if args.json:
        payload = {
            "query": query,
            "total": result.total,
            "hits": [
                {
                    "path": hit.path,
                    "score": hit.score,
                    "kind": memories[hit.path].kind.slug,
                    "date": _date(memories[hit.path]),
                    "title": memories[hit.path].title,
                    "title_spans": [list(span) for span in hit.title_spans],
                    "name": names.shown(memories[hit.path]),
                }
                for hit in result.hits
            ],
        }
        print_json(payload)
        return 0
    for hit in result.hits:
        memory = memories[hit.path]
        date = _date(memory) or "-"
        name = names.shown(memory)  # a session's by its distinguishing line, date kept
        say(f"{hit.score:5.1f}  {memory.kind.slug:<15}  {date:<10}  {name}  ({hit.path})")
    print(f"{len(result.hits)} of {result.total}")
    return 0


def _date(memory: Memory) -> str | None:
    return memory.date.isoformat() if memory.date else None

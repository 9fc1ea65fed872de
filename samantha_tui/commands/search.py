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
from ..core.views.other_files import OtherFound, search_other_files
from ..core.views.query import QueryError, parse
from ..core.views.tree_search import answer_tree
from .common import UserError, locate, tree_option
from .output import print_json, say

DEFAULT_LIMIT = 20
OTHER_FILES = "In other Markdown files samantha-llm's search reads (not memories):"
"""The line between the memories' hits and those in files that are not memories."""


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "search",
        help='find memories: words, "phrases", field:value filters, -negation',
        epilog=(
            "Filters: importance:high type:decision topic:ci (tag:) project:atlas"
            " kind:short|long|task|work|proc critical critical:false refs:>=5 age:<30d"
            " date:2026-01. A word or filter starting with - must come after -- or inside one"
            " quoted QUERY: samantha-tui search -- gateway -type:decision. After the memories"
            " come the other Markdown files samantha-llm's own search reads (a project's notes,"
            " hidden files, .archive/), each marked as not a memory."
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
    if found.result.error is not None:  # a value no memory holds, said with those they hold
        raise UserError(found.result.error)
    # Read apart from the memories, and listed after them, so none is taken for a memory.
    others = search_other_files(root, clock.today(), parsed, args.limit or None)
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
            "other_files_total": others.result.total,
            "other_files": [
                {
                    "path": hit.path,
                    "score": hit.score,
                    "kind": others.files[hit.path].record.kind.slug,
                    "date": _date(others.files[hit.path].record),
                    "title": others.files[hit.path].record.title,
                    "what": others.files[hit.path].what,
                }
                for hit in others.result.hits
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
    _print_other_files(others)
    return 0


def _print_other_files(others: OtherFound) -> None:
    """The hits in files that are not memories, under a line saying so; nothing without any."""
    if not others.result.hits:
        return
    print(OTHER_FILES)
    for hit in others.result.hits:
        other = others.files[hit.path]
        record = other.record
        date = _date(record) or "-"
        # Escaped by the output stream, as the memories' lines are (commands/output.py).
        print(
            f"{hit.score:5.1f}  {record.kind.slug:<15}  {date:<10}  {record.title}"
            f"  ({hit.path}; {other.what})"
        )
    print(f"{len(others.result.hits)} of {others.result.total} in files that are not memories")


def _date(memory: Memory) -> str | None:
    return memory.date.isoformat() if memory.date else None

"""`demo [DIR]`: write a copy of the bundled demo tree, dated from today."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.basics import clock
from .common import UserError


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("demo", help="write a copy of the demo tree, dated from today")
    parser.add_argument("dir", nargs="?", default="samantha-demo", help="folder to create")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..demo import write_demo

    try:
        target = write_demo(Path(args.dir), clock.today())
    except FileExistsError as error:
        raise UserError(str(error)) from None
    print(target)
    print(f"open it with: samantha-tui {target}", file=sys.stderr)
    return 0

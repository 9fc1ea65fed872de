"""Command line: open the curator, or run a headless command for scripts."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence

from . import __version__
from .commands import bootstrap, check, curate, demo, edit, index, recover, search, trash
from .commands.common import EXIT_NOT_FOUND, EXIT_PROBLEMS, UserError, tree_option
from .commands.output import visible_output
from .core.atomic import StoreError
from .core.locate import TreeNotFound, find_root
from .core.tree_lock import APP, name_this_process

# One module per command (samantha_tui/commands/); each registers its own parser and handler.
COMMAND_MODULES = (demo, check, edit, trash, curate, bootstrap, index, search, recover)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="samantha-tui",
        description="Browse and curate a samantha-llm memory tree.",
        epilog="Run without a command to open the curator on PATH (or the tree found for you).",
    )
    parser.add_argument("--version", action="version", version=f"samantha-tui {__version__}")
    tree_option(parser, default=None)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def _names_a_command(argv: list[str], parser: argparse.ArgumentParser) -> bool:
    """The UI takes a bare PATH, which argparse cannot mix with subcommands: look first."""
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--tree":
            skip = True
        elif not arg.startswith("-"):
            return arg in subparsers.choices
    return False


def run_ui(argv: list[str]) -> int:
    ui = argparse.ArgumentParser(prog="samantha-tui")
    ui.add_argument("path", nargs="?")
    tree_option(ui, default=None)
    args = ui.parse_args(argv)
    root = find_root(args.path or args.tree)
    from .ui.app import SamanthaApp

    SamanthaApp(root).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    # Every line a command prints for people (argparse's own messages too) goes out with the
    # control characters of tree text escaped; JSON output is written through print_json.
    with visible_output():
        return run_command(list(sys.argv[1:] if argv is None else argv))


def run_command(argv: list[str]) -> int:
    parser = build_parser()
    try:
        wants_help = any(a in ("-h", "--help", "--version") for a in argv)
        if not _names_a_command(argv, parser) and not wants_help:
            name_this_process(APP)  # what another writer is told holds the tree
            return run_ui(argv)
        name_this_process(shlex.join(argv))
        args = parser.parse_args(argv)
        return args.handler(args)
    except BrokenPipeError:
        # Output piped into `head` and the like: stopping early is not an error.
        sys.stderr.close()
        return 0
    except TreeNotFound as error:
        print(f"samantha-tui: {error}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except (StoreError, UserError, ValueError) as error:
        print(f"samantha-tui: {error}", file=sys.stderr)
        return EXIT_PROBLEMS

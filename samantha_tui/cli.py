"""Command line: open the curator, or run a headless command for scripts."""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
from collections.abc import Sequence

from . import __version__
from .commands.common import EXIT_NOT_FOUND, EXIT_PROBLEMS, UserError, tree_option
from .commands.output import visible_output
from .core.basics.errors import StoreError
from .core.reading.locate import TreeNotFound, find_root
from .core.writing.tree_lock import APP, name_this_process

# The module of each command (samantha_tui/commands/), which registers its parser and handler.
# Only the module of the command run is imported: the others bring the curation rules, the
# bootstrap planner and the search, a third of a second that `check` has no use for.
COMMAND_MODULES: dict[str, str] = {
    "demo": "demo",
    "check": "check",
    "set": "edit",
    "unset": "edit",
    "trash": "trash",
    "review": "curate",
    "prune": "curate",
    "promote": "curate",
    "escalate": "curate",
    "dedupe": "curate",
    "complete": "curate",
    "bootstrap": "bootstrap",
    "index": "index",
    "search": "search",
    "recover": "recover",
    "health": "health",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with `command` of that command's module only."""
    parser = argparse.ArgumentParser(
        prog="samantha-tui",
        description="Browse and curate a samantha-llm memory tree.",
        epilog="Run without a command to open the curator on PATH (or the tree found for you).",
    )
    parser.add_argument("--version", action="version", version=f"samantha-tui {__version__}")
    tree_option(parser, default=None)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = COMMAND_MODULES.values() if command is None else [COMMAND_MODULES[command]]
    for name in dict.fromkeys(names):
        importlib.import_module(f".commands.{name}", __package__).register(commands)
    return parser


def _named_command(argv: list[str]) -> str | None:
    """The command argv names, if any. The UI takes a bare PATH, which argparse cannot mix
    with subcommands: look first."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--tree":
            skip = True
        elif not arg.startswith("-"):
            return arg if arg in COMMAND_MODULES else None
    return None


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
    try:
        command = _named_command(argv)
        wants_help = any(a in ("-h", "--help", "--version") for a in argv)
        if command is None and not wants_help:
            name_this_process(APP)  # what another writer is told holds the tree
            return run_ui(argv)
        name_this_process(shlex.join(argv))
        args = build_parser(command).parse_args(argv)
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

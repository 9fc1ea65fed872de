"""Command line: open the curator, or run a headless command for scripts."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .core import clock, frontmatter
from .core.atomic import StoreError
from .core.locate import TreeNotFound, find_root, root_for_file
from .core.model import Severity
from .core.store import Store

COMMANDS = ("demo", "check", "set", "unset", "trash")
EXIT_PROBLEMS = 1
EXIT_NOT_FOUND = 2


class UserError(Exception):
    """A mistake the person can fix; printed as one line, exit 1."""


def _tree_option(parser: argparse.ArgumentParser, default: Any = None) -> None:
    parser.add_argument(
        "--tree", metavar="PATH", default=default, help="the memory tree (root, .ai/ or workspace)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="samantha-tui",
        description="Browse and curate a samantha-llm memory tree.",
        epilog="Run without a command to open the curator on PATH (or the tree found for you).",
    )
    parser.add_argument("--version", action="version", version=f"samantha-tui {__version__}")
    _tree_option(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    # Subcommands must not reset a --tree given before the command's name.
    suppress = argparse.SUPPRESS

    demo = commands.add_parser("demo", help="write a copy of the demo tree, dated from today")
    demo.add_argument("dir", nargs="?", default="samantha-demo", help="folder to create")

    check = commands.add_parser("check", help="list every problem in the tree; exit 1 if any")
    check.add_argument("path", nargs="?", help="the memory tree")
    check.add_argument("--json", action="store_true", help="machine-readable output")
    _tree_option(check, suppress)

    for name, word in (("set", "key=value"), ("unset", "key")):
        edit = commands.add_parser(name, help=f"{name} frontmatter keys of one memory file")
        edit.add_argument("file", help="the memory file")
        edit.add_argument("pairs", nargs="+", metavar=word)
        edit.add_argument("--keep-updated", action="store_true", help="leave `updated:` as it is")
        _tree_option(edit, suppress)

    trash = commands.add_parser("trash", help="list, restore or empty the trash")
    _tree_option(trash, suppress)
    actions = trash.add_subparsers(dest="trash_command", metavar="ACTION", required=True)
    _tree_option(actions.add_parser("list", help="what is in the trash"), suppress)
    restore = actions.add_parser("restore", help="put an item back where it was")
    restore.add_argument("id")
    _tree_option(restore, suppress)
    empty = actions.add_parser("empty", help="delete for good what was trashed long ago")
    empty.add_argument("--older-than", type=int, required=True, metavar="DAYS")
    _tree_option(empty, suppress)
    return parser


def _split_ui_args(argv: list[str]) -> tuple[bool, list[str]]:
    """Whether argv names a command; the UI takes a bare PATH, which argparse cannot mix in."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--tree":
            skip = True
            continue
        if not arg.startswith("-"):
            return arg in COMMANDS, argv
    return False, argv


def parse_value(text: str) -> Any:
    """`key=value` values as YAML scalars or flow lists: `[a, b]`, `true`, `5`, `2026-01-28`."""
    try:
        value = frontmatter.load_yaml(text)
    except Exception:  # anything YAML cannot read is meant as plain text
        return text
    if isinstance(value, dict) or value is None:
        return text
    return value


def _parse_pairs(pairs: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"{pair!r} is not key=value (for example critical=true)")
        values[key.strip()] = parse_value(value)
    return values


def _locate(args: argparse.Namespace, positional: str | None = None) -> Path:
    return find_root(positional or getattr(args, "tree", None))


def cmd_check(args: argparse.Namespace) -> int:
    store = Store(_locate(args, args.path))
    tree = store.scan()
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


def _file_in_tree(args: argparse.Namespace) -> tuple[Store, str]:
    file = Path(args.file).absolute()
    root = _locate(args) if getattr(args, "tree", None) else root_for_file(file)
    if not file.is_relative_to(root):
        raise UserError(f"{args.file} is not inside the tree at {root}")
    if not file.is_file():
        raise UserError(f"{args.file} is not a file")
    return Store(root), file.relative_to(root).as_posix()


def cmd_edit(args: argparse.Namespace) -> int:
    store, rel = _file_in_tree(args)
    if args.command == "set":
        memory = store.edit(rel, _parse_pairs(args.pairs), touch_updated=not args.keep_updated)
    else:
        bad = [key for key in args.pairs if "=" in key]
        if bad:
            raise UserError(f"unset takes key names, not {bad[0]!r}")
        memory = store.edit(rel, unset=args.pairs, touch_updated=not args.keep_updated)
    print(f"{memory.path}: updated")
    return 0


def cmd_trash(args: argparse.Namespace) -> int:
    store = Store(_locate(args))
    if args.trash_command == "list":
        entries = store.trash_entries()
        for entry in entries:
            print(f"{entry.id}  {entry.trashed_at:%Y-%m-%d %H:%M}  {entry.path}")
        if not entries:
            print("the trash is empty", file=sys.stderr)
    elif args.trash_command == "restore":
        print(f"restored {store.restore(args.id)}")
    else:
        if args.older_than < 0:
            raise UserError("--older-than takes a number of days, 0 or more")
        removed = store.empty_trash(args.older_than)
        print(f"deleted {len(removed)} item(s) trashed more than {args.older_than} days ago")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import write_demo

    try:
        target = write_demo(Path(args.dir), clock.today())
    except FileExistsError as error:
        raise UserError(str(error)) from None
    print(target)
    print(f"open it with: samantha-tui {target}", file=sys.stderr)
    return 0


def run_ui(argv: list[str]) -> int:
    ui = argparse.ArgumentParser(prog="samantha-tui")
    ui.add_argument("path", nargs="?")
    _tree_option(ui)
    args = ui.parse_args(argv)
    root = find_root(args.path or args.tree)
    from .ui.app import SamanthaApp

    SamanthaApp(root).run()
    return 0


HANDLERS = {
    "check": cmd_check,
    "set": cmd_edit,
    "unset": cmd_edit,
    "trash": cmd_trash,
    "demo": cmd_demo,
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        is_command, argv = _split_ui_args(argv)
        if not is_command and not any(a in ("-h", "--help", "--version") for a in argv):
            return run_ui(argv)
        args = build_parser().parse_args(argv)
        return HANDLERS[args.command](args)
    except TreeNotFound as error:
        print(f"samantha-tui: {error}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except (StoreError, UserError, ValueError) as error:
        print(f"samantha-tui: {error}", file=sys.stderr)
        return EXIT_PROBLEMS

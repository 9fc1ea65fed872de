"""`set` and `unset`: change frontmatter keys of one memory file from a script."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..core.basics.plans import Operation, Plan
from ..core.reading import frontmatter
from ..core.reading.locate import find_root, root_for_file
from ..core.reading.reader import MAX_FILE_BYTES
from ..core.writing import leftover
from ..core.writing.door import apply
from ..core.writing.one_file_index import narrow_enough, patch_indexes
from ..core.writing.store import Store
from .common import UserError, print_unpatched, tree_option
from .output import say


def register(commands: argparse._SubParsersAction) -> None:
    for name, word, example in (
        ("set", "key=value", "critical=true"),
        ("unset", "key", "critical"),
    ):
        parser = commands.add_parser(
            name,
            help=f"{name} frontmatter keys of one memory file",
            # argparse reads `-rf.md` as options; `--` ends them, as for any Unix command.
            epilog=f"A file whose name starts with - goes after --: "
            f"samantha-tui {name} -- -rf.md {example}",
        )
        parser.add_argument("file", help="the memory file")
        parser.add_argument("pairs", nargs="+", metavar=word)
        parser.add_argument("--keep-updated", action="store_true", help="leave `updated:` as it is")
        parser.add_argument(
            "--no-index",
            action="store_true",
            help="leave the index files alone (by default the memory's entries are patched)",
        )
        tree_option(parser)
        parser.set_defaults(handler=run)


def parse_value(text: str, key: str | None = None) -> Any:
    """`key=value` values as YAML scalars or flow lists: `[a, b]`, `true`, `5`, `2026-01-28`.

    Read as samantha-llm means them: `20261128_140000` stays text, and so does each topic in
    `topics=[yes, 42]`; the writer then writes them bare, as both readers read the same text.
    """
    try:
        value = frontmatter.load_value(text, key)
    except Exception:  # anything YAML cannot read is meant as plain text
        return text
    if isinstance(value, dict) or value is None:
        return text
    return value


def parse_pairs(pairs: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"{pair!r} is not key=value (for example critical=true)")
        values[key.strip()] = parse_value(value, key.strip())
    return values


def _file_in_tree(args: argparse.Namespace) -> tuple[Store, str]:
    """The tree comes from --tree when given, else from the file's own location."""
    file = Path(args.file).absolute()
    if not file.exists():
        raise UserError(f"{args.file} does not exist")
    tree = getattr(args, "tree", None)
    root = find_root(tree) if tree else root_for_file(file)
    if not file.is_relative_to(root):
        raise UserError(f"{args.file} is not inside the tree at {root}")
    if not file.is_file():
        raise UserError(f"{args.file} is not a file")
    return Store(root), file.relative_to(root).as_posix()


def run(args: argparse.Namespace) -> int:
    store, rel = _file_in_tree(args)
    if args.command == "set":
        values, unset = parse_pairs(args.pairs), ()
    else:
        bad = [key for key in args.pairs if "=" in key]
        if bad:
            raise UserError(f"unset takes key names, not {bad[0]!r}")
        values, unset = {}, tuple(args.pairs)
    # A short-term file is read alone, and its index entries patched from the index files: an
    # edit at 100,000 memories costs what one at ten does. Anything else reads the whole tree.
    narrow = narrow_enough(rel) and not (store.root / rel).is_symlink()
    if narrow:
        known = store.read_only(rel)
    else:
        store.scan()
        known = store.get(rel)
    if known is None:
        raise UserError(f"{args.file} is not a memory samantha-tui lists; nothing was written")
    if known.size > MAX_FILE_BYTES:
        # Refused before the change's journal keeps a copy of the file's bytes (and before
        # they are read at all): the reader never loaded its text, so there is nothing to edit.
        raise UserError(
            f"{rel} is {known.size / (1024 * 1024):.1f} MB, over the 5 MB limit of what "
            "samantha-tui reads; it edits nothing that large, nothing was written"
        )
    # The same door as the app: the edit, then its entries patched in the indexes (journaled).
    edit = Operation("edit", rel, values=values, unset=unset, touch_updated=not args.keep_updated)
    plan = Plan(f"{args.command} {rel}", (edit,), rule=args.command)
    applied = apply(
        store,
        plan,
        reindex=not args.no_index,
        indexes=patch_indexes if narrow else None,
        finish_first=leftover.finish_if_only_indexes,
    )
    if applied.finished_first:
        say(applied.finished_first)
    say(f"{rel}: updated")
    for index in applied.indexes:
        print(f"{index}: entry patched")
    if not args.no_index:
        print_unpatched(store, applied.plan, applied.indexes)
    return 0

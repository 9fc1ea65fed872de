"""What a start imports: the first frame only what it draws, a headless command no Textual.

Each check runs in a fresh interpreter and looks at `sys.modules`, the only way to see that an
import was really deferred (a module imported inside a function is invisible to a static look).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from ..fresh_python import imported_after

FIRST_FRAME = "samantha_tui.ui.app"

# Loaded when first used: the screens over the list, the forms and dialogs, the writer, the
# indexes, the search, the curation rules, the bootstrap planner and the watcher.
LATER = (
    "samantha_tui.ui.screens.bootstrap",
    "samantha_tui.ui.screens.review",
    "samantha_tui.ui.screens.stats",
    "samantha_tui.ui.screens.trash",
    "samantha_tui.ui.screens.recover",
    "samantha_tui.ui.screens.refused_journal",
    "samantha_tui.ui.screens.reader",
    "samantha_tui.ui.screens.memory_form",
    "samantha_tui.ui.screens.bulk_form",
    "samantha_tui.ui.screens.confirm",
    "samantha_tui.ui.screens.conflict",
    "samantha_tui.ui.screens.help",
    "samantha_tui.ui.screens.drift",
    "samantha_tui.ui.screens.notices",
    "samantha_tui.ui.screens.export",
    "samantha_tui.ui.sort_menu",
    "samantha_tui.core.writing.edits",
    "samantha_tui.core.writing.bulk_edits",
    "samantha_tui.core.writing.fixes",
    "samantha_tui.core.reading.fields",
    "samantha_tui.core.writing.door",
    "samantha_tui.core.views.indexes",
    "samantha_tui.core.writing.recovery",
    "samantha_tui.core.views.search",
    "samantha_tui.core.views.query",
    "samantha_tui.core.views.lifecycle",
    "samantha_tui.core.views.bootstrap",
    "samantha_tui.core.reading.subconscious",
    "samantha_tui.core.reading.watch",
    "samantha_tui.core.views.health",
    "samantha_tui.core.views.meaning.analysis",
    "samantha_tui.core.writing.dismissed_pairs",
    "watchfiles",
    "rapidfuzz",
    "numpy",
    "wordllama",
)

# Drawn in the first frame: if these are missing the probe itself is broken.
DRAWN = (
    "textual.app",
    "samantha_tui.ui.widgets.memory_table",
    "samantha_tui.ui.widgets.status_line",
    "samantha_tui.ui.widgets.counted_tabs",
    "samantha_tui.core.writing.store",
)


def test_the_first_frame_imports_none_of_what_loads_later() -> None:
    modules = imported_after(f"import {FIRST_FRAME}")
    assert set(DRAWN) <= modules
    early = sorted(name for name in LATER if name in modules)
    assert early == [], f"importing the app also imports {early}"


def test_every_module_meant_for_later_exists() -> None:
    """A renamed module would make the test above pass for nothing."""
    modules = imported_after("\n".join(f"import {name}" for name in LATER))
    assert set(LATER) <= modules


@pytest.mark.parametrize(
    "argv",
    [
        ["check"],
        ["index", "--check"],
        ["bootstrap"],
        ["review"],
        ["search", "ci"],
        ["trash", "list"],
        ["recover"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_a_headless_command_imports_no_textual(argv: list[str], demo_root: Path) -> None:
    root = demo_root
    code = (
        "import contextlib, io\n"
        "from samantha_tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), "
        "contextlib.redirect_stderr(io.StringIO()):\n"
        f"    main({[*argv, '--tree', str(root)]!r})\n"
    )
    modules = imported_after(code)
    # The command did read the tree: a search through the catalog alone, the others a store.
    reader = (
        "samantha_tui.core.views.tree_search"
        if argv[0] == "search"
        else "samantha_tui.core.writing.store"
    )
    assert reader in modules
    toolkit = sorted(name for name in modules if name.split(".")[0] in ("textual", "rich"))
    assert toolkit == [], f"samantha-tui {' '.join(argv)} imported {toolkit[:5]}"


def test_the_command_table_names_every_command_its_module_registers() -> None:
    """The CLI imports only the module of the command run, found in COMMAND_MODULES: a command
    added to a module but not to the table would not run."""
    from samantha_tui.cli import COMMAND_MODULES, build_parser

    def registered(parser) -> set[str]:
        subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return set(subparsers.choices)

    assert registered(build_parser()) == set(COMMAND_MODULES)
    for command in COMMAND_MODULES:
        assert command in registered(build_parser(command))


def test_a_headless_command_imports_only_its_own_command_module(demo_root: Path) -> None:
    code = (
        "import contextlib, io\n"
        "from samantha_tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), "
        "contextlib.redirect_stderr(io.StringIO()):\n"
        f"    main(['check', '--tree', {str(demo_root)!r}])\n"
    )
    modules = imported_after(code)
    commands = sorted(m for m in modules if m.startswith("samantha_tui.commands."))
    assert "samantha_tui.commands.check" in commands
    assert not {"samantha_tui.commands.curate", "samantha_tui.commands.search"} & set(commands)
    assert "samantha_tui.core.views.lifecycle" not in modules
    assert "rapidfuzz" not in modules


def test_a_headless_search_imports_neither_the_store_nor_the_writer(demo_root: Path) -> None:
    """Run many times a minute by scripts: it answers from the catalog, and never needs the
    store, the atomic writer, YAML or the trash."""
    code = (
        "import contextlib, io\n"
        "from samantha_tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['search', 'ci', '--tree', {str(demo_root)!r}])\n"
    )
    modules = imported_after(code)
    assert "samantha_tui.core.views.tree_search" in modules
    heavy = {
        "samantha_tui.core.writing.store",
        "samantha_tui.core.writing.atomic",
        "samantha_tui.core.writing.trash",
    }
    assert sorted(heavy & modules) == []

"""The app's typed surface (ui/host.py): read by the type checker only, and true of the app.

mypy checks every reach of a part or a screen into the app against `Host`; these checks keep the
arrangement honest where mypy does not look: nothing imports ui/app.py to type the app (no import
cycle, even for typing), nothing loads host.py at run time, and the app really has what it lists.
"""

from __future__ import annotations

import ast
from pathlib import Path

import samantha_tui
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.host import Host

from ..conftest import TODAY

PACKAGE = Path(samantha_tui.__file__).parent
APP = "samantha_tui.ui.app"
HOST = "samantha_tui.ui.host"


def _module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether only under `if TYPE_CHECKING:`) for each import in the file."""
    module = _module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, bool]] = []

    def walk(node: ast.AST, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            guarded = typing_only or (
                isinstance(node, ast.If)
                and "TYPE_CHECKING" in ast.unparse(node.test)
                and child in node.body
            )
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    target = ".".join([*base, *([child.module] if child.module else [])])
                else:
                    target = child.module or ""
                found.append((target, guarded))
                found.extend((f"{target}.{alias.name}", guarded) for alias in child.names)
            elif isinstance(child, ast.Import):
                found.extend((alias.name, guarded) for alias in child.names)
            walk(child, guarded)

    walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _every_import() -> dict[str, list[tuple[str, bool]]]:
    return {
        path.relative_to(PACKAGE).as_posix(): _imports(path)
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_only_the_command_line_imports_the_app() -> None:
    importers = [
        name
        for name, imports in _every_import().items()
        if any(target == APP for target, _ in imports)
    ]
    assert importers == ["cli.py"]


def test_the_surface_is_imported_for_the_type_checker_only() -> None:
    every = _every_import()
    at_run_time = [n for n, imports in every.items() if (HOST, False) in imports]
    typed = [n for n, imports in every.items() if (HOST, True) in imports]
    assert at_run_time == []
    # Every part of the app takes it as its base, and the screens that call on the app use it.
    for part in ("editing", "marking", "searching", "sort_order", "reading", "live"):
        assert f"ui/{part}.py" in typed
    assert "ui/screens/live_screen.py" in typed


def test_the_app_has_everything_the_surface_lists(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    declared = [name for name in Host.__dict__ if not name.startswith("__")]
    methods = [name for name in declared if getattr(Host.__dict__[name], "__isabstractmethod__", 0)]
    state = list(Host.__annotations__)
    assert len(methods) > 20 and "change" in methods and "curator" in state
    for name in methods:
        provided = getattr(SamanthaApp, name, None)
        assert provided is not None, name
        assert not getattr(provided, "__isabstractmethod__", False), name
    for name in state:
        assert name in vars(app), name

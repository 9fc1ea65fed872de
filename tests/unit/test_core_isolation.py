"""The core must stay importable without the UI toolkit."""

from __future__ import annotations

import subprocess
import sys


def test_core_imports_without_textual_or_rich() -> None:
    code = (
        "import sys, pkgutil, importlib, samantha_tui.core as core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'samantha_tui.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "import samantha_tui.demo, samantha_tui.cli\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"UI modules imported by the core: {result.stdout}"


def test_every_core_module_is_in_a_room() -> None:
    """The core's modules live in its rooms (basics, reading, views, writing), none beside them."""
    import pkgutil

    import samantha_tui.core as core

    assert sorted(m.name for m in pkgutil.iter_modules(core.__path__)) == [
        "basics",
        "reading",
        "views",
        "writing",
    ]

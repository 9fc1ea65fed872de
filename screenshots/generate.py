"""Regenerate the README's screenshots from the real app on a fresh copy of the demo tree.

Run by `make screenshots`: SVGs come from Textual's own exporter, PNGs from rsvg-convert.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from samantha_tui.demo import ANCHOR, write_demo
from samantha_tui.ui.app import SamanthaApp

SIZE = (120, 34)
# (file name, keys pressed after the tree has loaded)
SHOTS = (
    ("browser", ()),
    ("procedural", ("5",)),
    ("problems", ("7",)),
    ("help", ("question_mark",)),
)


async def shoot(root: Path, keys: tuple[str, ...], target: Path) -> None:
    app = SamanthaApp(root, lambda: ANCHOR)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        while app.memory_tree is None:
            await pilot.pause(0.01)
        for key in keys:
            await pilot.press(key)
        await pilot.pause(0.2)
        app.save_screenshot(filename=target.name, path=str(target.parent))


def to_png(svg: Path) -> None:
    # Without xml:space="preserve" librsvg collapses the runs of spaces that align the columns.
    text = svg.read_text(encoding="utf-8").replace("<svg ", '<svg xml:space="preserve" ', 1)
    with tempfile.NamedTemporaryFile("w", suffix=".svg", encoding="utf-8") as fixed:
        fixed.write(text)
        fixed.flush()
        subprocess.run(["rsvg-convert", fixed.name, "-o", str(svg.with_suffix(".png"))], check=True)


def main(out: str = "screenshots") -> int:
    folder = Path(out)
    folder.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = write_demo(Path(tmp) / "demo", ANCHOR)
        os.environ["HOME"] = tmp  # the status line then shows ~/demo, not a temporary path
        os.environ["SAMANTHA_TUI_TODAY"] = ANCHOR.isoformat()
        for name, keys in SHOTS:
            svg = folder / f"{name}.svg"
            asyncio.run(shoot(root, keys, svg))
            if shutil.which("rsvg-convert"):
                to_png(svg)
            print(svg)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:]))

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
# (file name, keys pressed after the tree has loaded, terminal size)
SHOTS = (
    ("browser", (), SIZE),
    ("search", ("slash", *"gateway"), SIZE),
    ("form", ("down", "e"), SIZE),
    ("delete", ("space", "space", "d"), SIZE),
    ("jump", ("ctrl+k", *"retry"), SIZE),
    ("procedural", ("5",), SIZE),
    ("problems", ("7",), SIZE),
    ("help", ("question_mark",), SIZE),
    ("bootstrap", ("b",), SIZE),
    ("review", ("p", "right", "space", "down", "space"), SIZE),
    ("stats", ("s",), SIZE),
    ("index-plan", ("r",), SIZE),
    ("small", (), (80, 24)),
    ("reader", ("down", "down", "enter"), SIZE),
    ("sort", ("2", "S"), SIZE),
    ("bulk-form", ("space", "space", "space", "e"), SIZE),
    ("drift", ("i",), SIZE),
    ("health", ("H",), SIZE),
    ("same-meaning", ("p", "right", "right", "right", "right"), SIZE),
    ("conflicts", ("p", "right", "right", "right", "right", "right"), SIZE),
    ("batch-bootstrap", ("p", "right", "a", "enter"), (140, 40)),
    # Last: it deletes a memory from the copy of the demo every shot shares.
    ("trash", ("d", "y", "t"), SIZE),
)


async def shoot(root: Path, keys: tuple[str, ...], size: tuple[int, int], target: Path) -> None:
    app = SamanthaApp(root, lambda: ANCHOR)
    app.animation_level = "none"
    async with app.run_test(size=size) as pilot:
        while app.memory_tree is None or app.curator.search_index is None:
            await pilot.pause(0.01)
        await app.workers.wait_for_complete()
        for key in keys:
            await pilot.press(key)
        await app.workers.wait_for_complete()
        await pilot.pause(0.3)
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
        # The user's own settings (a theme, their keys) must not show; nor a watcher.
        config = Path(tmp) / "config.toml"
        config.write_text("[watch]\nenabled = false\n", encoding="utf-8")
        os.environ["SAMANTHA_TUI_CONFIG"] = str(config)
        state = Path(tmp) / "state.json"
        os.environ["SAMANTHA_TUI_STATE"] = str(state)
        for name, keys, size in SHOTS:
            # Each shot starts as a first run: no tab or sort remembered from the one before.
            state.unlink(missing_ok=True)
            svg = folder / f"{name}.svg"
            asyncio.run(shoot(root, keys, size, svg))
            if shutil.which("rsvg-convert"):
                to_png(svg)
            print(svg)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:]))

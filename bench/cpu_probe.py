"""`python -m bench.cpu_probe [RUNS]`: CPU of an app boot and of one `j`, on the demo at 120x36.

Both in one fresh process, headless, with the modules imported first (an app test or a second
window pays no import): `boot_cpu_s` is the process CPU (every thread) from making the app to the
list filled, every worker done (the watcher and the meaning model off, as in the tests) and the
screen painted; `j_cpu_ms` the CPU of one `j` on the list, from the key sent to the cursor moved,
the preview drawn and the screen painted. The reference is `floor_boot_cpu_s`: a Textual app with
a header, a 40-row DataTable and a footer (bench/floor_app.py), booted the same way in the same
process. Medians over RUNS boots (default 5) and 20 `j`s each, with the worst as `..._max`. Prints
one JSON object.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SIZE = (120, 36)
JS = 20
"""`j` presses timed in each run."""
SETTINGS = "[watch]\nenabled = false\n\n[meaning]\nenabled = false\n"
CAP = 600.0
"""Seconds; only a hung app takes this long to do anything measured here."""


async def _until(condition: Any, pilot: Any) -> None:
    """Until condition() holds, the app handling its messages between looks."""
    async with asyncio.timeout(CAP):
        while not condition():
            await pilot._wait_for_screen()
            await asyncio.sleep(0.002)


def _settled(app: Any) -> bool:
    screen = app.screen
    workers = [w for w in app.workers if w.group != "watch" and not w.is_finished]
    return not workers and not (
        screen._layout_required or screen._repaint_required or screen._dirty_widgets
    )


async def _paint(pilot: Any) -> None:
    """The screen's pending layout and paint done now, as its update timer would do them."""
    await pilot._wait_for_screen()
    pilot.app.screen._on_timer_update()
    await pilot._wait_for_screen()


async def boot_samantha(root: Path) -> tuple[float, list[float]]:
    from textual import events

    from samantha_tui.ui.app import SamanthaApp

    start = time.process_time()
    app = SamanthaApp(root)
    async with app.run_test(size=SIZE) as pilot:
        await _until(lambda: app.memory_tree is not None and bool(app.table.rows), pilot)
        await _until(lambda: _settled(app), pilot)
        await _paint(pilot)
        boot = time.process_time() - start
        js = []
        for _ in range(JS):
            before = app.table.cursor
            start = time.process_time()
            key = events.Key("j", "j")
            key.set_sender(app)
            app._driver.send_message(key)
            await _until(lambda before=before: app.table.cursor != before, pilot)
            await _until(lambda: _settled(app), pilot)
            await _paint(pilot)
            js.append(time.process_time() - start)
    return boot, js


async def boot_floor() -> float:
    from .floor_app import FloorApp

    start = time.process_time()
    app = FloorApp()
    async with app.run_test(size=SIZE) as pilot:
        await _until(lambda: app.query("DataTable").first().row_count > 0, pilot)
        await _paint(pilot)
        return time.process_time() - start


def main(runs: int = 5) -> dict[str, float]:
    from samantha_tui.demo import ANCHOR, write_demo

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "settings.toml").write_text(SETTINGS, encoding="utf-8")
        os.environ["SAMANTHA_TUI_CONFIG"] = str(folder / "settings.toml")
        os.environ["SAMANTHA_TUI_CACHE"] = str(folder / "cache")
        os.environ["SAMANTHA_TUI_STATE"] = str(folder / "state.json")
        root = write_demo(folder / "demo", ANCHOR)
        boots, floors, js = [], [], []
        asyncio.run(boot_samantha(root))  # imports, the catalog written: not timed
        asyncio.run(boot_floor())
        for _ in range(runs):
            floors.append(asyncio.run(boot_floor()))
            boot, run_js = asyncio.run(boot_samantha(root))
            boots.append(boot)
            js += run_js
    return {
        "boot_cpu_s": statistics.median(boots),
        "boot_cpu_s_max": max(boots),
        "floor_boot_cpu_s": statistics.median(floors),
        "boot_floor_ratio": statistics.median(boots) / statistics.median(floors),
        "j_cpu_ms": statistics.median(js) * 1000,
        "j_cpu_ms_max": max(js) * 1000,
    }


if __name__ == "__main__":
    import json

    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)))

"""`python -m bench.app_probe ROOT`: the real app, headless, from process start to a filled list.

Then, once the search index is built, the index check done and the health report in (with meaning
on, that is every pair compared), page-down from the first row to the last, one key at a time,
each sent when the cursor has moved for the one before (a held key). Prints one JSON object:
startup_s, scroll_s, the page-downs pressed and the process's peak RSS in MB.
"""

from __future__ import annotations

import time

START = time.perf_counter()

SIZE = (120, 40)
WAIT_LIMIT = 600.0
WATCHER = "watch"
"""The file watcher's worker group: it runs as long as the app does, so it is not waited for."""


async def _probe(root: str) -> dict[str, float]:
    import asyncio
    from pathlib import Path

    from textual import events

    from samantha_tui.ui.app import SamanthaApp

    app = SamanthaApp(Path(root))
    async with app.run_test(size=SIZE) as pilot:
        while app.memory_tree is None or not app.table.rows:
            await pilot.pause(0.005)
        await pilot.pause()
        startup = time.perf_counter() - START
        while (
            app.curator.search_index is None
            or app.health_report is None
            or any(not w.is_finished for w in app.workers if w.group != WATCHER)
        ):
            await pilot.pause(0.01)
        table = app.table
        table.action_first()
        await pilot.pause()
        moved = asyncio.Event()
        table.watch(table, "cursor", lambda _: moved.set(), init=False)
        last = len(table.rows) - 1
        presses = 0
        start = time.perf_counter()
        while table.cursor < last:
            moved.clear()
            app.post_message(events.Key("pagedown", None))
            presses += 1
            await asyncio.wait_for(moved.wait(), WAIT_LIMIT)
        scroll = time.perf_counter() - start
    return {"startup_s": startup, "scroll_s": scroll, "page_downs": presses}


def main(root: str) -> dict[str, float]:
    """Run the probe over the tree at root; its figures with the peak RSS of this process."""
    import asyncio
    import resource

    figures = asyncio.run(_probe(root))
    figures["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(main(sys.argv[1])))

"""`python -m bench.scan_probe ROOT`: seconds from this process's start to every record read.

Prints one JSON object. Run twice in a row with the same $SAMANTHA_TUI_CACHE for a cold, then a
warm scan: the store is what the app scans through, so the catalog it keeps is used here too.
"""

from __future__ import annotations

import time

START = time.perf_counter()


def main(root: str) -> dict[str, float]:
    """Scan the tree at root as the app does; the time taken and how many memories were read."""
    from pathlib import Path

    from samantha_tui.core.basics import clock
    from samantha_tui.core.writing.store import Store

    tree = Store(Path(root), clock.today).scan()
    return {"scan_s": time.perf_counter() - START, "memories": len(tree.memories)}


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(main(sys.argv[1])))

"""What the curator tests share: two short-term memories, a curator ready on a tree, the bytes
on disk, and whether the indexes match the files as a fresh scan sees them."""

from __future__ import annotations

from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.store import Store

from .conftest import ST, TODAY

ONE = f"{ST}/2026-06-01_one.md"
TWO = f"{ST}/2026-06-02_two.md"


def text(extra: str = "") -> str:
    """A memory titled One, dated 2026-06-01, with `extra` frontmatter lines."""
    return f"---\ndate: 2026-06-01\ntopics: [ci, testing]\n{extra}---\n\n# One\n\nBody.\n"


def ready(store: Store) -> Curator:
    """A curator on the store's tree, read, searchable, its indexes regenerated first."""
    cur = Curator(store)
    cur.load()
    cur.build_search()
    cur.reindex()
    return cur


def on_disk(cur: Curator, rel: str) -> bytes:
    return (cur.store.root / rel).read_bytes()


def index_clean(cur: Curator) -> bool:
    fresh = Store(cur.store.root, lambda: TODAY)
    fresh.scan()
    return not Curator(fresh).drift().drifted

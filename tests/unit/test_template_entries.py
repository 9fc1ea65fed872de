"""A memory written to samantha-llm's long-term template (`# Title: ...`, then `## Summary` with
its text on the next line) gets its real title and summary in the index entries samantha-tui
writes, not the template's `Title: ` label and not an empty summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.reading.heading import index_title
from samantha_tui.core.views.indexes.entries import memory_entry

from .. import samantha_llm_made as made
from ..conftest import LT, ST

TITLE = "Version APIs in the path"
SUMMARY = (
    "Every public API carries its version in the path, so old clients keep working for a year."
)


def test_the_long_term_template_entry_has_its_title_and_summary(tree) -> None:
    store = tree({made.HAND_LONG: made.HAND_LONG_TEXT})
    memory = store.get(made.HAND_LONG)
    entry = memory_entry(Kind.LONG_TERM, memory)
    assert entry["title"] == TITLE
    assert entry["summary"] == SUMMARY
    # The file keeps its heading as written: only the index entry leaves the label out.
    assert memory.title == f"Title: {TITLE}"


def test_index_writes_the_real_title_and_summary_into_the_long_term_index(tree) -> None:
    store = tree({made.HAND_LONG: made.HAND_LONG_TEXT})
    assert main(["index", str(store.root)]) == 0
    written = json.loads(Path(store.root, LT, "index.json").read_text(encoding="utf-8"))
    entries = [*written["high_importance"], *(e for g in written["by_topic"].values() for e in g)]
    assert entries
    assert {(e["title"], e["summary"]) for e in entries} == {(TITLE, SUMMARY)}
    # A second run finds nothing to change: the entry's title is settled in one run.
    assert main(["index", "--check", str(store.root)]) == 0


def test_a_short_term_memory_copied_from_the_template_loses_the_label_too(tree) -> None:
    path = f"{ST}/2026-06-14_queues.md"
    text = "---\ndate: 2026-06-14\ntopics: [queues]\n---\n\n# Title: Queues are FIFO\n\n"
    text += "## Summary\nThey keep order.\n"
    store = tree({path: text})
    entry = memory_entry(Kind.SHORT_TERM, store.get(path))
    assert (entry["title"], entry["summary"]) == ("Queues are FIFO", "They keep order.")


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("Title: Version APIs in the path", "Version APIs in the path"),
        ("Title:   Spaced out", "Spaced out"),
        ("Title:", "Title:"),  # nothing after the label: the heading is all there is
        ("Title:   ", "Title:"),
        ("Titles: a list of them", "Titles: a list of them"),
        ("Title:no space", "Title:no space"),
        (
            "title: lower case is someone's own wording",
            "title: lower case is someone's own wording",
        ),
        ("Decision: Use modular config", "Decision: Use modular config"),
        ("The Title: of a book", "The Title: of a book"),
    ],
)
def test_only_the_templates_leading_label_is_left_out(heading: str, expected: str) -> None:
    assert index_title(heading) == expected

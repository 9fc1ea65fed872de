"""A value the format refuses can still be searched for: `importance:urgent` finds the memories
whose file says `importance: urgent` (the problems list flags it elsewhere), in the app's index,
the search tables and `samantha-tui search`; an importance no memory holds is an error that names
the values there are."""

from __future__ import annotations

import dataclasses
import json

import pytest

from samantha_tui.cli import main
from samantha_tui.core.views.query import Filter, parse
from samantha_tui.core.views.search import SearchIndex
from samantha_tui.core.views.search_store import answer

from ..conftest import ST, TODAY
from .test_search import mem

URGENT = dataclasses.replace(
    mem("u", "Billing export escalated", importance=None),
    frontmatter={"importance": "urgent"},
)
MEMORIES = [URGENT, mem("h", "Gateway retries", importance="high"), mem("m", "Plain note")]


def note(importance: str) -> str:
    return f"---\ndate: 2026-06-10\ntopics: [a]\nimportance: {importance}\n---\n\n# Note\n\nBody.\n"


def test_importance_takes_any_value_as_the_index_folds_it() -> None:
    assert parse("importance:Urgent").filters == (Filter("importance", "urgent"),)
    assert parse("importance:very-high").filters == (Filter("importance", "very-high"),)


@pytest.mark.parametrize("answered_by", ["index", "tables"])
def test_a_refused_importance_is_found_by_its_value(answered_by: str) -> None:
    def search(query: str):
        if answered_by == "index":
            return SearchIndex.build(MEMORIES, TODAY).search(query)
        return answer(None, MEMORIES, TODAY, query)

    found = search("importance:urgent")
    assert found.error is None
    assert [hit.path for hit in found.hits] == [URGENT.path]
    assert {hit.path for hit in search("-importance:urgent").hits} == {m.path for m in MEMORIES[1:]}
    assert search("importance:low").error is None, "a value of the format is never an error"


def test_an_importance_no_memory_holds_names_the_values_there_are() -> None:
    index = SearchIndex.build(MEMORIES, TODAY)
    result = index.search("importance:urgnt")
    assert result.hits == ()
    assert result.error == (
        "'importance:urgnt': no memory has that importance; it is low, medium or high,"
        " like importance:high (or one the memories hold: urgent)"
    )
    split = index.search_split("gateway importance:urgnt", ["all"])
    assert split.error == result.error
    plain = SearchIndex.build(MEMORIES[1:], TODAY).search("importance:urgent")
    assert plain.error is not None and plain.error.endswith("like importance:high")


def test_samantha_tui_search_finds_a_refused_importance(tree, capsys) -> None:
    store = tree({f"{ST}/2026-06-10_u.md": note("urgent"), f"{ST}/2026-06-09_h.md": note("high")})
    assert main(["search", "--tree", str(store.root), "--json", "importance:urgent"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert [hit["path"] for hit in hits] == [f"{ST}/2026-06-10_u.md"]
    assert main(["search", "--tree", str(store.root), "importance:urgnt"]) != 0
    assert "one the memories hold: urgent" in capsys.readouterr().err

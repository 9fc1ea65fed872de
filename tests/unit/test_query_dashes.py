"""Field values with a dash (`type:session-analysis`, `project:api-gateway`, `topic:rate-limits`,
`kind:work-experience`) are one value, matched whole, through every way a query is answered:
the parser, the in-memory index, and `samantha-tui search` (its search tables, and the full scan
it falls back to). A dash starts a negation only at the start of a word."""

from __future__ import annotations

import dataclasses
import json

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.query import Filter, parse
from samantha_tui.core.views.search import SearchIndex

from ..conftest import ST, TASKS, TODAY
from .test_search import mem


def note(title: str, **fields: str) -> str:
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\ndate: 2026-06-10\ntopics: [a]\n{lines}---\n\n# {title}\n\nBody.\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("type:session-analysis", Filter("type", "session-analysis")),
        ("type:Session-Analysis", Filter("type", "session-analysis")),
        ('type:"session-analysis"', Filter("type", "session-analysis")),
        ("-type:session-analysis", Filter("type", "session-analysis", negated=True)),
        ("type:quick-reference", Filter("type", "quick-reference")),
        ("project:api-gateway-refactor", Filter("project", "api-gateway-refactor")),
        ("-project:api-gateway", Filter("project", "api-gateway", negated=True)),
        ("topic:rate-limits", Filter("topic", "rate-limits")),
        ("tag:-leading", Filter("topic", "-leading")),
        ("kind:short-term", Filter("kind", Kind.SHORT_TERM)),
        ("kind:current-tasks", Filter("kind", Kind.CURRENT_TASKS)),
    ],
)
def test_a_dashed_value_is_one_value(text: str, expected: Filter) -> None:
    assert parse(text).filters == (expected,)
    assert parse(text).terms == ()


def test_importance_with_a_dash_no_memory_holds_is_an_error_not_an_empty_answer() -> None:
    result = SearchIndex.build([mem("s", "A note")], TODAY).search("importance:very-high")
    assert result.error is not None and "it is low, medium or high" in result.error


def test_the_index_matches_dashed_values_whole() -> None:
    index = SearchIndex.build(
        [
            mem("s", "Session Analysis - 2026-06-10", type="session-analysis", project="api-gw"),
            mem("d", "Use a queue", type="decision", project="api-gw-old"),
            mem("q", "Release checklist", type="quick-reference", topics=("rate-limits",)),
        ],
        TODAY,
    )

    def found(query: str) -> set[str]:
        result = index.search(query)
        assert result.error is None
        return {hit.path.rsplit("/", 1)[-1].removesuffix(".md") for hit in result.hits}

    assert found("type:session-analysis") == {"s"}
    assert found("-type:session-analysis") == {"d", "q"}
    assert found("type:session") == set()
    assert found("project:api-gw") == {"s"}
    assert found("project:api-gw-old") == {"d"}
    assert found("topic:rate-limits") == {"q"}
    assert found("type:quick-reference topic:rate-limits") == {"q"}


@pytest.mark.parametrize("catalog", ["tables", "full scan"])
def test_samantha_tui_search_finds_dashed_values(tree, capsys, monkeypatch, catalog) -> None:
    store = tree(
        {
            f"{ST}/2026-06-10_s.md": note(
                "Session Analysis - 2026-06-10",
                importance="high",
                type="session-analysis",
                project="api-gateway",
            ),
            f"{ST}/2026-06-10_d.md": note("Use a queue", type="decision", project="api-gw"),
            f"{TASKS}/api-gateway/status.md": note(
                "Gateway", status="active", project="api-gateway"
            ),
        }
    )
    if catalog == "full scan":
        # The catalog cannot be trusted (locked by the app, say): a full scan answers.
        from samantha_tui.core.reading.catalog import Refreshed
        from samantha_tui.core.views import tree_search

        real = tree_search.refresh

        def not_in_step(*args, **kwargs) -> Refreshed:
            return dataclasses.replace(real(*args, **kwargs), in_step=False)

        monkeypatch.setattr(tree_search, "refresh", not_in_step)
    for query, expected in (
        ("type:session-analysis", ["2026-06-10_s.md"]),
        ("project:api-gateway", ["2026-06-10_s.md", "api-gateway/status.md"]),
        ("project:api-gateway type:session-analysis importance:high", ["2026-06-10_s.md"]),
    ):
        assert main(["search", "--tree", str(store.root), "--json", query]) == 0
        payload = json.loads(capsys.readouterr().out)
        assert sorted(h["path"].split("/.ai/", 2)[-1] for h in payload["hits"]) == expected, query

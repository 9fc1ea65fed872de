"""Search ranking a person would agree with, filters, phrases, highlight spans, updates, the CLI."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from samantha_tui.cli import main
from samantha_tui.commands.search import OTHER_FILES
from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.views.search import BODY_CHARS, SearchIndex, forgives_typo

from ..conftest import LT, ST, TODAY, memory_text
from ..tiers import examples


def mem(
    stem: str,
    title: str,
    *,
    kind: Kind = Kind.SHORT_TERM,
    body: str = "",
    topics: tuple[str, ...] = (),
    project: str | None = None,
    importance: str | None = "medium",
    type: str | None = None,
    critical: bool = False,
    refs: int = 0,
    days_old: int | None = 10,
) -> Memory:
    date = TODAY - dt.timedelta(days=days_old) if days_old is not None else None
    return Memory(
        kind=kind,
        path=f"{kind.folder}/{stem}.md",
        title=title,
        body=f"# {title}\n\n{body}\n",
        date=date,
        importance=importance,
        critical=critical,
        reference_count=refs,
        project=project,
        topics=topics,
        type=type,
    )


def stems(index: SearchIndex, query: str, limit: int | None = None) -> list[str]:
    result = index.search(query, limit)
    assert result.error is None, result.error
    return [hit.path.split("/.ai/", 1)[1].removesuffix(".md") for hit in result.hits]


def build(*memories: Memory) -> SearchIndex:
    return SearchIndex.build(memories, TODAY)


# Ranking


def test_a_title_match_beats_a_body_that_mentions_the_word_once() -> None:
    index = build(
        mem("body", "Retry budgets for upstream calls", body="Seen at the gateway once."),
        mem("title", "Gateway config loader"),
    )
    assert stems(index, "gateway") == ["title", "body"]


def test_an_exact_title_comes_first_even_against_a_critical_memory() -> None:
    index = build(
        mem("longer", "Retry budget for upstream calls", critical=True, importance="high"),
        mem("exact", "Retry  Budget"),
        mem("inside", "Why the retry budget exists"),
    )
    result = index.search("retry budget")
    assert stems(index, "retry budget") == ["exact", "longer", "inside"]
    assert result.hits[0].score == 100.0
    assert result.hits[1].score < 100.0


def test_whole_word_then_prefix_then_inside_a_word_then_a_typo() -> None:
    index = build(
        mem("typo", "Gatewya timeouts"),
        mem("inside", "Apigateway quirks"),
        mem("prefix", "Gateways overview"),
        mem("word", "Gateway notes"),
        mem("none", "Billing export"),
    )
    assert stems(index, "gateway") == ["word", "prefix", "inside", "typo"]
    scores = [hit.score for hit in index.search("gateway").hits]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == 4


def test_an_exact_title_ignores_case_and_punctuation_but_not_word_order() -> None:
    index = build(mem("a", "Decision: Use Modular Config"), mem("b", "Use decision modular config"))
    assert [h.score for h in index.search("decision use modular config").hits] == [100.0, 85.0]


def test_the_title_starting_with_the_query_beats_it_appearing_later() -> None:
    index = build(mem("later", "Notes on the gateway config"), mem("start", "Gateway config"))
    assert stems(index, "gateway config") == ["start", "later"]


def test_field_weights_title_then_file_name_then_topics_and_project_then_body() -> None:
    # b and c tie on score (topics and project weigh the same): c is newer, as days_old says.
    index = build(
        mem("a", "Unrelated one", body="envoy"),
        mem("b", "Unrelated two", topics=("envoy",), days_old=20),
        mem("c", "Unrelated three", project="envoy", days_old=5),
        mem("2026-01-28_envoy", "Unrelated four"),
        mem("e", "Envoy"),
    )
    assert stems(index, "envoy") == ["e", "2026-01-28_envoy", "c", "b", "a"]


def test_ties_go_to_critical_then_importance_then_recency() -> None:
    index = build(
        mem("medium-old", "Deploy notes one", days_old=50),
        mem("low-new", "Deploy notes two", importance="low", days_old=1),
        mem("critical-low-old", "Deploy notes three", critical=True, importance="low", days_old=90),
        mem("high-old", "Deploy notes four", importance="high", days_old=80),
        mem("medium-new", "Deploy notes five", days_old=2),
        mem("undated", "Deploy notes six", days_old=None),
        mem("no-importance", "Deploy notes seven", importance=None, days_old=0),
    )
    expected = [
        "critical-low-old",
        "high-old",
        "medium-new",
        "medium-old",
        "undated",
        "low-new",
        "no-importance",
    ]
    assert stems(index, "deploy") == expected
    assert len({hit.score for hit in index.search("deploy").hits}) == 1
    assert stems(index, "") == expected


def test_every_word_must_match_somewhere() -> None:
    index = build(
        mem("both", "Gateway retries", body="x"),
        mem("split", "Gateway notes", topics=("retries",)),
        mem("one", "Gateway only"),
    )
    assert stems(index, "gateway retries") == ["both", "split"]
    assert index.search("gateway retries").total == 2


def test_one_edit_is_forgiven_in_words_of_four_letters_or_more_and_two_are_not() -> None:
    assert forgives_typo("rety") and forgives_typo("gateway")
    assert not forgives_typo("ret") and not forgives_typo("v1234")
    index = build(
        mem("gateway", "Gateway notes"),
        mem("retries", "Retries with budgets"),
        mem("retry", "Retry budgets", topics=("resilience",)),
        mem("token", "Token refresh"),
        mem("best", "Best practice"),
    )
    assert stems(index, "gatewya") == ["gateway"]  # swapped letters
    assert stems(index, "gatway") == ["gateway"]  # a missing letter
    assert stems(index, "gateways") == ["gateway"]  # an extra letter
    assert stems(index, "gatexay") == ["gateway"]  # a changed letter
    assert stems(index, "retires") == ["retries"]
    assert stems(index, "rety") == ["retry"]  # four letters: one edit forgiven
    assert stems(index, "tokne") == ["token"]
    assert stems(index, "resilence") == ["retry"]  # in the topics too
    assert stems(index, "test") == ["best"]
    assert stems(index, "gotewoy") == []  # two edits
    assert stems(index, "gatwya") == []  # a missing letter and a swap
    assert stems(index, "gte") == []  # three letters: none


def test_short_words_match_word_starts_only() -> None:
    index = build(mem("ci", "CI pipeline", topics=("ci",)), mem("decision", "Decision log"))
    assert stems(index, "ci") == ["ci"]
    assert stems(index, "cis") == ["decision"]  # three letters may sit inside a word


def test_body_counts_only_within_its_first_characters_and_by_word_start() -> None:
    far = "filler " * (BODY_CHARS // 7 + 10) + "zeppelin"
    index = build(
        mem("near", "One", body="the zeppelin hangar"),
        mem("far", "Two", body=far),
        mem("inside", "Three", body="antizeppelin"),
    )
    assert stems(index, "zeppelin") == ["near"]
    assert stems(index, "zepp") == ["near"]


def test_phrases_match_contiguous_text_only() -> None:
    index = build(
        mem("yes", "Gateway config loader"),
        mem("order", "Loader for config"),
        mem("body", "Other", body="We changed the config loader defaults."),
        mem("name-x", "Third", topics=("config-loader",)),
    )
    assert stems(index, '"config loader"') == ["yes", "body"]
    assert stems(index, '"config-loader"') == ["name-x"]
    assert stems(index, '"fig load"') == ["yes"]  # the body counts only from a word start
    assert stems(index, 'config -"config loader"') == ["order", "name-x"]


def test_a_word_with_punctuation_matches_as_written() -> None:
    index = build(mem("dotted", "Editing config.py safely"), mem("apart", "Config and py notes"))
    assert stems(index, "config.py") == ["dotted"]


def test_negated_words_exclude_any_field_including_the_body() -> None:
    index = build(
        mem("a", "Gateway notes"),
        mem("b", "Gateway retries"),
        mem("c", "Gateway ops", body="retries are budgeted"),
        mem("d", "Gateway typo", body="retires"),
    )
    assert stems(index, "gateway -retries") == ["a", "d"]


def test_a_limit_cuts_the_same_ranking_short(demo_root) -> None:
    from samantha_tui.core.reading.scan import scan

    index = SearchIndex.build(scan(demo_root, TODAY).memories, TODAY)
    queries = (
        "gateway",
        "config loader",
        "s",
        "retry -budget",
        "kind:short",
        "gatway",
        "rate limit",
    )
    for query in queries:
        everything = index.search(query)
        assert everything.total == len(everything.hits) > 0, query
        for limit in (0, 1, 3, 10):
            cut = index.search(query, limit)
            assert cut.hits == everything.hits[:limit] and cut.total == everything.total


def test_a_large_tie_is_read_in_tie_order() -> None:
    # More equal scores than are sorted directly: the index walks its kept order instead.
    many = [
        mem(
            f"n{i:04d}",
            f"Deploy note {i}",
            importance=("low", "medium", "high")[i % 3],
            critical=i % 97 == 0,
            days_old=i % 50,
        )
        for i in range(600)
    ]
    index = build(*many)
    everything = index.search("deploy").hits
    assert len({hit.score for hit in everything}) == 1
    assert index.search("deploy", 40).hits == everything[:40]
    # Critical (every 97th), then high importance (i % 3 == 2), then newest (i % 50 days old).
    assert stems(index, "deploy", 3) == ["n0485", "n0194", "n0388"]


# Filters: each one and its negation


@pytest.fixture
def facets() -> SearchIndex:
    return build(
        mem("st-high-ci", "One", importance="high", topics=("ci", "testing"), type="decision"),
        mem(
            "st-low-old",
            "Two",
            importance="low",
            topics=("billing",),
            type="learning",
            days_old=120,
            refs=5,
        ),
        mem("lt-critical", "Three", kind=Kind.LONG_TERM, critical=True, refs=12, days_old=400),
        mem("atlas/status", "Four", kind=Kind.CURRENT_TASKS, project="Atlas", days_old=29),
        mem("done/status", "Five", kind=Kind.WORK_EXPERIENCE, days_old=30, refs=4),
        mem("deploys", "Six", kind=Kind.PROCEDURAL, importance=None, days_old=None),
    )


ALL = {"st-high-ci", "st-low-old", "lt-critical", "atlas/status", "done/status", "deploys"}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("importance:high", {"st-high-ci"}),
        ("importance:low", {"st-low-old"}),
        ("type:decision", {"st-high-ci"}),
        ("topic:ci", {"st-high-ci"}),
        ("tag:billing", {"st-low-old"}),
        ("topic:c", set()),
        ("project:atlas", {"atlas/status"}),
        ("kind:short", {"st-high-ci", "st-low-old"}),
        ("kind:long", {"lt-critical"}),
        ("kind:task", {"atlas/status"}),
        ("kind:work", {"done/status"}),
        ("kind:proc", {"deploys"}),
        ("critical", {"lt-critical"}),
        ("critical:true", {"lt-critical"}),
        ("refs:>=5", {"st-low-old", "lt-critical"}),
        ("refs:>5", {"lt-critical"}),
        ("refs:4", {"done/status"}),
        ("refs:<=4", ALL - {"st-low-old", "lt-critical"}),
        ("age:<30d", {"st-high-ci", "atlas/status"}),
        ("age:<=30d", {"st-high-ci", "atlas/status", "done/status"}),
        ("age:>=90d", {"st-low-old", "lt-critical"}),
        ("age:>1y", {"lt-critical"}),
        ("age:<2w", {"st-high-ci"}),
        ("age:>3m", {"st-low-old", "lt-critical"}),
        ("date:2026", ALL - {"lt-critical", "deploys"}),
        ("date:2026-06", {"st-high-ci"}),
        ("date:2026-06-05", {"st-high-ci"}),
        ("date:2026-06-04", set()),
        ("date:<2026-05", {"st-low-old", "lt-critical"}),
        ("date:>=2026-05-16", {"st-high-ci", "atlas/status", "done/status"}),
    ],
)
def test_each_filter_and_its_negation(facets: SearchIndex, query: str, expected: set) -> None:
    assert set(stems(facets, query)) == expected
    # A memory without the value (no date, no importance) is never in, so always in the negation.
    assert set(stems(facets, "-" + query)) == ALL - expected


def test_critical_false_is_every_memory_not_marked_critical(facets: SearchIndex) -> None:
    assert set(stems(facets, "critical:false")) == ALL - {"lt-critical"}
    assert set(stems(facets, "-critical")) == ALL - {"lt-critical"}


def test_filters_combine_with_words_and_each_other(facets: SearchIndex) -> None:
    assert stems(facets, "kind:short -importance:low") == ["st-high-ci"]
    assert stems(facets, "one kind:short") == ["st-high-ci"]
    assert stems(facets, "one kind:long") == []


def test_only_filters_lists_matches_in_the_tie_order(facets: SearchIndex) -> None:
    result = facets.search("-kind:proc", limit=2)
    assert [h.path.rsplit("/", 1)[-1] for h in result.hits] == ["lt-critical.md", "st-high-ci.md"]
    assert result.total == 5
    assert all(hit.score == 0.0 and hit.title_spans == () for hit in result.hits)


# Bad queries


@pytest.mark.parametrize(
    ("query", "start"),
    [
        ("foo:bar", "unknown field 'foo' in 'foo:bar': use one of importance, type, topic"),
        ("refs:>=x", "'refs:>=x': refs takes a whole number"),
        ("age:abc", "'age:abc': age takes a number of days"),
        ("date:2026-13", "'date:2026-13': 13 is not a month (01-12)"),
        ('"gateway', "unbalanced quote in '\"gateway': add the closing \""),
    ],
)
def test_a_malformed_query_gives_a_message_and_no_hits(
    facets: SearchIndex, query: str, start: str
) -> None:
    result = facets.search(query)
    assert result.hits == () and result.total == 0
    assert result.error is not None and result.error.startswith(start)


# Highlight spans


def spans_text(index: SearchIndex, query: str) -> list[str]:
    hit = index.search(query).hits[0]
    title = next(m.title for m in MEMORIES if m.path == hit.path)
    return [title[start:end] for start, end in hit.title_spans]


MEMORIES = (
    mem("a", "Gateway Config Loader"),
    mem("b", "Straße zur Gateway-Konfiguration"),
    mem("c", "İstanbul gateway timeouts"),
)


def test_spans_cover_the_matched_characters_of_each_word() -> None:
    index = SearchIndex.build(MEMORIES, TODAY)
    hit = index.search("loader gateway").hits[0]
    assert hit.title_spans == ((0, 7), (15, 21))
    assert spans_text(index, '"config load"') == ["Config Load"]
    # A typo highlights the letters it shares with the title, not the whole word.
    assert spans_text(index, "gatexay loader") == ["Gate", "ay", "Loader"]
    assert spans_text(index, "gatway loader") == ["Gat", "way", "Loader"]


def test_spans_index_the_original_title_when_casefolding_changes_its_length() -> None:
    index = SearchIndex.build(MEMORIES, TODAY)
    hit = index.search("strasse").hits[0]
    assert hit.path.endswith("/b.md") and hit.title_spans == ((0, 6),)
    assert spans_text(index, "strasse konfig") == ["Straße", "Konfig"]
    assert spans_text(index, "timeouts") == ["timeouts"]
    # "İ" folds to two characters, "i̇": the plain word finds it as a typo, still spanning "İ".
    assert spans_text(index, "istanbul") == ["İstanbul"]
    assert spans_text(index, "i̇stanbul timeouts") == ["İstanbul", "timeouts"]


def test_adjacent_and_overlapping_spans_merge() -> None:
    index = build(mem("d", "GatewayConfig loader"))
    assert index.search("config gate gateway").hits[0].title_spans == ((0, 13),)


# Updates


def test_updated_and_removed_change_the_index_like_a_rebuild() -> None:
    first = mem("a", "Gateway notes")
    others = [mem("b", "Billing export", topics=("gateway",)), mem("c", "Gateway retries")]
    index = build(first, *others)
    renamed = mem("a", "Kafka consumer lag", importance="high")
    index.updated(renamed)
    index.updated(mem("d", "New gateway memory"))
    index.removed(others[1].path)
    index.removed("not/indexed.md")
    fresh = build(renamed, others[0], mem("d", "New gateway memory"))
    for query in ("gateway", "kafka", "retries", "", "importance:high", "gate -billing"):
        assert index.search(query) == fresh.search(query), query
    assert stems(index, "gateway") == ["d", "b"]
    assert len(index) == 3


# From files on disk, and the CLI


def test_search_a_scanned_tree(tree) -> None:
    store = tree(
        {
            f"{ST}/2026-06-01_gateway_config.md": memory_text(
                date="2026-06-01", topics="[ci]", importance="high"
            ).replace("# A memory", "# Gateway config loader"),
            f"{LT}/routing/gateway.md": memory_text(date="2025-01-01", topics="[routing]"),
        }
    )
    index = SearchIndex.build(store.tree.memories, TODAY)
    assert [h.path for h in index.search("gateway").hits] == [
        f"{ST}/2026-06-01_gateway_config.md",
        f"{LT}/routing/gateway.md",
    ]
    assert [h.path for h in index.search("routing age:>1y").hits] == [f"{LT}/routing/gateway.md"]


def test_cli_prints_a_line_per_hit_then_the_count(demo_root, capsys) -> None:
    assert main(["search", "--tree", str(demo_root), "gateway", "config", "--limit", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    # The demo's project notes mention them too: listed after the memories, marked as files.
    lines = out[: out.index(OTHER_FILES)] if OTHER_FILES in out else out
    assert len(lines) == 3
    score, kind, date, rest = lines[0].split(None, 3)
    assert (score, kind) == ("95.0", "short-term")
    assert dt.date.fromisoformat(date) < TODAY
    assert rest.startswith("Gateway Config Loader: ")
    assert rest.endswith("_gateway_config_loader.md)")
    assert lines[-1].startswith("2 of ")
    assert all("; not a memory: " in line for line in out[len(lines) + 1 : -1])


def test_cli_json_and_negation_after_double_dash(demo_root, capsys) -> None:
    assert main(["search", "--tree", str(demo_root), "--json", "--", "critical", "-kind:long"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["query"] == "critical -kind:long"
    assert payload["total"] == len(payload["hits"]) > 0
    assert {h["kind"] for h in payload["hits"]} == {"short-term"}
    assert set(payload["hits"][0]) == {
        "path",
        "score",
        "kind",
        "date",
        "title",
        "title_spans",
        "name",
    }


def test_cli_bad_query_prints_the_message_and_exits_1(demo_root, capsys) -> None:
    assert main(["search", "--tree", str(demo_root), "age:abc"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("samantha-tui: 'age:abc': age takes a number of days")


# Typos: one edit in words of four letters or more


def _one_edit(word: str, position: int, letter: str, how: int) -> str:
    """word with one edit at position: 0 changes a letter, 1 inserts one, 2 deletes one, 3 swaps
    two neighbours."""
    i = position % len(word)
    if how == 0:
        return word[:i] + letter + word[i + 1 :]
    if how == 1:
        return word[:i] + letter + word[i:]
    if how == 2:
        return word[:i] + word[i + 1 :]
    i = min(i, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


_LETTERS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=10)


@settings(max_examples=examples(150), deadline=None)
@given(
    _LETTERS,
    st.integers(min_value=0, max_value=20),
    st.sampled_from("abcdefghijklmnopqrstuvwxyz"),
    st.integers(min_value=0, max_value=3),
)
def test_a_word_with_one_edit_finds_a_vocabulary_word_of_four_letters_or_more(
    word: str, position: int, letter: str, how: int
) -> None:
    typed = _one_edit(word, position, letter, how)
    assume(len(typed) >= 4)  # shorter words get no tolerance (the next test)
    index = build(mem("target", f"Notes on {word}"), mem("other", "Unrelated"))
    assert "target" in stems(index, typed)


@settings(max_examples=examples(100), deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=3), _LETTERS)
def test_words_of_three_letters_or_fewer_never_match_by_a_typo(typed: str, word: str) -> None:
    # Matched only literally: a word's start, or (three letters) inside a word.
    index = build(mem("target", f"Notes on {word}"))
    found = "target" in stems(index, typed)
    words = ("notes", "on", word, "target")  # the title, and the file name
    literal = any(w.startswith(typed) or (len(typed) == 3 and typed in w) for w in words)
    assert found == literal


def test_exact_and_prefix_matches_rank_above_typos() -> None:
    index = build(
        mem("typo-critical", "Retyr budgets", critical=True, importance="high"),
        mem("typo", "Rety notes"),
        mem("prefix", "Retryable calls", importance="low"),
        mem("exact", "Retry budgets", importance="low", days_old=400),
    )
    assert stems(index, "retry") == ["exact", "prefix", "typo-critical", "typo"]
    scores = {hit.path.rsplit("/", 1)[1]: hit.score for hit in index.search("retry").hits}
    assert scores["prefix.md"] > scores["typo-critical.md"] == scores["typo.md"]


def test_a_split_search_counts_every_scope_and_ranks_only_those_asked(facets: SearchIndex) -> None:
    split = facets.search_split(
        "-kind:proc", rank=[Kind.LONG_TERM], limit=5, among={"x.md", f"{ST}/st-low-old.md"}
    )
    assert split.totals[Kind.SHORT_TERM] == 2 and split.totals[Kind.PROCEDURAL] == 0
    assert split.totals["all"] == 5 and split.totals["critical"] == 1
    assert set(split.ranked) == {Kind.LONG_TERM}
    assert split.ranked[Kind.LONG_TERM] == facets.search("-kind:proc kind:long", 5)
    assert split.matching == {f"{ST}/st-low-old.md"}
    assert facets.search_split("age:abc").error is not None

"""The query language: words, phrases, filters, negation, and clear messages for bad queries."""

from __future__ import annotations

import pytest

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.query import Filter, Query, QueryError, Term, parse


def test_words_are_casefolded_terms_in_order() -> None:
    assert parse("Gateway  CONFIG") == Query((Term("gateway"), Term("config")))
    assert parse("gateway config").text == "gateway config"


def test_empty_and_blank_queries_mean_everything() -> None:
    assert parse("") == Query()
    assert parse("   ") == Query()


def test_quotes_make_a_phrase_and_a_colon_inside_is_text() -> None:
    query = parse('"Config  Loader" "a:b" -"rate limit"')
    assert query.terms == (
        Term("config loader", phrase=True),
        Term("a:b", phrase=True),
        Term("rate limit", phrase=True, negated=True),
    )
    assert query.wanted == query.terms[:2]
    assert query.excluded == query.terms[2:]
    assert query.filters == ()


def test_minus_negates_a_word_and_a_lone_minus_is_ignored() -> None:
    assert parse("gateway -retries -") == Query((Term("gateway"), Term("retries", negated=True)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("importance:high", Filter("importance", "high")),
        ("importance:HIGH", Filter("importance", "high")),
        ("type:Decision", Filter("type", "decision")),
        ("topic:ci", Filter("topic", "ci")),
        ("tag:ci", Filter("topic", "ci")),
        ("project:Atlas", Filter("project", "atlas")),
        ('project:"big move"', Filter("project", "big move")),
        ("kind:short", Filter("kind", Kind.SHORT_TERM)),
        ("kind:long", Filter("kind", Kind.LONG_TERM)),
        ("kind:task", Filter("kind", Kind.CURRENT_TASKS)),
        ("kind:work", Filter("kind", Kind.WORK_EXPERIENCE)),
        ("kind:proc", Filter("kind", Kind.PROCEDURAL)),
        ("kind:work-experience", Filter("kind", Kind.WORK_EXPERIENCE)),
        ("kind:procedural-memory", Filter("kind", Kind.PROCEDURAL)),
        ("critical", Filter("critical", True)),
        ("CRITICAL", Filter("critical", True)),
        ("critical:false", Filter("critical", False)),
        ("-critical", Filter("critical", True, negated=True)),
        ("refs:>=5", Filter("refs", 5, ">=")),
        ("refs:<2", Filter("refs", 2, "<")),
        ("refs:=3", Filter("refs", 3)),
        ("refs:3", Filter("refs", 3)),
        ("age:<30d", Filter("age", 30, "<")),
        ("age:>=90", Filter("age", 90, ">=")),
        ("age:<2w", Filter("age", 14, "<")),
        ("age:>3m", Filter("age", 90, ">")),
        ("age:<=1y", Filter("age", 365, "<=")),
        ("date:2026", Filter("date", "2026")),
        ("date:2026-01", Filter("date", "2026-01")),
        ("date:2026-1", Filter("date", "2026-01")),
        ("date:2026-01-28", Filter("date", "2026-01-28")),
        ("date:>=2026-01", Filter("date", "2026-01", ">=")),
        ("-type:decision", Filter("type", "decision", negated=True)),
    ],
)
def test_each_filter_parses(text: str, expected: Filter) -> None:
    assert parse(text) == Query(filters=(expected,))


def test_words_and_filters_mix_in_any_order() -> None:
    query = parse("gateway importance:high config -topic:ci")
    assert query.terms == (Term("gateway"), Term("config"))
    assert query.filters == (
        Filter("importance", "high"),
        Filter("topic", "ci", negated=True),
    )


def test_a_quoted_critical_is_a_phrase_not_the_filter() -> None:
    assert parse('"critical"') == Query((Term("critical", phrase=True),))


def test_a_colon_without_a_field_name_is_a_word() -> None:
    assert parse("12:30 :x").terms == (Term("12:30"), Term(":x"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "foo:bar",
            "unknown field 'foo' in 'foo:bar': use one of importance, type, topic (or tag), "
            'project, kind, critical, refs, age, date (or put "foo:bar" in quotes to search '
            "for the text)",
        ),
        (
            "refs:>=x",
            "'refs:>=x': refs takes a whole number, optionally after >, >=, <, <= or =, "
            "like refs:>=5",
        ),
        (
            "age:abc",
            "'age:abc': age takes a number of days, or weeks, months (30 days) or years with "
            "w, m or y, optionally after >, >=, <, <= or =, like age:<30d or age:>=3m",
        ),
        (
            "date:2026-13",
            "'date:2026-13': 13 is not a month (01-12), like date:2026, date:2026-01 or "
            "date:2026-01-28 (optionally after >, >=, <, <=)",
        ),
        ('gateway "config', "unbalanced quote in '\"config': add the closing \""),
        ('project:"atlas', "unbalanced quote in '\"atlas': add the closing \""),
    ],
)
def test_bad_queries_say_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("kind:memo", "kind is short, long, task, work or proc"),
        ("critical:maybe", "critical is true or false"),
        ("age:5x", "age takes a number of days"),
        ("age:<", "age takes a number of days"),
        ("refs:>=-1", "refs takes a whole number"),
        ("date:2026-02-30", "2026-02-30 is not a day"),
        ("date:26-01", "expected a year, month or day"),
        ("type:", "'type:' needs a value after the colon, like type:decision"),
        ("-tag:", "'tag:' needs a value after the colon, like topic:ci"),
    ],
)
def test_bad_values_name_the_field_and_an_example(text: str, fragment: str) -> None:
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert fragment in str(caught.value)

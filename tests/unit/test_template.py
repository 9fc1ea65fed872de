"""New memories from the template: file names in the real tool's convention, frontmatter, body."""

from __future__ import annotations

import datetime as dt

import pytest

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.reading import frontmatter
from samantha_tui.core.writing import template
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.template import MAX_NAME, name_from, new_memory

from ..conftest import LT, ST, TASKS, TODAY

WE = ".ai/work-experience/.ai"
PROC = ".ai/procedural-memory/.ai"
TOPICS = {"topics": ["testing", "ci"]}


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("API authentication research", "api_authentication_research"),
        ("  Use   modular config  ", "use_modular_config"),
        ("Decision: use Redis (not Envoy)!", "decision_use_redis_not_envoy"),
        ("Don't trust the cache", "dont_trust_the_cache"),
        ("Don’t trust it", "dont_trust_it"),
        ("Café déjà vu", "cafe_deja_vu"),
        ("snake_case and kebab-case", "snake_case_and_kebab_case"),
        ("[bold]oops[/]", "bold_oops"),
        ("Python 3.11 upgrade", "python_3_11_upgrade"),
        ("日本語 メモ", "日本語_メモ"),
    ],
)
def test_names_are_lower_case_words_joined(title: str, name: str) -> None:
    assert name_from(title, "_") == name


def test_names_are_cut_at_a_word_within_the_limit() -> None:
    title = "one two three four five six seven eight nine ten eleven"
    name = name_from(title, "_")
    assert name == "one_two_three_four_five_six_seven_eight"
    assert len(name) <= MAX_NAME
    assert name_from("a" * 38 + " b", "_") == "a" * 38 + "_b"
    assert name_from("a" * 39 + " b", "_") == "a" * 39
    assert name_from("x" * 60, "_") == "x" * MAX_NAME
    assert name_from("Api Gateway Refactor", "-") == "api-gateway-refactor"


def test_short_term_memory() -> None:
    new = new_memory(
        Kind.SHORT_TERM,
        "Rate limit: sliding window",
        {**TOPICS, "importance": "high", "critical": False, "updated": None},
        TODAY,
    )
    assert new.rel == f"{ST}/2026-06-15_rate_limit_sliding_window.md"
    assert dict(new.mapping) == {"date": TODAY, "topics": ["testing", "ci"], "importance": "high"}
    assert new.body == (
        "\n# Rate limit: sliding window\n"
        "\n## Context\n\n## Key points\n\n## Details\n\n## Follow-up\n"
    )
    text = frontmatter.render_new(new.mapping, new.body)
    assert text.startswith("---\ndate: 2026-06-15\ntopics: [testing, ci]\nimportance: high\n---\n")


def test_the_date_in_the_name_is_the_memory_date() -> None:
    day = dt.date(2026, 6, 1)
    new = new_memory(Kind.LONG_TERM, "Design lessons", {**TOPICS, "date": day}, TODAY)
    assert new.rel == f"{LT}/2026-06-01_design_lessons.md"
    assert new.mapping["date"] == day
    assert "## Summary" in new.body


def test_fields_are_in_form_order_with_critical_only_when_true() -> None:
    values = {
        "critical": True,
        "reference_count": 0,
        "project": "gateway",
        "type": "decision",
        **TOPICS,
        "updated": TODAY,
    }
    new = new_memory(Kind.SHORT_TERM, "x", values, TODAY)
    assert list(new.mapping) == [
        "date",
        "updated",
        "topics",
        "type",
        "project",
        "reference_count",
        "critical",
    ]


def test_a_task_is_a_project_folder_with_status_active() -> None:
    new = new_memory(Kind.CURRENT_TASKS, "Billing Export", TOPICS, TODAY)
    assert new.rel == f"{TASKS}/billing-export/status.md"
    assert new.mapping["status"] == "active"
    assert new.mapping["project"] == "billing-export"
    assert new.body.startswith("\n# Billing Export\n")
    named = new_memory(Kind.CURRENT_TASKS, "Phase two", {**TOPICS, "project": "Mobile Sync"}, TODAY)
    assert named.rel == f"{TASKS}/mobile-sync/status.md"
    assert named.mapping["project"] == "mobile-sync"


def test_a_person_chosen_status_wins_over_the_default() -> None:
    new = new_memory(Kind.CURRENT_TASKS, "x", {**TOPICS, "status": "blocked"}, TODAY)
    assert new.mapping["status"] == "blocked"


def test_work_experience_is_completed_today() -> None:
    new = new_memory(Kind.WORK_EXPERIENCE, "Mobile sync", TOPICS, TODAY)
    assert new.rel == f"{WE}/mobile-sync/status.md"
    assert new.mapping["status"] == "completed"
    assert new.mapping["completed"] == TODAY
    assert "## Lessons learned" in new.body


def test_a_runbook_is_named_by_its_domain_with_empty_triggers() -> None:
    new = new_memory(Kind.PROCEDURAL, "Python testing", TOPICS, TODAY)
    assert new.rel == f"{PROC}/python-testing.md"
    assert new.mapping["domain"] == "python-testing"
    assert new.mapping["type"] == "runbook"
    assert new.mapping["confidence"] == "low"
    assert new.mapping["triggers"] == {
        "positive": {
            "repo_signals": [],
            "path_signals": [],
            "keyword_signals": [],
            "domain_signals": [],
        },
        "negative": [],
    }
    text = frontmatter.render_new(new.mapping, new.body)
    assert "triggers:\n  positive:\n    repo_signals: []\n" in text
    chosen = new_memory(Kind.PROCEDURAL, "How we test", {**TOPICS, "domain": "PyTest"}, TODAY)
    assert chosen.rel == f"{PROC}/pytest.md"
    assert chosen.mapping["domain"] == "pytest"


def test_each_new_memory_reads_back_clean(tree) -> None:
    store = tree({})
    for kind in Kind:
        new = new_memory(kind, f"A {kind.label} memory", TOPICS, TODAY)
        memory = store.create(new.rel, new.mapping, new.body)
        assert memory.problems == (), kind
        assert memory.title == f"A {kind.label} memory"


@pytest.mark.parametrize(
    ("kind", "title", "values", "message"),
    [
        (Kind.SHORT_TERM, "   ", TOPICS, "give the memory a title"),
        (Kind.SHORT_TERM, "!!! ???", TOPICS, "the title '!!! ???' gives an empty file name"),
        (Kind.CURRENT_TASKS, "x", {**TOPICS, "project": "//"}, "the project name '//' gives"),
        (Kind.PROCEDURAL, "—", TOPICS, "the domain '—' gives an empty file name"),
        (Kind.SHORT_TERM, "x", {}, "add at least one topic"),
        (Kind.SHORT_TERM, "x", {"topics": []}, "add at least one topic"),
        (Kind.SHORT_TERM, "x", {**TOPICS, "importance": "urgent"}, "`importance` is 'urgent'"),
    ],
)
def test_refusals(kind: Kind, title: str, values: dict, message: str) -> None:
    with pytest.raises(StoreError) as caught:
        new_memory(kind, title, values, TODAY)
    assert message in str(caught.value)


def test_an_existing_file_is_named_in_the_refusal() -> None:
    taken = {f"{ST}/2026-06-15_same_title.md", f"{TASKS}/alpha/status.md"}
    with pytest.raises(StoreError, match=r"2026-06-15_same_title\.md already exists"):
        new_memory(Kind.SHORT_TERM, "Same title", TOPICS, TODAY, existing=taken)
    with pytest.raises(StoreError, match=r"alpha/status\.md already exists; choose another proj"):
        new_memory(Kind.CURRENT_TASKS, "Alpha", TOPICS, TODAY, existing=taken)
    other_day = new_memory(
        Kind.SHORT_TERM, "Same title", {**TOPICS, "date": dt.date(2026, 6, 14)}, TODAY, taken
    )
    assert other_day.rel.endswith("2026-06-14_same_title.md")


def test_defaults_per_kind() -> None:
    assert template.defaults(Kind.SHORT_TERM, TODAY) == {}
    assert template.defaults(Kind.CURRENT_TASKS, TODAY) == {"status": "active"}
    assert template.defaults(Kind.PROCEDURAL, TODAY) == {"type": "runbook", "confidence": "low"}

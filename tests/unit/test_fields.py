"""The form's model: fields per kind, parsing typed text, minimal changes, the vocabulary."""

from __future__ import annotations

import datetime as dt

import pytest

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.reading import fields
from samantha_tui.core.reading.fields import Control, FieldError, Vocabulary

from ..conftest import LT, ST, TASKS, memory_text

WE = ".ai/work-experience/.ai"
PROC = ".ai/procedural-memory/.ai"
SPEC = fields.SPECS


def keys(kind: Kind, mapping: dict | None = None) -> list[str]:
    return [spec.key for spec in fields.fields_for(kind, mapping or {})]


# --- which fields ---------------------------------------------------------------------------------

COMMON = ["date", "updated", "topics", "importance", "type", "project", "reference_count"]


def test_each_kind_shows_its_fields_in_order() -> None:
    assert keys(Kind.SHORT_TERM) == [*COMMON, "critical"]
    assert keys(Kind.LONG_TERM) == [*COMMON, "critical"]
    assert keys(Kind.CURRENT_TASKS) == [*COMMON, "critical", "status"]
    assert keys(Kind.WORK_EXPERIENCE) == [*COMMON, "critical", "status", "completed"]
    assert keys(Kind.PROCEDURAL) == [*COMMON, "critical", "domain", "confidence"]


def test_a_known_key_the_file_has_always_shows() -> None:
    shown = keys(Kind.SHORT_TERM, {"date": dt.date(2026, 1, 1), "status": "active", "domain": "x"})
    assert shown == [*COMMON, "critical", "status", "domain"]


def test_other_keys_are_listed_in_file_order_and_shown_as_yaml() -> None:
    mapping = {"reviewed_by": "dana", "date": dt.date(2026, 1, 1), "triggers": {"negative": []}}
    specs = fields.fields_for(Kind.PROCEDURAL, mapping)
    assert fields.other_keys(mapping, specs) == ("reviewed_by", "triggers")
    assert fields.readonly_text("reviewed_by", "dana") == "reviewed_by: dana\n"
    nested = {"positive": {"repo_signals": ["a"]}, "negative": []}
    assert fields.readonly_text("triggers", nested) == (
        "triggers:\n  positive:\n    repo_signals: [a]\n  negative: []\n"
    )
    assert fields.readonly_text("odd", {1, 2}) == "odd: {1, 2}\n"


# --- the text a control starts with ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "raw"),
    [
        ("date", dt.date(2026, 2, 3), "2026-02-03"),
        ("date", dt.datetime(2026, 2, 3, 10, 30), "2026-02-03 10:30:00"),
        ("date", "2026-02-03", "2026-02-03"),
        ("updated", None, ""),
        ("topics", ["a", "b c"], "a, b c"),
        ("topics", "solo", "solo"),
        ("reference_count", 7, "7"),
        ("reference_count", True, "true"),
        ("critical", True, "true"),
        ("critical", "yes please", "false"),
        ("critical", None, "false"),
        ("type", "odd-type", "odd-type"),
    ],
)
def test_raw_value(key: str, value: object, raw: str) -> None:
    assert fields.raw_value(SPEC[key], value) == raw


# --- parsing --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("2026-02-30", "2026-02-30 is not a date"),
        ("2026-13-01", "2026-13-01 is not a date"),
        ("2025-02-29", "2025-02-29 is not a date"),
        ("2026-2-3", "2026-2-3 is not a date as YYYY-MM-DD"),
        ("15/06/2026", "15/06/2026 is not a date as YYYY-MM-DD"),
        ("2026-06-15x", "2026-06-15x is not a date as YYYY-MM-DD"),
        ("", "`date` is required, e.g. YYYY-MM-DD"),
        ("   ", "`date` is required, e.g. YYYY-MM-DD"),
    ],
)
def test_bad_dates_say_why(raw: str, message: str) -> None:
    with pytest.raises(FieldError) as caught:
        fields.parse_field(SPEC["date"], raw)
    assert str(caught.value) == message


def test_good_dates_and_blank_optional_dates() -> None:
    assert fields.parse_field(SPEC["date"], " 2024-02-29 ") == dt.date(2024, 2, 29)
    assert fields.parse_field(SPEC["date"], "0001-01-01") == dt.date(1, 1, 1)
    assert fields.parse_field(SPEC["updated"], "") is None
    assert fields.parse_field(SPEC["completed"], "2026-06-15") == dt.date(2026, 6, 15)


@pytest.mark.parametrize(
    ("raw", "value"), [("0", 0), ("5", 5), (" 12 ", 12), ("007", 7), ("", None)]
)
def test_counts(raw: str, value: int | None) -> None:
    assert fields.parse_field(SPEC["reference_count"], raw) == value


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("-1", "-1 is below 0; the count is 0 or more"),
        ("1.5", "1.5 is not a whole number (0 or more)"),
        ("five", "five is not a whole number (0 or more)"),
        ("+3", "+3 is not a whole number (0 or more)"),
        ("٣", "٣ is not a whole number (0 or more)"),
    ],
)
def test_bad_counts(raw: str, message: str) -> None:
    with pytest.raises(FieldError) as caught:
        fields.parse_field(SPEC["reference_count"], raw)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("raw", "tags"),
    [
        ("testing", ["testing"]),
        (" testing ,ci,  api design ", ["testing", "ci", "api design"]),
        ("testing, ci,", ["testing", "ci"]),
        ("testing, ci, ", ["testing", "ci"]),
    ],
)
def test_topics(raw: str, tags: list[str]) -> None:
    assert fields.parse_field(SPEC["topics"], raw) == tags


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "`topics` is required, e.g. testing, ci"),
        (",", "add at least one topic, e.g. testing, ci"),
        ("a,,b", "tag 2 is empty; remove the extra comma"),
        (", a", "tag 1 is empty; remove the extra comma"),
        ("ci, testing, CI", "CI is listed twice"),
    ],
)
def test_bad_topics(raw: str, message: str) -> None:
    with pytest.raises(FieldError) as caught:
        fields.parse_field(SPEC["topics"], raw)
    assert str(caught.value) == message


def test_choices_and_names() -> None:
    assert fields.parse_field(SPEC["importance"], "high") == "high"
    assert fields.parse_field(SPEC["importance"], "") is None
    with pytest.raises(FieldError, match="expected low, medium or high"):
        fields.parse_field(SPEC["importance"], "urgent")
    with pytest.raises(FieldError, match="expected active, blocked or completed"):
        fields.parse_field(SPEC["status"], "paused")
    assert fields.parse_field(SPEC["type"], "my-own-type") == "my-own-type"
    assert fields.parse_field(SPEC["project"], " gateway ") == "gateway"
    assert fields.parse_field(SPEC["domain"], "") is None
    assert fields.parse_field(SPEC["critical"], "true") is True
    assert fields.parse_field(SPEC["critical"], "false") is False


def test_parse_form_collects_values_and_errors() -> None:
    specs = fields.fields_for(Kind.SHORT_TERM, {})
    raw = {"date": "2026-02-30", "topics": "a, b", "reference_count": "-2", "critical": "true"}
    values, errors = fields.parse_form(specs, raw)
    assert errors == {
        "date": "2026-02-30 is not a date",
        "reference_count": "-2 is below 0; the count is 0 or more",
    }
    assert values["topics"] == ["a", "b"] and values["critical"] is True
    assert values["importance"] is None and "date" not in values


# --- what a save changes --------------------------------------------------------------------------

ORIGINAL = {
    "date": dt.date(2026, 1, 28),
    "topics": ["testing", "ci"],
    "importance": "high",
    "type": "decision",
    "reference_count": 5,
    "critical": True,
}


def values_for(mapping: dict, **edits: str) -> dict:
    specs = fields.fields_for(Kind.SHORT_TERM, mapping)
    raw = {spec.key: fields.raw_value(spec, mapping.get(spec.key)) for spec in specs}
    raw.update(edits)
    values, errors = fields.parse_form(specs, raw)
    assert errors == {}
    return values


def test_untouched_form_changes_nothing() -> None:
    assert fields.changes(ORIGINAL, values_for(ORIGINAL)) == ({}, ())


def test_only_the_changed_field_is_set() -> None:
    values = values_for(ORIGINAL, importance="low")
    assert fields.changes(ORIGINAL, values) == ({"importance": "low"}, ())


def test_blank_optional_field_that_had_a_value_is_unset() -> None:
    values = values_for(ORIGINAL, importance="", reference_count=" ")
    assert fields.changes(ORIGINAL, values) == ({}, ("importance", "reference_count"))


def test_blank_field_that_was_absent_or_empty_stays_as_it_is() -> None:
    original = {**ORIGINAL, "updated": None}
    assert fields.changes(original, values_for(original)) == ({}, ())


def test_critical_off_removes_the_key_and_on_sets_true() -> None:
    assert fields.changes(ORIGINAL, values_for(ORIGINAL, critical="false")) == ({}, ("critical",))
    plain = {k: v for k, v in ORIGINAL.items() if k != "critical"}
    assert fields.changes(plain, values_for(plain, critical="true")) == ({"critical": True}, ())
    assert fields.changes(plain, values_for(plain)) == ({}, ())


def test_critical_false_in_the_file_is_left_alone_unless_switched_on() -> None:
    original = {**ORIGINAL, "critical": False}
    assert fields.changes(original, values_for(original)) == ({}, ())
    assert fields.changes(original, values_for(original, critical="true")) == (
        {"critical": True},
        (),
    )


def test_same_topics_are_not_rewritten_but_new_order_is() -> None:
    assert fields.changes(ORIGINAL, values_for(ORIGINAL, topics="testing,ci")) == ({}, ())
    assert fields.changes(ORIGINAL, values_for(ORIGINAL, topics="ci, testing")) == (
        {"topics": ["ci", "testing"]},
        (),
    )


def test_values_the_person_did_not_touch_keep_their_yaml_type() -> None:
    original = {"date": "2026-01-28", "topics": [1, 2], "reference_count": "5", "type": 7}
    assert fields.changes(original, values_for(original)) == ({}, ())


def test_new_keys_and_dates() -> None:
    values = values_for(ORIGINAL, updated="2026-06-15", date="2026-01-29")
    set_values, unset = fields.changes(ORIGINAL, values)
    assert set_values == {"date": dt.date(2026, 1, 29), "updated": dt.date(2026, 6, 15)}
    assert unset == ()


def test_zero_references_on_a_file_without_the_key_is_written() -> None:
    plain = {"date": dt.date(2026, 1, 1), "topics": ["a"]}
    assert fields.changes(plain, values_for(plain, reference_count="0")) == (
        {"reference_count": 0},
        (),
    )


# --- choices and vocabulary -----------------------------------------------------------------------


def test_choices_keep_an_unknown_current_value() -> None:
    vocabulary = Vocabulary(projects=("alpha",))
    assert fields.choices(SPEC["type"], vocabulary, "postmortem")[-1] == "postmortem"
    assert fields.choices(SPEC["type"], vocabulary, "decision") == vocabulary.types
    assert fields.choices(SPEC["importance"], vocabulary) == ("low", "medium", "high")
    assert fields.choices(SPEC["project"], vocabulary, "beta") == ("alpha", "beta")
    assert fields.choices(SPEC["status"], vocabulary, "") == ("active", "blocked", "completed")


def test_vocabulary_from_a_tree(tree) -> None:
    store = tree(
        {
            f"{ST}/2026-06-01_a.md": memory_text(
                date="2026-06-01", topics="[ci, testing]", project="gateway", type="postmortem"
            ),
            f"{ST}/2026-06-02_b.md": memory_text(date="2026-06-02", topics="[testing, api]"),
            f"{LT}/2026-06-03_c.md": memory_text(date="2026-06-03", topics="[testing, zeta, ci]"),
            f"{TASKS}/billing-export/status.md": memory_text(date="2026-06-01", topics="[api]"),
            f"{TASKS}/billing-export/notes.md": "notes\n",
            f"{WE}/mobile-sync/status.md": memory_text(
                date="2026-01-01", topics="[mobile]", project="mobile-sync-v1"
            ),
            f"{PROC}/python-testing.md": memory_text(date="2026-01-01", topics="[testing]"),
        }
    )
    vocabulary = fields.build_vocabulary(store.tree)
    assert vocabulary.topics == ("testing", "api", "ci", "mobile", "zeta")
    assert vocabulary.projects == ("billing-export", "gateway", "mobile-sync", "mobile-sync-v1")
    assert vocabulary.types[: len(fields.schema.KNOWN_TYPES)] == fields.schema.KNOWN_TYPES
    assert vocabulary.types[-1] == "postmortem"
    assert f"{ST}/2026-06-01_a.md" in vocabulary.taken
    assert f"{TASKS}/billing-export/status.md" in vocabulary.taken


@pytest.mark.parametrize(
    ("text", "completed"),
    [
        ("te", "testing"),
        ("TE", "testing"),
        ("ci, te", "ci, testing"),
        ("ci,te", "ci,testing"),
        ("testing, ", None),
        ("", None),
        ("testing", "testing-tools"),
        ("testing, test", "testing, testing-tools"),
        ("ci, a", "ci, api"),
        ("x", None),
        ("api, a", "api, automation"),
    ],
)
def test_completion_of_the_last_tag(text: str, completed: str | None) -> None:
    vocabulary = Vocabulary(topics=("testing", "api", "automation", "ci", "testing-tools"))
    assert vocabulary.complete_tags(text) == completed


def test_controls_cover_every_field() -> None:
    assert {spec.control for spec in fields.FIELDS} == set(Control)
    assert [spec.key for spec in fields.FIELDS if spec.required] == ["date", "topics"]

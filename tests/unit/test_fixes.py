"""One-key fixes: a plan of line before -> after for mechanical problems, nothing otherwise."""

from __future__ import annotations

import datetime as dt

import pytest

from samantha_tui.core.writing import fixes
from samantha_tui.core.writing.atomic import ConflictError
from samantha_tui.core.writing.curator import Curator
from tests.conftest import ST, TASKS

REL = f"{ST}/2026-06-01_one.md"


def open_tree(tree, text: str | bytes, rel: str = REL) -> Curator:
    cur = Curator(tree({rel: text}))
    cur.load()
    cur.reindex()
    return cur


def fix_of(cur: Curator, rel: str, words: str) -> fixes.Fix | fixes.NoFix:
    memory = cur.get(rel)
    problem = next(p for p in memory.problems if words in p.message)
    return fixes.fix_for(memory, problem, cur.read_bytes(rel))


def test_a_quoted_date_is_written_bare_changing_that_line_only(tree) -> None:
    text = '---\r\ndate: "2026-06-01"\r\ntopics: [ci]\r\n---\r\n\r\n# One\r\n'
    cur = open_tree(tree, text)
    fix = fix_of(cur, REL, "quoted")
    assert isinstance(fix, fixes.Fix)
    assert fix.before == ('date: "2026-06-01"',)
    assert fix.after == ("date: 2026-06-01",)
    assert fix.line == 2
    assert "line 2, now:" in fix.lines() and "  date: 2026-06-01" in fix.lines()
    cur.apply(fix.plan())
    written = (cur.store.root / REL).read_bytes()
    assert written == text.replace('"2026-06-01"', "2026-06-01").encode()
    assert not cur.get(REL).problems
    cur.undo()
    assert (cur.store.root / REL).read_bytes() == text.encode()


@pytest.mark.parametrize(
    ("line", "words", "after"),
    [
        ("importance: Medium", "importance", "importance: medium"),
        ("importance: ' HIGH '", "importance", "importance: high"),
        ("reference_count: '7'", "reference_count", "reference_count: 7"),
        ("critical: 'true'", "critical", "critical: true"),
        ("updated: 2026-06-02 10:30:00", "updated", "updated: 2026-06-02"),
    ],
)
def test_mechanical_fixes(tree, line: str, words: str, after: str) -> None:
    text = f"---\ndate: 2026-06-01\ntopics: [ci]\n{line}\n---\nBody\n"
    cur = open_tree(tree, text)
    fix = fix_of(cur, REL, f"`{words}`")
    assert isinstance(fix, fixes.Fix), fix
    assert fix.before == (line,) and fix.after == (after,)
    cur.apply(fix.plan())
    assert (cur.store.root / REL).read_text() == text.replace(line, after)
    assert not cur.get(REL).problems


def test_topics_written_as_text_become_the_list_they_mean(tree) -> None:
    cur = open_tree(tree, "---\ndate: 2026-06-01\ntopics: ci, testing, CI\n---\n")
    fix = fix_of(cur, REL, "`topics`")
    assert isinstance(fix, fixes.Fix)
    assert fix.after == ("topics: [ci, testing]",)


def test_critical_false_as_text_removes_the_line(tree) -> None:
    cur = open_tree(tree, "---\ndate: 2026-06-01\ntopics: [ci]\ncritical: 'false'\n---\n")
    fix = fix_of(cur, REL, "`critical`")
    assert isinstance(fix, fixes.Fix) and fix.unset == ("critical",) and fix.after == ()
    assert "becomes: (the line is removed)" in fix.lines()


def test_a_missing_date_comes_from_the_file_name_and_says_so(tree) -> None:
    cur = open_tree(tree, "---\ntopics: [ci]\n---\n")
    fix = fix_of(cur, REL, "missing `date`")
    assert isinstance(fix, fixes.Fix)
    assert fix.values == {"date": dt.date(2026, 6, 1)} and fix.after == ("date: 2026-06-01",)
    assert "file name" in fix.note


def test_a_missing_status_of_a_task_is_active(tree) -> None:
    rel = f"{TASKS}/gateway/status.md"
    cur = open_tree(tree, "---\ndate: 2026-06-01\ntopics: [ci]\n---\n# Gateway\n", rel)
    fix = fix_of(cur, rel, "missing `status`")
    assert isinstance(fix, fixes.Fix) and fix.after == ("status: active",)


@pytest.mark.parametrize(
    ("text", "words", "field"),
    [
        ("---\ndate: 2026-06-01\n---\n", "missing `topics`", "topics"),
        (
            "---\ndate: 2026-06-01\ntopics: [ci]\nimportance: urgent\n---\n",
            "importance",
            "importance",
        ),
        ("---\ndate: 2026-06-03\ntopics: [ci]\n---\n", "file name says", "date"),
    ],
)
def test_problems_without_a_right_answer_have_no_fix_and_name_the_field(
    tree, text: str, words: str, field: str
) -> None:
    cur = open_tree(tree, text)
    found = fix_of(cur, REL, words)
    assert isinstance(found, fixes.NoFix)
    assert found.field == field
    assert "no automatic fix" in found.reason


def test_a_missing_date_without_a_dated_file_name_asks(tree) -> None:
    rel = f"{ST}/notes.md"
    cur = open_tree(tree, "---\ntopics: [ci]\n---\n", rel)
    found = fix_of(cur, rel, "missing `date`")
    assert isinstance(found, fixes.NoFix) and found.field == "date"


def test_a_file_changed_after_the_plan_was_shown_is_a_conflict(tree) -> None:
    text = '---\ndate: "2026-06-01"\ntopics: [ci]\n---\n'
    cur = open_tree(tree, text)
    fix = fix_of(cur, REL, "quoted")
    changed = text + "Someone else wrote this.\n"
    (cur.store.root / REL).write_text(changed)
    with pytest.raises(ConflictError):
        cur.apply(fix.plan())
    assert (cur.store.root / REL).read_text() == changed

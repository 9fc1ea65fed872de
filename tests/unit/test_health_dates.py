"""Dates in words that rot: found in prose, left alone in code, quotes, beside an absolute date
and in durations; the day meant is told from the memory's date when the words say it exactly."""

from __future__ import annotations

import datetime as dt

import pytest

from samantha_tui.core.views.relative_dates import meant_day, relative_dates

WRITTEN = dt.date(2026, 6, 10)

FOUND = {
    "We deployed yesterday.": "yesterday",
    "Demo Next Thursday with the team.": "Next Thursday",
    "We revisit in two weeks.": "in two weeks",
    "It broke 3 days ago.": "3 days ago",
    "Fixed THIS MORNING after the outage.": "THIS MORNING",
    "Plan it for next sprint.": "next sprint",
    "Shipped 2026-06-01. Next week we tidy up.": "Next week",
}


@pytest.mark.parametrize("line", FOUND)
def test_a_relative_date_in_prose_is_found(line: str) -> None:
    assert [found.phrase for found in relative_dates(f"# T\n\n{line}\n")] == [FOUND[line]]


LEFT = (
    "Run `deploy --today` to ship.",
    'The bot posts "see you tomorrow" at six.',
    "Shipped yesterday (2026-06-09) to staging.",
    "On 2026-06-03, last week, the cache broke.",
    "Session tokens expire in 7 days.",
    "Logs are kept for two weeks, then dropped.",
    "Backups are checked within 3 days of a release.",
)


@pytest.mark.parametrize("line", LEFT)
def test_code_quotes_dated_phrases_and_durations_are_left_alone(line: str) -> None:
    assert relative_dates(f"# T\n\n{line}\n") == []


def test_fenced_code_is_skipped_to_its_closing_fence_and_lines_are_counted() -> None:
    body = "# T\n\n```sh\necho tomorrow\n~~~\nstill code today\n```\nBack to prose today.\n"
    (found,) = relative_dates(body)
    assert (found.line, found.phrase) == (7, "today")


def test_the_day_meant_is_counted_from_the_memorys_date() -> None:
    assert meant_day("yesterday", WRITTEN) == dt.date(2026, 6, 9)
    assert meant_day("the day after tomorrow", WRITTEN) == dt.date(2026, 6, 12)
    assert meant_day("two days ago", WRITTEN) == dt.date(2026, 6, 8)
    assert meant_day("Today", WRITTEN) == WRITTEN
    assert meant_day("next Thursday", WRITTEN) is None  # which Thursday is the reader's guess
    assert meant_day("yesterday", None) is None
    (found,) = relative_dates("Merged 10 days ago.", WRITTEN)
    assert found.meant == dt.date(2026, 5, 31)

"""A memory's `date` is the day it was written: `set` refuses a day later than today, with the
words `check` uses for such a file (samantha-llm's validate_dates.sh flags it as an error), and
writes nothing. A date already in the file stays editable around: only a new future day is
refused."""

from __future__ import annotations

import datetime as dt

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics import schema
from samantha_tui.core.basics.errors import StoreError
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.writing.template import new_memory

from ..conftest import ST, TODAY

TOMORROW = TODAY + dt.timedelta(days=1)
TEXT = f"---\ndate: {TODAY}\ntopics: [a]\n---\n\n# Note\n"


def test_set_refuses_a_future_date_and_writes_nothing(tree, capsys) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    assert main(["set", str(path), f"date={TOMORROW}"]) == 1
    err = capsys.readouterr().err
    assert f"`date` {TOMORROW} {schema.FUTURE_DATE}" in err
    assert f"today is {TODAY}" in err and "nothing was written" in err
    assert path.read_text() == TEXT


def test_check_says_the_same_of_such_a_file(tree, capsys) -> None:
    store = tree({f"{ST}/n.md": TEXT.replace(str(TODAY), str(TOMORROW))})
    main(["check", str(store.root)])  # a warning there: the file exists, nothing can refuse it
    assert f"warning: `date` {TOMORROW} {schema.FUTURE_DATE}" in capsys.readouterr().out


@pytest.mark.parametrize("day", [TODAY, TODAY - dt.timedelta(days=400)])
def test_today_and_past_days_are_set(tree, day: dt.date) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    assert main(["set", str(path), f"date={day}", "--keep-updated"]) == 0
    assert f"date: {day}\n" in path.read_text()


def test_a_file_already_dated_ahead_can_still_be_edited(tree) -> None:
    ahead = TEXT.replace(str(TODAY), str(TOMORROW))
    store = tree({f"{ST}/n.md": ahead})
    path = store.root / ST / "n.md"
    assert main(["set", str(path), "importance=high", "--keep-updated"]) == 0
    assert path.read_text() == ahead.replace("---\n\n#", "importance: high\n---\n\n#")
    # Setting the day it already has changes nothing a reader sees: not refused either.
    assert main(["set", str(path), f"date={TOMORROW}", "--keep-updated"]) == 0


def test_other_date_keys_are_left_to_their_own_rules(tree) -> None:
    """`check` flags only `date` ahead of today; `updated` and `completed` are not refused."""
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    assert main(["set", str(path), f"updated={TOMORROW}"]) == 0


def test_a_new_memory_dated_ahead_is_refused() -> None:
    with pytest.raises(StoreError, match=schema.FUTURE_DATE):
        new_memory(Kind.SHORT_TERM, "Later", {"topics": ["a"], "date": TOMORROW}, TODAY)
    made = new_memory(Kind.SHORT_TERM, "Now", {"topics": ["a"], "date": TODAY}, TODAY)
    assert made.mapping["date"] == TODAY


@pytest.mark.parametrize("held", [f'"{TOMORROW}"', f"{TOMORROW} 10:30:00"])
def test_the_fix_that_writes_a_held_day_bare_is_not_refused(tree, held: str) -> None:
    """A quoted day or one with a time of day, written bare: the same day, so not refused."""
    store = tree({f"{ST}/n.md": TEXT.replace(str(TODAY), held)})
    path = store.root / ST / "n.md"
    assert main(["set", str(path), f"date={TOMORROW}", "--keep-updated"]) == 0
    assert f"date: {TOMORROW}\n" in path.read_text()

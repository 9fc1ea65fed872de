"""Messages a person reads name values as they are written in frontmatter, never as Python reprs."""

from __future__ import annotations

import datetime as dt
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from samantha_tui.core.basics import schema
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.basics.wording import described, written
from samantha_tui.core.reading import fields, frontmatter
from samantha_tui.core.reading.reader import memory_from_bytes

from ..tiers import examples

TODAY = dt.date(2026, 6, 15)
PYTHON = re.compile(
    r"datetime\.|PosixPath\(|WindowsPath\(|\(int\)|\(bool\)|\(float\)|\(date\)|\(datetime\)"
    r"|\('|\(\d+,|\bTrue\b|\bFalse\b|\bNone\b|\bdict\b|\btuple\b"
)
"""What a Python repr or type name looks like inside a message."""

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.dates(),
    st.datetimes(),
    st.text("abcxyz-_ 0123é:", max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text("abk", max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
RULED_KEYS = [*sorted(schema.RULES), "triggers"]


def assert_plain(message: str) -> None:
    assert not PYTHON.search(message), message


@settings(max_examples=examples(300), deadline=None)
@given(
    st.dictionaries(st.sampled_from(RULED_KEYS), values, max_size=4), st.sampled_from(list(Kind))
)
def test_field_checks_name_odd_values_as_written(mapping: dict, kind: Kind) -> None:
    for _key, message, _is_error in schema.check(mapping, kind):
        assert_plain(message)


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(sorted(schema.RULES)), values)
def test_value_errors_are_plain(key: str, value: object) -> None:
    message = schema.value_error(key, value)
    if message is not None:
        assert_plain(message)


ODD_FRONTMATTER = [
    "date: 2026-01-02 10:30:00\ntopics: [a]\n",
    "date: 2026-01-02\ntopics: [a]\nimportance: 2026-01-02\ncritical: yes\n",
    "date: 2026-01-02\ntopics: 5\nreference_count: -1\nstatus: true\n",
    "date: 2026-01-02\ntopics: [a]\nimportance: [high, low]\ntype: {a: 1}\n",
    "date: 2026-01-02\ntopics: [a]\nreference_count: 1.5\nproject: 2026-03-04\n",
    "2026-01-02: a date as a key\ntopics: [a]\n",
    "? [a, b]\n: a list as a key\n",
    "5: a number as a key\n",
    "triggers:\n  positive:\n    repo_signals: 2026-01-02\n  negative: {a: 1}\n",
]


def test_odd_frontmatter_is_reported_without_python() -> None:
    seen = []
    for kind in (Kind.SHORT_TERM, Kind.CURRENT_TASKS, Kind.PROCEDURAL):
        for block in ODD_FRONTMATTER:
            raw = f"---\n{block}---\n\n# T\n".encode()
            memory = memory_from_bytes("x.md", kind, raw, TODAY)
            for problem in memory.problems:
                assert_plain(problem.message)
                seen.append(problem.message)
    # The values themselves are named, as they are written in the file.
    assert any("`date` is the date and time 2026-01-02 10:30:00" in m for m in seen)
    assert any("`importance` is the date 2026-01-02" in m for m in seen)
    assert any("`importance` is the list [high, low]" in m for m in seen)
    assert any("frontmatter key '2026-01-02' is not text" in m for m in seen)


def test_frontmatter_of_one_value_names_it() -> None:
    parsed = frontmatter.parse("---\n2026-01-02\n---\nbody\n")
    assert parsed.mapping is None
    message = parsed.errors[0][1]
    assert "frontmatter is a single value (2026-01-02)" in message
    assert_plain(message)


def test_written_reads_like_frontmatter() -> None:
    assert written(dt.date(2026, 1, 2)) == "2026-01-02"
    assert written(dt.datetime(2026, 1, 2, 3, 4)) == "2026-01-02 03:04:00"
    assert written(["a", 1, True, None]) == "[a, 1, true, ]"
    assert written(("a", "b")) == "[a, b]"
    assert written({"a": [1, 2]}) == "{a: [1, 2]}"
    assert described(5) == "the number 5"
    assert described(False) == "false (true or false)"
    assert described([]) == "an empty list"


def test_a_value_no_writer_produces_is_shown_without_repr() -> None:
    assert fields.readonly_text("odd", {2, 1}) == "odd: {1, 2}\n"
    assert fields.readonly_text("when", dt.time(10, 30)) == "when: 10:30:00\n"

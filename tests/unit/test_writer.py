"""The minimal-diff writer: only the edited key's lines change, every other byte is kept."""

from __future__ import annotations

import datetime as dt
import difflib
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from samantha_tui.core.reading import frontmatter
from samantha_tui.core.reading.frontmatter import FrontmatterError, edit, parse, render_new

from ..tiers import examples

# --- generated frontmatter in the styles people and tools really write ---------------------------

LOWER = "abcdefghijklmnopqrstuvwxyz"
# [a-z][a-z0-9-]{0,10}, built from two draws: a regex strategy costs many times more to draw.
WORD = st.builds(
    str.__add__, st.sampled_from(LOWER), st.text(alphabet=LOWER + "0123456789-", max_size=10)
).filter(lambda w: w not in ("yes", "no", "on", "off", "y", "n", "true", "false", "null"))
UNICODE = st.text(
    alphabet=st.sampled_from(list("abcxyz éüñ日本語слово🙂:#,'\"[]{}")), min_size=1, max_size=20
)


def single_quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def double_quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


SCALAR = st.one_of(
    WORD,
    UNICODE.map(single_quoted),
    UNICODE.map(double_quoted),
    st.integers(0, 10**6).map(str),
    st.dates(dt.date(1990, 1, 1), dt.date(2100, 1, 1)).map(dt.date.isoformat),
    st.sampled_from(["true", "false", "yes", "no", "~", "3.5", "0012"]),
)


STYLE = st.sampled_from(
    ["scalar", "flow", "block", "block0", "nested", "empty", "comment", "literal"]
)
# `+` chomping would make a following blank separator part of the value: tested apart.
INDICATOR = st.sampled_from(["|", ">", "|-", ">-", "|2"])
LITERAL_LINES = st.lists(st.sampled_from(["line", "# not a comment", "", "x: y"]), max_size=3)
ITEMS = st.lists(st.one_of(WORD, UNICODE.map(single_quoted)), max_size=4)
INNER = st.lists(WORD, min_size=1, max_size=3, unique=True)
KEYS = st.lists(WORD.map(lambda w: "k" + w), min_size=0, max_size=7, unique=True)
NEWLINE = st.sampled_from(["\n", "\r\n"])
BOM = st.sampled_from(["", "\ufeff"])
BODY = st.text(alphabet=st.sampled_from(list("ab #-\n日[]/")), max_size=40)
CLOSING = st.sampled_from(["---", "..."])


def field_lines(draw, key: str) -> list[str]:
    """The lines of one field in a style drawn with `draw` (the strategies are made once: a
    strategy made inside a draw is checked anew every time)."""
    style = draw(STYLE)
    if style == "scalar":
        return [f"{key}: {draw(SCALAR)}"]
    if style == "comment":
        return [f"{key}: {draw(WORD)}  # {draw(WORD)}"]
    if style == "empty":
        return [f"{key}:"]
    if style == "literal":
        indicator = draw(INDICATOR)
        text = draw(LITERAL_LINES)
        content = ["first", *text, "last"]
        return [f"{key}: {indicator}"] + [f"  {line}" if line else "" for line in content]
    items = draw(ITEMS)
    if style == "flow":
        return [f"{key}: [{', '.join(items)}]"]
    if style in ("block", "block0"):
        indent = "  " if style == "block" else ""
        return [f"{key}:"] + [f"{indent}- {item}" for item in items or ["x"]]
    inner = draw(INNER)
    return [f"{key}:"] + [f"  {name}: [{draw(WORD)}]" for name in inner]


@st.composite
def documents(draw) -> tuple[str, list[str], dict[str, str]]:
    """(text, its keys, the exact text expected once each key is removed)."""
    keys = draw(KEYS)
    lines: list[tuple[str | None, str]] = []  # (owning key or None for comments/blanks, line)
    for key in keys:
        if draw(st.booleans()) and draw(st.booleans()):
            lines.append((None, f"# {draw(WORD)} note"))
        if draw(st.integers(0, 5)) == 0:
            lines.append((None, ""))
        lines.extend((key, line) for line in field_lines(draw, key))
    newline = draw(NEWLINE)
    bom = draw(BOM)
    body = draw(BODY)
    if newline == "\r\n":
        body = body.replace("\n", "\r\n")
    closing = draw(CLOSING)
    tail = (newline + body) if body or draw(st.booleans()) else ""

    def render(without: str | None = None) -> str:
        kept = "".join(line + newline for owner, line in lines if owner != without or not owner)
        return bom + "---" + newline + kept + closing + tail

    return render(), keys, {key: render(key) for key in keys}


PROPERTY = settings(
    max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
NEW_VALUE = st.one_of(
    WORD,
    UNICODE,
    st.integers(0, 999),
    st.booleans(),
    st.dates(),
    st.lists(st.one_of(WORD, UNICODE), max_size=3),
)


@PROPERTY
@given(documents(), NEW_VALUE)
def test_set_new_key_then_remove_gives_back_the_original_bytes(doc, value) -> None:
    text, _, _ = doc
    assert parse(text).mapping is not None, text
    added = edit(text, {"zz_new": value})
    assert edit(added, unset=["zz_new"]) == text


@PROPERTY
@given(documents(), st.data())
def test_removing_a_key_removes_exactly_its_lines(doc, data) -> None:
    text, keys, without = doc
    if not keys:
        return
    key = data.draw(st.sampled_from(keys))
    assert edit(text, unset=[key]) == without[key]


@PROPERTY
@given(documents(), NEW_VALUE)
@example(("---\n---\n---\n", [], {}), ":")  # a body of `---` after empty frontmatter
def test_setting_a_new_key_adds_exactly_one_line(doc, value) -> None:
    text, _, _ = doc
    before = frontmatter.split_lines(text)
    after = frontmatter.split_lines(edit(text, {"zz_new": value}))
    assert len(after) == len(before) + 1
    # Every line of the document is kept, in order, and the one more is the new key's. (Not a
    # diff: with repeated lines, `---` above all, a diff may pair them another way.)
    inserted = [at for at in range(len(after)) if after[:at] + after[at + 1 :] == before]
    assert any(after[at].startswith("zz_new:") for at in inserted)
    assert parse("".join(after)).mapping == {**parse(text).mapping, "zz_new": value}


@PROPERTY
@given(documents(), st.one_of(WORD, st.integers(0, 99), st.booleans()), st.data())
def test_setting_an_existing_key_changes_only_its_lines(doc, value, data) -> None:
    text, keys, _ = doc
    if not keys:
        return
    key = data.draw(st.sampled_from(keys))
    result = edit(text, {key: value})
    assert parse(result).mapping == {**parse(text).mapping, key: value}
    if result == text:  # the key already had this value, written the same way
        return
    changes = _diff(frontmatter.split_lines(text), frontmatter.split_lines(result))
    added = [line for tag, line in changes if tag == "+"]
    removed = [line for tag, line in changes if tag == "-"]
    assert len(added) == 1 and added[0].startswith(f"{key}:")
    assert removed and removed[0].startswith(f"{key}:")
    assert all(not line.startswith(tuple(f"{k}:" for k in keys if k != key)) for line in removed)


def _diff(before: list[str], after: list[str]) -> list[tuple[str, str]]:
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        a=before, b=after, autojunk=False
    ).get_opcodes():
        if tag in ("delete", "replace"):
            out += [("-", line) for line in before[i1:i2]]
        if tag in ("insert", "replace"):
            out += [("+", line) for line in after[j1:j2]]
    return out


# --- examples ------------------------------------------------------------------------------------

HAND_EDITED = (
    "\ufeff---\r\n"
    "# kept: a comment\r\n"
    "date: 2026-01-28\r\n"
    'project: "api-gateway"   # quoted on purpose\r\n'
    "topics:\r\n"
    "  - testing\r\n"
    "  - ci\r\n"
    "importance: medium\r\n"
    "---\r\n"
    "# Title\r\n"
    "body without final newline"
)


def test_change_one_key_keeps_comments_quotes_crlf_bom_and_body() -> None:
    result = edit(HAND_EDITED, {"importance": "high"})
    assert result == HAND_EDITED.replace("importance: medium", "importance: high")


def test_replacing_a_block_list_writes_a_flow_list_in_its_place() -> None:
    result = edit(HAND_EDITED, {"topics": ["testing", "ci", "flaky"]})
    assert "topics: [testing, ci, flaky]\r\nimportance: medium" in result
    assert "  - testing" not in result


def test_remove_a_key_removes_only_its_lines() -> None:
    result = edit(HAND_EDITED, unset=["topics"])
    assert result == HAND_EDITED.replace("topics:\r\n  - testing\r\n  - ci\r\n", "")


def test_values_are_written_in_the_naive_readers_subset() -> None:
    text = "---\ndate: 2026-01-28\n---\n"
    result = edit(
        text,
        {
            "critical": True,
            "reference_count": 5,
            "updated": dt.date(2026, 2, 1),
            "topics": ["a b", "c"],
            "summary": "plain words here",
            "note": "needs: quotes",
            "code": "0012",
        },
    )
    assert result.splitlines()[2:9] == [
        "critical: true",
        "reference_count: 5",
        "updated: 2026-02-01",
        "topics: [a b, c]",
        "summary: plain words here",
        "note: 'needs: quotes'",
        "code: '0012'",
    ]


def test_nested_runbook_triggers_are_replaced_as_one_block() -> None:
    text = (
        "---\ndomain: python\ntriggers:\n  positive:\n    repo_signals: [pyproject.toml]\n"
        "  negative: []\nconfidence: high\n---\nbody\n"
    )
    new = {
        "positive": {"repo_signals": ["setup.py"], "keyword_signals": ["pytest"]},
        "negative": [],
    }
    result = edit(text, {"triggers": new})
    assert result == (
        "---\ndomain: python\ntriggers:\n  positive:\n    repo_signals: [setup.py]\n"
        "    keyword_signals: [pytest]\n  negative: []\nconfidence: high\n---\nbody\n"
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("no frontmatter\n", "no frontmatter"),
        ("---\na: [b\n---\n", "line 2 is not YAML samantha-tui can rewrite safely"),
        ("---\n[b\n---\n", "invalid YAML"),
        ("---\n- a\n---\n", "is a list"),
        ("---\na: 1\na: 2\n---\n", "appears more than once"),
        ("---\n{a: 1, b: 2}\n---\n", "one `{...}` mapping"),
    ],
)
def test_edits_that_cannot_be_made_safely_are_refused(text: str, words: str) -> None:
    with pytest.raises(FrontmatterError, match=re.escape(words)):
        edit(text, {"a": 3})


def test_keep_chomping_blank_lines_belong_to_the_value() -> None:
    text = "---\nnote: |+\n  kept\n\n# a comment\nnext: 1\n---\n"
    assert parse(text).mapping["note"] == "kept\n\n"
    assert edit(text, unset=["note"]) == "---\n# a comment\nnext: 1\n---\n"
    assert edit(text, {"note": "short"}) == "---\nnote: short\n# a comment\nnext: 1\n---\n"


def test_render_new_uses_lf_and_the_given_order() -> None:
    text = render_new({"date": dt.date(2026, 1, 2), "topics": ["x"], "importance": "low"}, "# T\n")
    assert text == "---\ndate: 2026-01-02\ntopics: [x]\nimportance: low\n---\n# T\n"

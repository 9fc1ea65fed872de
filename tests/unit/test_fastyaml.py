"""The frontmatter fast path: whenever it answers, the answer is exactly the full reader's (the
safe loader with samantha-llm's integers and text topics, core/yaml_loader)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from samantha_tui.core.reading import frontmatter, yaml_loader
from samantha_tui.core.reading.fastyaml import try_parse
from samantha_tui.demo import source

from ..tiers import examples

LOADERS = [yaml_loader.PURE_LOADER, yaml_loader.LOADER]


def full_read(text: str, loader: type) -> Any:
    """What the full reader builds from text with the given loader (text topics included)."""
    reader = loader(text)
    try:
        node = reader.get_single_node()
        if node is None:
            return None
        yaml_loader.apply_text_lists(node)
        return reader.construct_document(node)
    finally:
        reader.dispose()


def typed(value: Any) -> Any:
    """value with the exact type of every part spelled out (True == 1, but bool is not int)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    return (type(value).__name__, value)


def assert_exact(text: str) -> Any:
    """try_parse's answer, checked against every safe loader whenever it gives one."""
    fast = try_parse(text)
    if fast is not None:
        for loader in LOADERS:
            assert typed(fast) == typed(full_read(text, loader)), (loader, text)
    return fast


# --- generated frontmatter made of tricky shapes -------------------------------------------------


def words(text: str) -> list[str]:
    return text.split()


BOOLEANS = words("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF")
TRICKY = [
    *BOOLEANS,
    *words("y n Y N tRUE yES oN nULL ~ null Null NULL = << . ... .5 1. 1.0e+3 1e3 .inf .NaN"),
    *words("0 7 42 0012 08 1_000 1_ 0x1F 0b101 +1 -1 1:30 190:20:30 1:30.5 12:60 0o7 1,000"),
    *words("2026-01-28 2026-02-30 2026-13-01 0000-01-01 2026-1-5 20260128 2026-01-28T10:00:00Z"),
    "2026-01-28 10:00",
    "2026-01-28 10:00:00",
    "http://x.org/a#b",
    "a: b",
    "a:b",
    "a :b",
    "a:",
    "a #b",
    "a#b",
    "# only a comment",
    "it's",
    'say "hi"',
    "[a, b]",
    "[]",
    "[ ]",
    "[a,b]",
    "[a, ]",
    "[a,, b]",
    "[a, [b]]",
    "[a, {b: c}]",
    "[a b , c ]",
    "['x', \"y\"]",
    "['it''s', \"a#b\"]",
    "[a?b]",
    "[a'b, c\"d]",
    "[1, yes, ~, 2026-01-01, 0012, 1.5, '1']",
    "[a] # note",
    "[a]#note",
    "[a] b",
    "[a",
    "{a: 1}",
    "'single'",
    "'it''s'",
    "''",
    "'a' # c",
    "'a' b",
    '"double"',
    '""',
    '"a\\nb"',
    '"a" # c',
    "&anchor x",
    "*alias",
    "!!str 1",
    "|",
    ">",
    "%x",
    "@x",
    "`x`",
    "-x",
    "- x",
    "? x",
    ":x",
    "café ☕ 日本",
    "a\tb",
    "a\x85b",
    "a\u2028b",
    "\ufeffa",
    "a\rb",
    "",
]
CHARS = st.sampled_from(list("ab yYnN019_.:+-#,'\"[]{}~!&*|>%@`?=<\\é☕\t"))
TEXT = st.text(CHARS, max_size=10)
# Mostly what the fast path accepts, with the characters whose position decides (`:`, `#`, quotes).
MILD_TEXT = st.text(st.sampled_from(list("abyYnNoO019 :#.-_'\"é")), max_size=12)
ITEM = st.one_of(
    st.sampled_from(TRICKY),
    TEXT,
    MILD_TEXT,
    TEXT.map(lambda text: "'" + text.replace("'", "''") + "'"),
    TEXT.map(lambda text: '"' + text.replace('"', '\\"') + '"'),
)
FLOW_LIST = st.tuples(
    st.lists(ITEM, max_size=4),
    st.sampled_from([", ", ",", " , ", "  ,"]),
    st.sampled_from(["", ",", " "]),
).map(lambda parts: "[" + parts[1].join(parts[0]) + parts[2] + "]")
DATE = st.tuples(st.integers(0, 9999), st.integers(0, 13), st.integers(0, 32)).map(
    lambda ymd: f"{ymd[0]:04d}-{ymd[1]:02d}-{ymd[2]:02d}"
)
NUMBER = st.tuples(
    st.sampled_from(["", "+", "-", "0", "0x", "0b", "."]),
    st.integers(0, 10**6).map(str),
    st.sampled_from(["", "_0", ".5", "e3", ".0e+3", ":30", ":07:59"]),
).map("".join)
KEY = st.sampled_from(
    ["date", "title", "topics", "topics", "a_b", "a-b", "_x", "x1", "yes", "On", "null"]
)
FIELD = st.tuples(
    KEY,
    st.sampled_from([": ", ":", ":  "]),
    st.one_of(ITEM, FLOW_LIST, DATE, NUMBER),
    st.sampled_from(["", "  ", " # c", "#c", " #: [x]"]),
).map("".join)
OTHER_LINE = st.sampled_from(["", "   ", "# comment", "#", " ", "#: x", "  indented: x", "- item"])
FRONTMATTER = st.tuples(
    st.lists(FIELD | OTHER_LINE, min_size=1, max_size=3),
    st.sampled_from(["\n", "\r\n"]),
).map(lambda parts: "".join(line + parts[1] for line in parts[0]))


@settings(max_examples=examples(1200), deadline=None)
@given(FRONTMATTER)
def test_whenever_the_fast_path_answers_it_equals_the_full_reader(text: str) -> None:
    event("fast path" if assert_exact(text) is not None else "full parser")


# --- explicit cases ------------------------------------------------------------------------------

ACCEPTED = [
    ("title: Retry budgets\n", {"title": "Retry budgets"}),
    ("a: x\n\n   \n# a comment\nb: y\n", {"a": "x", "b": "y"}),
    ("a: x\r\nb: y\r\n", {"a": "x", "b": "y"}),
    ("key:\nother: 1\n", {"key": None, "other": 1}),
    ("key:   # nothing here\n", {"key": None}),
    (
        "n: 0\nm: 42\nbig: 1_000\nsession_id: 20260614_165930\n",
        {"n": 0, "m": 42, "big": "1_000", "session_id": "20260614_165930"},
    ),
    ("a: 0012\nb: 08\n", {"a": 12, "b": 8}),  # decimal, as int() reads them, never octal
    ("h: 0x1F\nb: 0b101\nt: 1:30\n", {"h": "0x1F", "b": "0b101", "t": "1:30"}),
    ("topics: [yes, no, null, 42, on, off, ~]\n", None),
    ("d: 2026-01-28\n", {"d": dt.date(2026, 1, 28)}),
    ("d: 2026-1-5\nt: 2026-01-28 10:00\n", {"d": "2026-1-5", "t": "2026-01-28 10:00"}),
    ("x: ~\ny: null\nz: Null\nw: NULL\nv: nULL\n", None),
    ("e: 1e3\n", {"e": "1e3"}),
    ("u: https://x.org/a#b\nc: C# notes\n", {"u": "https://x.org/a#b", "c": "C# notes"}),
    ("v: value  # why\n", {"v": "value"}),
    ("v: a:b\n", {"v": "a:b"}),
    ('v: it\'s "fine"\n', {"v": 'it\'s "fine"'}),
    ("v: café ☕\n", {"v": "café ☕"}),
    ("t: [a, b]\ne: []\nf: [ ]\n", {"t": ["a", "b"], "e": [], "f": []}),
    ("t: [a b , c]  # topics\n", {"t": ["a b", "c"]}),
    ("t: [1, yes, ~, 2026-01-01, 'x', \"y\"]\n", None),
    ("topics: [1, yes, ~, 2026-13-01, 1.5]\n", {"topics": ["1", "yes", "~", "2026-13-01", "1.5"]}),
    ("t: ['it''s', \"a#b, c\"]\n", {"t": ["it's", "a#b, c"]}),
    ("s: 'it''s: #1'\nd: \"a: #b\"\n", {"s": "it's: #1", "d": "a: #b"}),
    ("s: ''\nd: \"\"\n", {"s": "", "d": ""}),
]


@pytest.mark.parametrize(("text", "expected"), ACCEPTED)
def test_common_shapes_are_read_exactly(text: str, expected: Any) -> None:
    fast = assert_exact(text)
    assert fast is not None
    if expected is not None:
        assert typed(fast) == typed(expected)


@pytest.mark.parametrize("word", BOOLEANS)
def test_every_yaml_1_1_boolean_spelling_is_a_bool(word: str) -> None:
    value = word.lower() in ("yes", "true", "on")
    assert assert_exact(f"b: {word}\nl: [{word}]\n") == {"b": value, "l": [value]}
    assert isinstance(try_parse(f"b: {word}\n")["b"], bool)


@pytest.mark.parametrize("word", [*BOOLEANS, "null", "~", "42", "0012", "1_000", "2026-01-28"])
def test_every_topic_is_text_as_samantha_llm_reads_it(word: str) -> None:
    assert assert_exact(f"topics: [{word}, x]\n") == {"topics": [word, "x"]}
    assert frontmatter.parse(f"---\ntopics:\n  - {word}\n---\n").mapping == {"topics": [word]}


@pytest.mark.parametrize("word", ["y", "n", "Y", "tRUE", "yES", "oN"])
def test_words_outside_the_boolean_list_stay_text(word: str) -> None:
    assert assert_exact(f"b: {word}\n") == {"b": word}


REFUSED = {
    "empty document": "",
    "only comments": "# nothing\n",
    "indented line": "a: x\n  b: y\n",
    "block list": "topics:\n- a\n- b\n",
    "multi-line flow list": "topics: [a,\n  b]\n",
    "anchor": "a: &x 1\n",
    "alias": "a: *x\n",
    "tag": "a: !!str 1\n",
    "flow mapping": "a: {b: 1}\n",
    "literal block": "a: |\n  text\n",
    "folded block": "a: >\n  text\n",
    "directive": "%YAML 1.1\n",
    "reserved @": "a: @x\n",
    "reserved backtick": "a: `x`\n",
    "leading dash": "a: -x\n",
    "negative number": "a: -1\n",
    "question mark": "a: ? x\n",
    "leading colon": "a: :x\n",
    "trailing colon": "a: x:\n",
    "colon and space inside": "a: Retry budgets: why\n",
    "duplicate key": "a: 1\na: 2\n",
    "tab": "a:\tx\n",
    "tab in value": "a: x\ty\n",
    "control character": "a: x\x07\n",
    "CR in the middle": "a: x\ry\n",
    "NEL": "a: x\x85y\n",
    "line separator": "a: x\u2028y\n",
    "BOM": "\ufeffa: x\n",
    "boolean key": "yes: x\n",
    "null key": "null: x\n",
    "key with space": "a b: x\n",
    "no space after colon": "a:x\n",
    "plus sign": "a: +1\n",
    "sexagesimal float": "a: 1:30.5\n",
    "float": "a: 1.5\n",
    "float with exponent": "a: 1.0e+3\n",
    "leading-dot float": "a: .5\n",
    "infinity": "a: .inf\n",
    "datetime": "a: 2026-01-28 10:00:00\n",
    "impossible date": "a: 2026-02-30\n",
    "impossible date in a list": "a: [2026-13-01]\n",
    "merge key value": "a: <<\n",
    "value key": "a: =\n",
    "double quote with escape": 'a: "x\\ny"\n',
    "unclosed single quote": "a: 'x\n",
    "text after a quote": "a: 'x' y\n",
    "text after a list": "a: [x] y\n",
    "nested list": "a: [x, [y]]\n",
    "trailing comma": "a: [x, ]\n",
    "empty item": "a: [x,, y]\n",
    "unclosed list": "a: [x, y\n",
    "comment in a list": "a: [x #y]\n",
    "question mark in a list item": "a: [x?y]\n",
    "document marker": "--- a\n",
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_uncertain_shapes_fall_back_to_the_full_parser(text: str) -> None:
    assert try_parse(text) is None


def test_impossible_date_is_still_reported_by_parse() -> None:
    parsed = frontmatter.parse("---\ndate: 2026-02-30\n---\nbody\n")
    assert parsed.mapping is None
    assert parsed.errors[0][0] == 2
    assert "impossible date 2026-02-30" in parsed.errors[0][1]


# --- the bundled demo tree -----------------------------------------------------------------------


def test_demo_files_read_identically_with_and_without_the_fast_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [
        path.read_bytes().decode("utf-8", "surrogateescape")
        for path in sorted(source().rglob("*.md"))
    ]
    answers: list[Any] = []

    def recording(yaml_text: str) -> dict[str, Any] | None:
        answers.append(try_parse(yaml_text))
        return answers[-1]

    monkeypatch.setattr(frontmatter, "try_parse", recording)
    with_fast = [frontmatter.parse(text) for text in texts]
    monkeypatch.setattr(frontmatter, "try_parse", lambda _yaml_text: None)
    without = [frontmatter.parse(text) for text in texts]
    for fast, full in zip(with_fast, without, strict=True):
        assert fast == full
        assert typed(fast.mapping) == typed(full.mapping)
    accepted = sum(answer is not None for answer in answers)
    assert accepted >= len(texts) * 3 // 4, (accepted, len(texts))

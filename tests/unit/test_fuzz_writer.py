"""The writer over generated files and hostile values: every edit either reads back exactly as
asked with every line outside the edited keys byte-identical, or is refused with a message.

tests/unit/test_writer.py proves the line-level properties for plain words; here the files hold what
hand-edited memories hold (anchors, tags, odd keys, quoted control characters, multi-line values,
keys written twice) and the values are anything a person or a script could set.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.reading import frontmatter
from samantha_tui.core.reading.frontmatter import FrontmatterError, edit, parse, render_field
from samantha_tui.core.reading.reader import memory_from_bytes
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY, make_tree
from ..tiers import examples
from .test_fuzz_reader import finishes_within

FUZZ = settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# --- generated files, each line knowing which key owns it -----------------------------------------

LOWER = "abcdefghijklmnopqrstuvwxyz"
# [a-z][a-z0-9_-]{0,8}, built from two draws: a regex strategy costs many times more to draw.
WORD = st.builds(
    str.__add__, st.sampled_from(LOWER), st.text(alphabet=LOWER + "0123456789_-", max_size=8)
)
HOSTILE_CHARS = list(
    "ab z09:#,'\"[]{}&*!|>%@`?-~=<\\/\t\r\n\x00\x07\x1b\x7f\x85\u2028\u2029\ufeff"
    "\u202e\u200f\u05d0\u0627e\u0301\u0338é日🙂"
)
HOSTILE = st.text(st.sampled_from(HOSTILE_CHARS), max_size=20)
PRINTABLE = st.text(st.sampled_from([c for c in HOSTILE_CHARS if c.isprintable()]), max_size=20)


def double_quoted(text: str) -> str:
    """A YAML double-quoted scalar with every character outside printable ASCII escaped."""
    escaped = "".join(
        ch
        if " " <= ch <= "~" and ch not in '"\\'
        else f"\\u{ord(ch):04x}"
        if ord(ch) < 0x10000
        else f"\\U{ord(ch):08x}"
        for ch in text
    )
    return f'"{escaped}"'


SCALAR = st.one_of(
    WORD,
    st.sampled_from(["yes", "No", "on", "~", "null", "true", "0012", "08", "1_000", "1.5", ".inf"]),
    st.sampled_from(["2026-01-28", "2026-01-28 10:00:00", "a:b", "http://x.org/a#b", "C# notes"]),
    PRINTABLE.map(lambda text: "'" + text.replace("'", "''") + "'"),
    HOSTILE.map(double_quoted),
    st.integers(-(10**20), 10**20).map(str),
    st.text("ab ", min_size=200, max_size=300).map(lambda text: "w" + text.strip() + "w"),
)


@dataclass(frozen=True)
class Value:
    """The text after `key:` and the value's continuation lines."""

    lines: tuple[str, ...]
    anchor: str | None = None
    alias_of: str | None = None


def _one_line(text: str) -> Value:
    return Value((text,))


VALUE = st.one_of(
    st.builds(lambda v, c: _one_line(f" {v}{c}"), SCALAR, st.sampled_from(["", " # note", "  #"])),
    st.sampled_from(["", " # only a comment", " !!str 123", " !!int '7'", " {a: 1, b: [x]}"]).map(
        _one_line
    ),
    st.lists(SCALAR, max_size=4).map(lambda items: _one_line(" [" + ", ".join(items) + "]")),
    st.builds(
        lambda indent, items: Value(("", *(f"{indent}- {item}" for item in items))),
        st.sampled_from(["", "  "]),
        st.lists(SCALAR, min_size=1, max_size=3),
    ),
    st.just(Value(("", "  - a", "  # an indented comment belongs to the list", "  - b"))),
    st.just(Value(("", "  - signal: x", "    reason: 'why: this'", "  - signal: y"))),
    st.just(Value(("", "  positive:", "    repo_signals: [a, b]", "  negative: []"))),
    st.builds(
        lambda indicator, middle: Value((f" {indicator}", "  first", *middle, "  last")),
        st.sampled_from(["|", ">", "|-", ">-"]),
        st.lists(st.sampled_from(["", "  # not a comment", "  x: y", "    deeper"]), max_size=3),
    ),
    st.just(Value((" first words", "  continued words"))),
    st.just(Value((" [a,", "  'b c']"))),
    st.just(Value((' "first', '  second"'))),
)
KEY = st.one_of(  # (name, the key as written)
    WORD.map(lambda word: ("k" + word, "k" + word)),
    st.sampled_from(
        [
            ("odd key", "'odd key'"),
            ("quo:ted", '"quo:ted"'),
            ("it's", "'it''s'"),
            ("tab\tkey", '"tab\\tkey"'),
            ("yes", "'yes'"),
            ("123", "'123'"),
            ("ключ", "ключ"),
            ("日本語", "日本語"),
            ("a.b", "a.b"),
            ("#hash", "'#hash'"),
        ]
    ),
)
# A whitespace line deeper than a block scalar above it would join that scalar once the key between
# them is removed; the writer then refuses (rightly), so free lines here stay shallow.
FREE_LINE = st.sampled_from(["", " ", "#", "# a comment: [x] &a *b !c", "# ---"])


@dataclass
class Doc:
    """A generated file: its text, and the lines each key owns (free lines belong to none)."""

    head: str
    segments: list[tuple[str | None, str, list[str]]]
    """(key name or None, key as written, lines with their endings)"""
    tail: str
    """The closing line and the body."""
    newline: str
    aliased: dict[str, set[str]] = field(default_factory=dict)
    """Anchored key -> keys whose value is an alias of it."""

    @property
    def text(self) -> str:
        return (
            self.head + "".join(line for *_, lines in self.segments for line in lines) + self.tail
        )

    def names(self) -> list[str]:
        return [name for name, *_ in self.segments if name is not None]

    def expected(
        self, set_values: dict[str, object], unset: list[str], added: dict[str, object]
    ) -> str:
        """The text the writer must give: edited keys' lines rendered, every other line kept."""
        out = [self.head]
        for name, key_text, lines in self.segments:
            if name is not None and name in set_values:
                out += render_field(name, set_values[name], self.newline, key_text)
            elif name is None or name not in unset:
                out += lines
        for name, value in added.items():
            out += render_field(name, value, self.newline)
        return "".join(out) + self.tail


@st.composite
def docs(draw: st.DrawFn) -> Doc:
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    head = draw(st.sampled_from(["---", "--- ", "\ufeff---"])) + newline
    segments: list[tuple[str | None, str, list[str]]] = []
    aliased: dict[str, set[str]] = {}
    anchors: list[tuple[str, str]] = []
    for number in range(draw(st.integers(0, 7))):
        for _ in range(draw(st.integers(0, 2))):
            segments.append((None, "", [draw(FREE_LINE) + newline]))
        name, key_text = draw(KEY)
        if draw(st.integers(0, 39)) == 0 and segments and (named := [s for s in segments if s[0]]):
            name, key_text = draw(st.sampled_from(named))[:2]  # the same key written again
        value = draw(VALUE)
        first, *rest = value.lines
        if anchors and draw(st.integers(0, 5)) == 0:
            anchor, owner = draw(st.sampled_from(anchors))
            first, rest = f" *{anchor}", []
            aliased.setdefault(owner, set()).add(name)
        elif len(value.lines) == 1 and first.startswith(" ") and draw(st.integers(0, 4)) == 0:
            anchor = f"a{number}"
            first = f" &{anchor}{first}"
            anchors.append((anchor, name))
        lines = [f"{key_text}:{first}", *rest]
        segments.append((name, key_text, [line + newline for line in lines]))
    closer = draw(st.sampled_from(["---", "...", "--- "]))
    body = draw(st.sampled_from(["", "# Title\n\nBody.\n", "---\nnot frontmatter: x\n", "x"]))
    return Doc(head, segments, closer + newline + body.replace("\n", newline), newline, aliased)


# --- values a person or a script could set --------------------------------------------------------

TEXT_VALUE = st.one_of(
    HOSTILE,
    st.sampled_from(
        [
            *("yes", "no", "~", "null", "true", "0012", "1e3", ".inf", "2026-01-28", "[a]", "{}"),
            *("*x", "&a b", "!!bool x", "!!python/object:os.system", "- x", "? x", ": x", "%x"),
            *("@x", "`x`", "'", '"', "#", "a #b", "a: b", "---", "...", "", " lead", "trail "),
            *("a\nb", "two\n\nparagraphs\n", "\r", "\\", "<<", "=", "|", ">"),
        ]
    ),
    st.text(st.sampled_from(HOSTILE_CHARS), min_size=500, max_size=2000),
)
SCALAR_VALUE = st.one_of(
    TEXT_VALUE,
    st.integers(-(10**50), 10**50),
    st.booleans(),
    st.none(),
    st.dates(),
    st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(2200, 1, 1)),
    st.floats(allow_nan=False),
)
NEW_VALUE = st.one_of(
    SCALAR_VALUE,
    st.lists(SCALAR_VALUE, max_size=4),
    st.dictionaries(WORD, st.lists(TEXT_VALUE, max_size=3), min_size=1, max_size=3),
    st.lists(st.fixed_dictionaries({"signal": TEXT_VALUE, "reason": TEXT_VALUE}), max_size=2),
)
NEW_KEY = st.one_of(  # (name, the key as written)
    WORD.map(lambda word: "n" + word),
    st.sampled_from(["yes", "null", "1", "a b", "#x", "-x", "ключ", "a: b", "", "x\ny", "<<", "?"]),
    st.text(st.sampled_from(HOSTILE_CHARS), min_size=1, max_size=10),
)


@st.composite
def edits(draw: st.DrawFn, doc: Doc) -> tuple[dict[str, object], list[str], dict[str, object]]:
    """(new values of existing keys, keys to remove, new keys with values), all disjoint."""
    names = sorted(set(doc.names()))
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, unique=True)) if names else []
    cut = draw(st.integers(0, len(chosen)))
    set_values = {name: draw(NEW_VALUE) for name in chosen[:cut]}
    unset = chosen[cut:]
    new_keys = draw(st.lists(NEW_KEY, min_size=0 if names else 1, max_size=2, unique=True))
    added = {key: draw(NEW_VALUE) for key in new_keys if key not in names}
    return set_values, unset, added


def must_refuse(doc: Doc, touched: set[str]) -> str | None:
    """Why the writer has to refuse these edits, or None when it has to make them."""
    names = doc.names()
    for name in touched:
        if names.count(name) > 1:
            return "appears more than once"
        if doc.aliased.get(name, set()) - touched:
            return "an alias would lose its anchor"
    return None


def edit_or_refuse(
    doc: Doc, set_values: dict[str, object], unset: list[str], added: dict[str, object]
) -> str | None:
    """Run the writer; check the result line by line or the refusal. None when it refused."""
    text = doc.text
    before = parse(text)
    assert before.mapping is not None, (before.errors, text)
    try:
        with finishes_within():
            result = edit(text, {**set_values, **added}, unset)
    except FrontmatterError as error:
        message = str(error)
        assert message.startswith(("cannot", "refused")), message
        why = must_refuse(doc, set(set_values) | set(unset))
        event(f"refused: {why or message[:40]}")
        # Refusals come only from the file (a key written twice, an anchor in use): every value
        # drawn here can be written in samantha-llm's subset, so nothing else may stop an edit.
        assert why is not None, (message, text, set_values, unset, added)
        return None
    expected = doc.expected(set_values, unset, added)
    assert frontmatter.split_lines(result) == frontmatter.split_lines(expected)
    after = parse(result)
    wanted = {k: v for k, v in before.mapping.items() if k not in unset} | set_values | added
    assert after.mapping == wanted
    assert [type(v) for v in after.mapping.values()] == [type(v) for v in wanted.values()]
    assert after.body == before.body
    record = memory_from_bytes(f"{ST}/m.md", Kind.SHORT_TERM, result.encode("utf-8"), TODAY)
    unreadable = [p.message for p in record.problems if "appears more than once" not in p.message]
    assert not [m for m in unreadable if "YAML" in m or "frontmatter" in m], unreadable
    event("edited" if set_values or unset or added else "nothing to change")
    return result


@FUZZ
@given(data=st.data())
def test_every_edit_reads_back_exactly_or_is_refused(data: st.DataObject) -> None:
    doc = data.draw(docs())
    set_values, unset, added = data.draw(edits(doc))
    edit_or_refuse(doc, set_values, unset, added)


@settings(FUZZ, max_examples=examples(50))
@given(data=st.data())
def test_store_edit_writes_exactly_the_writers_bytes_or_nothing(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    doc = data.draw(docs())
    set_values, unset, added = data.draw(edits(doc))
    rel = f"{ST}/m.md"
    root = make_tree(tmp_path_factory.mktemp("store") / "cerebrum", {rel: doc.text})
    store = Store(root, lambda: TODAY)
    store.scan()
    before = (root / rel).read_bytes()
    try:
        expected = edit(doc.text, {**set_values, **added}, unset).encode("utf-8")
    except FrontmatterError as error:
        with pytest.raises(StoreError, match=r"cannot|refused"):
            store.edit(rel, {**set_values, **added}, unset, touch_updated=False)
        assert (root / rel).read_bytes() == before, error
        return
    memory = store.edit(rel, {**set_values, **added}, unset, touch_updated=False)
    assert (root / rel).read_bytes() == expected
    assert memory == store.get(rel)
    assert sorted(p.name for p in (root / ST).iterdir()) == ["m.md"]  # no temporary file left


# --- refusals -------------------------------------------------------------------------------------

LOOP: list[object] = []
LOOP.append(LOOP)
UNWRITABLE = {
    "a number of 5,000 digits": (10**5000, "cannot write a number this long"),
    "a set": ({1, 2}, "cannot write a value of type set"),
    "bytes": (b"\x00", "cannot write a value of type bytes"),
    "a list that holds itself": (LOOP, "its value nests too deeply"),
    "not a number": (float("nan"), None),
    "a key of 2,000 characters": ("value", "would not read back"),
}


@pytest.mark.parametrize(("value", "words"), UNWRITABLE.values(), ids=UNWRITABLE.keys())
def test_values_outside_the_subset_are_refused_with_a_message(value, words) -> None:
    text = "---\ndate: 2026-01-28\n---\n# T\n"
    key = "k" * 2000 if words == "would not read back" else "x"
    if words is None:  # NaN is written as `.nan`, which reads back as NaN
        assert edit(text, {key: value}) == "---\ndate: 2026-01-28\nx: .nan\n---\n# T\n"
        return
    with pytest.raises(FrontmatterError, match=words):
        edit(text, {key: value})


def test_floats_are_written_so_that_yaml_reads_floats() -> None:
    text = "---\na: 1\n---\n"
    for value, written in ((1e16, "1.0e+16"), (1e-05, "1.0e-05"), (float("-inf"), "-.inf")):
        result = edit(text, {"f": value})
        assert result == f"---\na: 1\nf: {written}\n---\n"
        assert parse(result).mapping["f"] == value


def test_an_edit_that_would_orphan_an_alias_is_refused_and_the_file_kept(tree) -> None:
    text = "---\ndate: 2026-01-28\nbase: &b [a, b]\ntopics: *b\n---\n# Alias\n"
    store = tree({f"{ST}/a.md": text})
    for change in ({"set_values": {"base": ["c"]}}, {"unset": ["base"]}):
        with pytest.raises(StoreError, match="would not read back as intended"):
            store.edit(f"{ST}/a.md", touch_updated=False, **change)
    assert (store.root / ST / "a.md").read_text() == text
    store.edit(f"{ST}/a.md", unset=["base", "topics"], touch_updated=False)
    assert (store.root / ST / "a.md").read_text() == "---\ndate: 2026-01-28\n---\n# Alias\n"


def test_a_file_that_is_not_utf8_is_never_written(tree) -> None:
    raw = b"---\ndate: 2026-01-28\ntopics: [caf\xe9]\n---\n"
    store = tree({f"{ST}/latin.md": raw})
    with pytest.raises(StoreError, match="not UTF-8 text; fix it by hand"):
        store.edit(f"{ST}/latin.md", {"importance": "high"})
    assert (store.root / ST / "latin.md").read_bytes() == raw


def test_cli_set_takes_a_huge_number_as_text_and_says_why_it_is_refused(tree, capsys) -> None:
    from samantha_tui.cli import main

    store = tree({f"{ST}/n.md": "---\ndate: 2026-01-28\ntopics: [a]\n---\n"})
    path = Path(store.root) / ST / "n.md"
    assert main(["set", str(path), f"reference_count={'9' * 5000}"]) == 1
    assert "`reference_count` is '999" in capsys.readouterr().err
    assert main(["set", str(path), "note=!!python/object/apply:os.system [x]"]) == 0
    assert "note: '!!python/object/apply:os.system [x]'" in path.read_text()

"""Hostile input for the reader: no bytes, YAML or tag crash it, hang it, or run code, and nothing
that later uses a record (record cache, form fields, preview, JSON indexes, bootstrap, search,
lifecycle, stats) breaks on what it read."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import signal
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from samantha_tui.commands.bootstrap import as_dict
from samantha_tui.core.basics.model import Kind, Memory, Severity, Tree
from samantha_tui.core.reading import catalog, fields, frontmatter
from samantha_tui.core.reading.reader import memory_from_bytes
from samantha_tui.core.reading.triggers import Signals
from samantha_tui.core.views import bootstrap, bootstrap_markdown, lifecycle, stats
from samantha_tui.core.views.indexes import drift, dump_json, plan_updates
from samantha_tui.core.views.indexes.entries import memory_entry, project_entry, runbook_entry
from samantha_tui.core.views.indexes.jsonfmt import plain
from samantha_tui.core.views.search import SearchIndex
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.widgets.preview import fields_table, format_value, problem_lines

from ..conftest import LT, ST, TASKS, TODAY, make_tree
from ..tiers import examples

PROCEDURAL = ".ai/procedural-memory/.ai"
FUZZ = settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# A quadratic or exponential regression on the inputs below takes minutes or hours; linear code
# takes milliseconds. The alarm turns a hang into a failure without timing anything tightly.
HANG = 20.0


@contextlib.contextmanager
def finishes_within(seconds: float = HANG) -> Iterator[None]:
    def hung(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: a hang, not slowness")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- every place a record is used after reading ---------------------------------------------------


def use_record(memory: Memory) -> None:
    """Everything the app and the CLI do with one record; any exception fails the test."""
    front = memory.frontmatter
    for problem in memory.problems:
        assert problem.message and problem.format()
    json.dumps([p.format() for p in memory.problems])
    # The form (core/reading/fields.py) and the preview pane.
    specs = fields.fields_for(memory.kind, front)
    raw = {spec.key: fields.raw_value(spec, front.get(spec.key)) for spec in specs}
    values, _errors = fields.parse_form(specs, raw)
    fields.changes(front, values)
    for key in fields.other_keys(front, specs):
        fields.readonly_text(key, front[key])
    vocabulary = fields.Vocabulary()
    for spec in specs:
        fields.choices(spec, vocabulary, raw[spec.key])
    for value in front.values():
        format_value(value)
    fields_table(memory)
    problem_lines(memory.problems)
    # JSON: the index entries of every kind, and the frontmatter as plain data.
    dump_json(plain(dict(front)))
    dump_json(memory_entry(memory.kind, memory))
    dump_json(runbook_entry(memory))
    dump_json(project_entry(memory.kind, memory, "active"))


def use_tree(tree: Tree, root: Path) -> None:
    """Everything built from a whole tree: indexes, drift, bootstrap, search, lifecycle, stats."""
    for memory in tree.memories:
        use_record(memory)
    for update in plan_updates(tree, root, TODAY):
        json.loads(update.new) if update.path.endswith(".json") else update.new.decode("utf-8")
    report = drift(tree, root, TODAY)
    report.lines()
    plan = bootstrap.plan(tree, Signals(repos=("a",), paths=("a/b",), keywords=("a",)), TODAY, 1000)
    json.dumps(as_dict(plan))
    bootstrap_markdown.render(plan, 1000)
    index = SearchIndex.build(tree.memories, TODAY)
    for query in ("a", "x*", "topic:a", "importance:high critical"):
        index.search(query, limit=5)
    for proposal in lifecycle.review(tree, TODAY):
        proposal.plan()
    stats.stats(tree, TODAY, report)
    fields.build_vocabulary(tree)


@pytest.fixture(scope="module")
def empty_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tree(tmp_path_factory.mktemp("fuzz") / "cerebrum", {})


def read(raw: bytes, kind: Kind = Kind.SHORT_TERM, rel: str = f"{ST}/m.md") -> Memory:
    memory = memory_from_bytes(rel, kind, raw, TODAY)
    assert memory.path == rel and memory.size == len(raw)
    return memory


def read_and_use(raw: bytes, root: Path, whole_tree: bool = True) -> Memory:
    """Read raw bytes, then use the record everywhere (`whole_tree`: in a tree's views too)."""
    with finishes_within():
        memory = read(raw)
        if whole_tree:
            use_tree(Tree(str(root), (memory,)), root)
        else:
            use_record(memory)
    return memory


# --- generated input ------------------------------------------------------------------------------

HOSTILE_CHARS = list(
    "ab z09:#,'\"[]{}&*!|>%@`?-~=<\\/\t\r\n"
    "\x00\x07\x1b\x7f\x85\u2028\u2029\ufeff"  # NUL, bell, escape, DEL, NEL, LS, PS, BOM
    "\u202e\u200f\u05d0\u0627"  # right-to-left override and mark, Hebrew and Arabic letters
    "e\u0301\u0338\u20dd"  # combining acute, long solidus overlay, enclosing circle
    "é日🙂"
)
HOSTILE = st.text(st.sampled_from(HOSTILE_CHARS), max_size=30)
# The same without the characters YAML refuses outside quotes, so more documents parse.
PRINTABLE = st.text(st.sampled_from([c for c in HOSTILE_CHARS if c.isprintable()]), max_size=30)


def words(text: str) -> list[str]:
    return text.split()


LOWER = "abcdefghijklmnopqrstuvwxyz"
YAML_WORDS = [
    *words("yes no Yes NO on off y n true False ~ null Null 0012 08 0x1F 0o7 +1 -1 1_000 1:30"),
    *words("1e3 .5 .inf -.inf .nan 2026-01-28 2026-02-30 2026-13-01 2026-1-5 2026-01-28T10:00Z"),
    *words("'2026-01-28' \"yes\" '' \"\" = << - ? : | > !!str !!int !!bool !!float !!null"),
    *words("!!timestamp !!binary !!set !!omap !!pairs !custom ! &a *a &b *b *nothing"),
]

SCALAR = st.one_of(
    st.sampled_from(YAML_WORDS),
    # [a-z][a-z -]{0,12}, built from two draws: a regex strategy costs many times more to draw.
    st.builds(str.__add__, st.sampled_from(LOWER), st.text(alphabet=LOWER + " -", max_size=12)),
    HOSTILE,
    PRINTABLE,
    PRINTABLE.map(lambda text: "'" + text.replace("'", "''") + "'"),
    HOSTILE.map(lambda text: json.dumps(text)),  # double-quoted with \u escapes
    st.integers(-(10**30), 10**30).map(str),
    st.dates().map(dt.date.isoformat),
    st.tuples(st.sampled_from(YAML_WORDS), st.sampled_from(YAML_WORDS)).map(" ".join),
)


# Values as they follow `key:` on the key's line, then their continuation lines. Built from fixed
# strategies, not a recursive composite: generation is most of a fuzz test's time.
FLAT_VALUE = st.one_of(
    st.builds(
        lambda value, comment: [f" {value}{comment}"],
        SCALAR,
        st.sampled_from(["", " # note", " #: [x]", "  # ' \" &a"]),
    ),
    st.lists(SCALAR, max_size=4).map(lambda items: [" [" + ", ".join(items) + "]"]),
    st.lists(st.tuples(SCALAR, SCALAR), max_size=3).map(
        lambda pairs: [" {" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"]
    ),
    st.builds(
        lambda tag, value: [f" {tag} {value}"],
        st.sampled_from(["!!str", "!!seq", "!!map", "!!set", "!!python/tuple", "!x"]),
        SCALAR,
    ),
    st.builds(
        lambda indicator, lines: [" " + indicator] + ["  " + line for line in lines],
        st.sampled_from(["|", ">", "|-", ">+", "|2"]),
        st.lists(HOSTILE, max_size=3),
    ),
)
INDENT = st.sampled_from(["  ", "", "    "])


def _block(indent: str, items: list[list[str]]) -> list[str]:
    return [""] + [f"{indent}-{item[0]}" for item in items]


def _mapping(indent: str, pairs: list[tuple[str, list[str]]]) -> list[str]:
    indent = indent or "  "
    lines = [""]
    for key, (first, *rest) in pairs:
        lines += [f"{indent}{key}:{first}"] + [indent + line for line in rest]
    return lines


def nested(child: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    """A block list or a block mapping of child values, or a child value itself."""
    return st.one_of(
        child,
        st.builds(_block, INDENT, st.lists(child, min_size=1, max_size=3)),
        st.builds(
            _mapping,
            INDENT,
            st.lists(
                st.tuples(st.sampled_from(["a", "b", "yes", "'q'", "1"]), child),
                min_size=1,
                max_size=3,
            ),
        ),
    )


VALUE = nested(nested(FLAT_VALUE))
KEY = st.one_of(
    st.sampled_from(
        [
            *("date", "topics", "importance", "critical", "reference_count", "type", "project"),
            *("status", "updated", "completed", "triggers", "domain", "confidence", "corrections"),
        ]
    ),
    st.sampled_from(["yes", "null", "1", "'q k'", '"a:b"', "? x", "<<", "ключ", "a b", "-x"]),
    PRINTABLE.filter(bool),
)


def _field(before: str, key: str, anchor: str, value: list[str]) -> list[str]:
    first, *rest = value
    return [*([before] if before is not None else []), f"{key}:{anchor}{first}", *rest]


FIELD = st.builds(
    _field,
    st.sampled_from([None, None, "", "# comment", "   ", "#", "\t# tab"]),
    KEY,
    st.sampled_from(["", "", " &a", " &b", " *a"]),
    VALUE,
)


def _document(
    fields_: list[list[str]], newline: str, opener: str, closer: str, body: str, tail: str
) -> str:
    lines = [line for field in fields_ for line in field]
    return newline.join([opener, *lines, closer]) + newline + body + tail


DOCUMENT = st.builds(
    _document,
    st.lists(FIELD, max_size=6),
    # Mostly a frontmatter that opens and closes, so most examples reach the YAML parser.
    st.one_of(st.just("\n"), st.just("\n"), st.sampled_from(["\n", "\r\n", "\r"])),
    st.one_of(st.just("---"), st.just("---"), st.sampled_from(["--- ", "\ufeff---", "----", ""])),
    st.one_of(st.just("---"), st.just("---"), st.sampled_from(["...", "--- x", "", " ---"])),
    st.sampled_from(["", "# [bold]Title[/]\n", "# T\u202eitle ##\n\nText.\n"]),
    HOSTILE,
)
"""A file in the shape of a memory, with frontmatter built from hostile keys and values."""


@FUZZ
@given(raw=st.binary(max_size=600))
def test_arbitrary_bytes_are_read_and_used_without_an_exception(raw: bytes, empty_root) -> None:
    memory = read_and_use(raw, empty_root, whole_tree=False)
    event("has frontmatter" if memory.frontmatter else "no usable frontmatter")


@FUZZ
@given(raw=st.binary(max_size=400))
def test_bytes_after_a_frontmatter_opener_are_read_and_used(raw: bytes, empty_root) -> None:
    read_and_use(b"---\n" + raw, empty_root, whole_tree=False)
    read_and_use(b"---\ndate: 2026-01-28\n" + raw + b"\n---\n# T\n", empty_root, whole_tree=False)


@settings(FUZZ, max_examples=examples(300))
@given(text=DOCUMENT)
def test_yaml_shaped_text_is_read_and_used_without_an_exception(text: str, empty_root) -> None:
    memory = read_and_use(text.encode("utf-8", "surrogatepass"), empty_root, whole_tree=False)
    event("read" if memory.frontmatter else "reported: " + memory.problems[0].message[:30])


SPLIT_TEXT = st.lists(st.sampled_from([*HOSTILE_CHARS, "---", "...", "---\n"])).map("".join)


@FUZZ
@given(text=st.one_of(DOCUMENT, SPLIT_TEXT))
def test_the_readers_split_is_the_writers(text: str) -> None:
    """parse() splits with a regex for speed; the writer finds the block line by line. They must
    agree, or the writer would edit a different frontmatter than the one shown."""
    try:
        block = frontmatter._find_block(text)
    except frontmatter.FrontmatterError:
        block = "never closed"
    try:
        split = frontmatter._split(text)
    except frontmatter.FrontmatterError:
        split = "never closed"
    if block is None or block == "never closed":
        assert split == block
    else:
        body = "".join(block.lines[block.close_index + 1 :])
        assert split == (block.yaml_text, body)


FILES = st.dictionaries(
    st.sampled_from(
        [
            f"{ST}/a.md",
            f"{ST}/-rf.md",
            f"{LT}/topic/b.md",
            f"{TASKS}/proj/status.md",
            f"{TASKS}/proj/notes.md",
            f"{PROCEDURAL}/runbook.md",
            ".ai/work-experience/.ai/done/status.md",
        ]
    ),
    st.one_of(DOCUMENT.map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary(max_size=200)),
    min_size=1,
)


@settings(FUZZ, max_examples=examples(30))
@given(files=FILES)
def test_a_whole_hostile_tree_scans_twice_the_same_and_everything_built_from_it_works(
    files: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = make_tree(tmp_path_factory.mktemp("tree") / "cerebrum", files)
    long_ago = dt.datetime(2020, 1, 1).timestamp()
    for rel in files:
        os.utime(root / rel, (long_ago, long_ago))  # old enough for the record cache to keep
    store = Store(root, lambda: TODAY)
    with finishes_within():
        first = store.scan()
        use_tree(first, root)
        second = store.scan()  # from the record cache this time
    projects = {rel.rsplit("/", 1)[0] for rel in files if rel.startswith(TASKS)}
    loose = [rel for rel in files if not rel.startswith(TASKS)]
    assert len(first.memories) == len(loose) + len(projects)
    assert repr(second) == repr(first)


# --- YAML tags never run code ---------------------------------------------------------------------


def tag_payloads(marker: Path) -> list[str]:
    command = f"touch {marker}"
    return [
        f"x: !!python/object/apply:os.system [{command!r}]",
        f"x: !!python/object/apply:subprocess.check_call [[touch, {marker}]]",
        f"x: !!python/object/new:os.system [{command!r}]",
        f"x: !!python/object/apply:builtins.exec [\"open('{marker}', 'w').close()\"]",
        f"x: !<tag:yaml.org,2002:python/object/apply:os.system> [{command!r}]",
        "x: !!python/name:os.system",
        "x: !!python/module:os",
        f"topics: [a, !!python/object/apply:os.system [{command!r}]]",
        f"triggers:\n  positive:\n    repo_signals: !!python/object/apply:os.system [{command!r}]",
        f"? !!python/object/apply:os.system [{command!r}]\n: key",
        f"x: {{a: !!python/object/apply:os.system [{command!r}]}}",
    ]


def test_python_tags_are_reported_and_never_executed(tmp_path: Path, capsys) -> None:
    from samantha_tui.cli import main

    marker = tmp_path / "MARKER"
    # The payload is live: a loader that builds Python objects does run it.
    yaml.unsafe_load(tag_payloads(marker)[0])
    assert marker.exists()
    marker.unlink()
    files = {
        f"{ST}/t{number}.md": f"---\ndate: 2026-01-28\n{payload}\n---\n# Tag {number}\n"
        for number, payload in enumerate(tag_payloads(marker))
    }
    root = make_tree(tmp_path / "cerebrum", files)
    store = Store(root, lambda: TODAY)
    tree = store.scan()
    use_tree(tree, root)
    for memory in tree.memories:
        assert not memory.frontmatter, memory.path
        assert "python" in memory.problems[0].message, memory.problems
        with pytest.raises(StoreError, match="cannot edit"):
            store.edit(memory.path, {"importance": "high"})
    for argv in (["check"], ["index", "--check"], ["bootstrap"], ["search", "tag"], ["index"]):
        main([*argv, "--tree", str(root)])
    main(["set", str(root / ST / "t0.md"), "importance=high"])
    assert "cannot edit" in capsys.readouterr().err
    assert not marker.exists()
    assert [(root / rel).read_text() for rel in files] == list(files.values())


# --- anchors and aliases --------------------------------------------------------------------------


def billion_laughs(levels: int = 9, fan: int = 10, key: str = "lol") -> str:
    lines = [f"l0: &l0 [{', '.join(['lol'] * fan)}]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * fan)}]")
    lines.append(f"{key}: *l{levels - 1}")
    return "\n".join(lines)


BOMBS = {
    "lists": billion_laughs(),
    "in topics": billion_laughs(key="topics"),
    "in triggers": billion_laughs(key="triggers"),
    "strings": "s: &s " + "x" * 5000 + "\nt: [" + ", ".join(["*s"] * 2000) + "]",
    "mappings": "\n".join(
        ["m0: &m0 {a: 1, b: 2}"]
        + [f"m{n}: &m{n} {{x: *m{n - 1}, y: *m{n - 1}, z: *m{n - 1}}}" for n in range(1, 22)]
    ),
    "merge keys": "\n".join(
        ["m0: &m0 {" + ", ".join(f"k{n}: {n}" for n in range(200)) + "}"]
        + [f"m{n}: &m{n} {{<<: [{', '.join([f'*m{n - 1}'] * 10)}], x{n}: 1}}" for n in range(1, 7)]
    ),
}


@pytest.mark.parametrize("bomb", BOMBS.values(), ids=BOMBS.keys())
def test_an_alias_bomb_is_refused_quickly_in_little_memory(bomb: str, tmp_path: Path) -> None:
    text = f"---\ndate: 2026-01-28\n{bomb}\n---\n# Laughs\n"
    root = make_tree(tmp_path / "cerebrum", {f"{PROCEDURAL}/bomb.md": text})
    store = Store(root, lambda: TODAY)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with finishes_within():
            tree = store.scan()
            use_tree(tree, root)
            with pytest.raises(StoreError, match="cannot edit: aliases"):
                store.edit(f"{PROCEDURAL}/bomb.md", {"importance": "high"})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    seconds = time.perf_counter() - started
    (memory,) = tree.memories
    assert "aliases (`*name`) expand the frontmatter" in memory.problems[0].message
    assert "over the 100,000 allowed" in memory.problems[0].message
    # Expanded, the smallest of these is tens of megabytes; refused, it is a few hundred KB.
    assert peak < 16 * 1024 * 1024, f"peak {peak / 1e6:.1f} MB in {seconds:.2f} s"


def test_aliases_within_the_budget_are_read_and_their_file_stays_editable(
    tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (
        "---\ndate: 2026-01-28\nbase: &base [testing, ci]\ntopics: *base\n"
        "defaults: &d {retries: 3}\nprod: {<<: *d, region: eu}\n---\n# Aliases\n"
    )
    store = tree({f"{ST}/a.md": text})
    long_ago = dt.datetime(2020, 1, 1).timestamp()
    os.utime(store.root / ST / "a.md", (long_ago, long_ago))
    # Old enough for the catalog to trust: its clock a minute on, past the ctime utime just set.
    monkeypatch.setattr(catalog, "_now_ns", lambda: time.time_ns() + 60 * 10**9)
    store.scan()
    with monkeypatch.context() as patched:  # the second scan must take the record from the cache
        patched.setattr(catalog, "read_memory", lambda *_: pytest.fail("not cached"))
        memory = store.scan().memories[0]
    assert memory.problems == () and memory.topics == ("testing", "ci")
    assert memory.frontmatter["prod"] == {"retries": 3, "region": "eu"}
    assert memory.frontmatter["topics"] is memory.frontmatter["base"]  # shared, not copied
    use_record(memory)
    store.edit(f"{ST}/a.md", {"importance": "high"}, touch_updated=False)
    assert (store.root / ST / "a.md").read_text() == text.replace(
        "region: eu}\n", "region: eu}\nimportance: high\n"
    )
    # Changing the anchored value would leave `*base` pointing at nothing: refused.
    with pytest.raises(StoreError, match=r"would not read back|cannot edit"):
        store.edit(f"{ST}/a.md", {"base": ["x"]})


def test_an_alias_that_holds_itself_is_refused(empty_root: Path) -> None:
    for cycle in ("a: &a [*a]", "a: &a {b: [1, *a]}"):
        memory = read_and_use(f"---\n{cycle}\n---\n".encode(), empty_root)
        assert memory.problems[0].message.startswith("an alias (`*name`) refers to the value")


# --- depth, size and long lines -------------------------------------------------------------------

DEEP = {
    "5,000 [ closed": "a: " + "[" * 5000 + "]" * 5000,
    "5,000 [ open": "a: " + "[" * 5000,
    "5,000 {": "a: " + "{b: " * 5000 + "}" * 5000,
    "2,000 block maps": "\n".join(" " * n + f"k{n}:" for n in range(2000)),
    "2,000 block lists": "a:\n" + "- " * 2000 + "x",
    "mixed": "a: " + "[{b: " * 2000 + "}]" * 2000,
    f"{frontmatter.MAX_DEPTH + 1} levels": "a: "
    + "[" * (frontmatter.MAX_DEPTH - 1)
    + "x"
    + "]" * (frontmatter.MAX_DEPTH - 1),
}


@pytest.mark.parametrize("yaml_text", DEEP.values(), ids=DEEP.keys())
def test_deep_nesting_is_reported_without_recursion(yaml_text: str, tree) -> None:
    store = tree({f"{ST}/deep.md": f"---\ndate: 2026-01-28\n{yaml_text}\n---\n# Deep\n"})
    (memory,) = store.tree.memories
    use_tree(store.tree, store.root)
    assert memory.problems[0].line is not None
    if memory.frontmatter:  # read field by field as samantha-llm reads it; the deep one refused
        assert memory.frontmatter["date"] == dt.date(2026, 1, 28)
        assert memory.problems[0].message.startswith("strict YAML cannot read this")
        assert memory.problems[0].severity is Severity.WARNING
    else:
        assert memory.problems[0].message.split(":")[0] in (
            f"frontmatter is nested more than {frontmatter.MAX_DEPTH} levels deep; flatten it",
            "invalid YAML in frontmatter",
        )
    deep_key = yaml_text.split(":", 1)[0]
    with pytest.raises(StoreError, match="cannot edit"):
        store.edit(f"{ST}/deep.md", {deep_key: "flat"})


def test_the_deepest_nesting_allowed_is_read(empty_root: Path) -> None:
    brackets = frontmatter.MAX_DEPTH - 2  # the mapping and the innermost scalar are levels too
    text = f"---\na: {'[' * brackets}x{']' * brackets}\n---\n"
    memory = read_and_use(text.encode(), empty_root)
    assert memory.problems == () or "missing" in memory.problems[0].message
    assert memory.frontmatter["a"] is not None


LONG = 1_000_000
LONG_LINES = {
    "heading of spaces": f"---\ndate: 2026-01-28\n---\n# a{' ' * LONG}x\n",
    "heading of tabs": f"---\n---\n# {chr(9) * LONG}x",
    "flow line of spaces": f"---\ntopics: [a,\nb{' ' * LONG}c]\n---\n",
    "flow item of spaces": f"---\ntopics: [a{' ' * LONG}b]\n---\n",
    "value of 4 MB": f"---\ndate: 2026-01-28\nsummary: {'word ' * 800_000}\n---\n",
    "body line of 4 MB": f"---\ndate: 2026-01-28\n---\n{'# ' * 2_000_000}",
    "closing line of spaces": f"---\na: 1\n---{' ' * LONG}x\n",
    "one long comment": f"---\n#{' #' * LONG}\n---\n",
}


@pytest.mark.parametrize("text", LONG_LINES.values(), ids=LONG_LINES.keys())
def test_very_long_lines_are_read_in_linear_time(text: str, empty_root: Path) -> None:
    memory = read_and_use(text.encode(), empty_root)
    assert memory.chars == len(text)


# --- characters -----------------------------------------------------------------------------------

ODD_TEXT = {
    "right-to-left": ("\u202eevil\u202c \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627"),
    "combining": "Ame\u0301lie Z\u0334\u0358a\u0337lgo",
    "decomposed": "Cafe\u0301",
    "emoji": "🙂 ship it 🚀",
    "zero width": "a\u200bb\u200dc",
}


@pytest.mark.parametrize("odd", ODD_TEXT.values(), ids=ODD_TEXT.keys())
def test_odd_characters_are_kept_exactly_as_written(odd: str, empty_root: Path) -> None:
    text = f"---\ndate: 2026-01-28\ntopics: [{odd}]\nproject: '{odd}'\n---\n# {odd}\n\n{odd}\n"
    memory = read_and_use(text.encode(), empty_root)
    assert memory.problems == ()
    assert memory.title == odd and memory.topics == (odd,) and memory.project == odd
    assert memory.body == f"# {odd}\n\n{odd}\n"


CONTROL = {
    "NUL in a value": (b"---\ndate: 2026-01-28\ntopics: [a\x00b]\n---\n", "#x0000: control"),
    "NUL in the body": (b"---\ndate: 2026-01-28\ntopics: [a]\n---\n# T\x00\n", None),
    "escape in a value": (b"---\ndate: 2026-01-28\ntopics: [\x1b[31m]\n---\n", "#x001b: control"),
    "BOM then CRLF": (b"\xef\xbb\xbf---\r\ndate: 2026-01-28\r\ntopics: [a]\r\n---\r\n", None),
    "BOM inside a value": ("---\ndate: 2026-01-28\ntopics: [a\ufeffb]\n---\n".encode(), None),
    "old Mac CR only": (b"---\rdate: 2026-01-28\rtopics: [a]\r---\r", "no frontmatter"),
    "lone surrogate bytes": (b"---\ndate: 2026-01-28\ntopics: [\xed\xa0\x80]\n---\n", "not UTF-8"),
    "Latin-1": (b"---\ndate: 2026-01-28\ntopics: [caf\xe9]\n---\n", "not UTF-8"),
    "escaped NUL": (b'---\ndate: 2026-01-28\ntopics: ["a\\0b"]\n---\n', None),
}


@pytest.mark.parametrize(("raw", "problem"), CONTROL.values(), ids=CONTROL.keys())
def test_control_characters_boms_and_line_endings(
    raw: bytes, problem: str | None, empty_root: Path
) -> None:
    memory = read_and_use(raw, empty_root)
    messages = " | ".join(p.format() for p in memory.problems)
    if problem is None:
        assert memory.problems == () and memory.date == dt.date(2026, 1, 28), messages
    else:
        assert problem in messages
        assert memory.problems[0].line is not None, messages


# --- duplicate keys and values that do not fit their tag ------------------------------------------


def test_a_key_written_twice_is_reported_and_the_last_one_counts(tree) -> None:
    text = "---\ndate: 2026-01-28\nimportance: low\ntopics: [a]\nimportance: high\n---\n# Two\n"
    store = tree({f"{ST}/two.md": text})
    memory = store.get(f"{ST}/two.md")
    assert memory.importance == "high"  # as samantha-llm's line-by-line reader sees it too
    (problem,) = memory.problems
    assert problem.line == 5
    assert problem.message == (
        "key `importance` appears more than once (first on line 3); the last one counts: "
        "remove the others"
    )
    with pytest.raises(StoreError, match="`importance` appears more than once"):
        store.edit(f"{ST}/two.md", {"importance": "medium"})
    store.edit(f"{ST}/two.md", {"critical": True}, touch_updated=False)
    assert (store.root / ST / "two.md").read_text() == text.replace(
        "---\n#", "critical: true\n---\n#"
    )


TAGGED = {
    "!!bool maybe": "a value does not fit its `!!` tag (KeyError",
    "!!timestamp soon": "a value does not fit its `!!` tag (AttributeError",
    "!!int ten": "a value could not be read (invalid literal for int()",
    "!!float x": "a value could not be read (could not convert string to float",
    "!!binary aGk=": "a value is tagged `!!binary`, which samantha-llm cannot read",
    "!!set {a, b}": "a value is tagged `!!set`",
    "!!omap [a: 1]": "a value is tagged `!!omap`",
    "1" * 5000: "a number of more than 4300 digits cannot be read; quote it",
}


@pytest.mark.parametrize(("value", "words"), TAGGED.items(), ids=[*list(TAGGED)[:-1], "huge int"])
def test_values_that_do_not_fit_their_tag_are_reported(value: str, words: str, empty_root) -> None:
    memory = read_and_use(f"---\ndate: 2026-01-28\nx: {value}\n---\n".encode(), empty_root)
    assert not memory.frontmatter
    assert words in memory.problems[0].message, memory.problems

"""Every kind of bad input becomes a record with a problem saying where and what; never a crash."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from samantha_tui.core.basics.model import Kind, Memory, Severity
from samantha_tui.core.reading import frontmatter, reader
from samantha_tui.core.reading.reader import memory_from_bytes

from ..conftest import ST, TODAY, memory_text

GOOD = (
    "---\ndate: 2026-01-28\ntopics: [testing, ci]\nimportance: high\n---\n\n# Use pytest\n\nText.\n"
)


def read(text: str | bytes):
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return memory_from_bytes(f"{ST}/m.md", Kind.SHORT_TERM, raw, TODAY)


def only_problem(memory):
    assert len(memory.problems) == 1, memory.problems
    return memory.problems[0]


def test_good_file_has_every_field() -> None:
    memory = read(GOOD)
    assert memory.problems == ()
    assert memory.title == "Use pytest"
    assert memory.date == dt.date(2026, 1, 28)
    assert memory.age_days == (TODAY - dt.date(2026, 1, 28)).days
    assert memory.importance == "high"
    assert memory.topics == ("testing", "ci")
    assert memory.critical is False and memory.reference_count == 0


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("# Just a heading\n\nno frontmatter here\n", 1, "no frontmatter"),
        ("---\ndate: 2026-01-28\ntopics: [a]\n# never closed\n", 1, "never closed"),
        ("---\n[a, b\n---\n", 3, "invalid YAML"),
        ("---\n{{\n---\n", 3, "invalid YAML"),
        ("---\n- date\n- topics\n---\n", 2, "is a list"),
        ("---\njust words\n---\n", 2, "single value (just words)"),
        ("---\ndate: 2026-02-30\ntopics: [a]\n---\n", 2, "impossible date 2026-02-30"),
    ],
)
def test_unreadable_frontmatter(text: str, line: int, words: str) -> None:
    problem = only_problem(read(text))
    assert problem.line == line
    assert words in problem.message
    assert problem.path == f"{ST}/m.md"


@pytest.mark.parametrize(
    ("fields", "key", "words"),
    [
        ({"topics": "[a]"}, "date", "missing `date`"),
        ({"date": "2026-01-28"}, "topics", "missing `topics`"),
        ({"date": "2026-01-28", "topics": "[a]", "importance": "urgent"}, "importance", "'urgent'"),
        ({"date": "2026-01-28", "topics": "[a]", "reference_count": "-2"}, "reference_count", "-2"),
        (
            {"date": "2026-01-28", "topics": "[a]", "reference_count": "many"},
            "reference_count",
            "many",
        ),
        (
            {"date": "2026-01-28", "topics": "[a]", "critical": "'true'"},
            "critical",
            "true or false",
        ),
        ({"date": "2026-01-28", "topics": "[a]", "critical": "1"}, "critical", "true or false"),
        ({"date": "28/01/2026", "topics": "[a]"}, "date", "YYYY-MM-DD"),
        ({"date": "2026-01-28", "topics": "testing"}, "topics", "expected a list"),
    ],
)
def test_field_rules(fields: dict[str, str], key: str, words: str) -> None:
    text = memory_text(**fields)
    problem = only_problem(read(text))
    assert words in problem.message
    assert problem.severity is Severity.ERROR
    expected_line = next(
        (n for n, line in enumerate(text.splitlines(), 1) if line.startswith(f"{key}:")), 1
    )
    assert problem.line == expected_line


def test_unknown_type_is_a_soft_warning() -> None:
    memory = read(memory_text(date="2026-01-28", topics="[a]", type="musing"))
    problem = only_problem(memory)
    assert problem.severity is Severity.WARNING and "musing" in problem.message
    assert not memory.has_errors


def test_bom_is_read_as_text_not_as_part_of_the_first_line() -> None:
    memory = read(b"\xef\xbb\xbf" + GOOD.encode())
    assert memory.problems == ()
    assert memory.date == dt.date(2026, 1, 28)


def test_crlf_file_reads_like_lf() -> None:
    memory = read(GOOD.replace("\n", "\r\n"))
    assert memory.problems == ()
    assert memory.topics == ("testing", "ci")
    assert memory.title == "Use pytest"


def test_bytes_that_are_not_utf8() -> None:
    memory = read(GOOD.encode().replace(b"Text.", b"Caf\xe9 text."))
    problem = only_problem(memory)
    assert "not UTF-8" in problem.message and "0xe9" in problem.message
    assert problem.line == 9
    assert memory.date == dt.date(2026, 1, 28)  # the rest is still shown


def test_title_falls_back_to_the_file_name() -> None:
    memory = memory_from_bytes(
        f"{ST}/2026-01-28_api-auth_notes.md",
        Kind.SHORT_TERM,
        b"---\ndate: 2026-01-28\n---\n",
        TODAY,
    )
    assert memory.title == "2026 01 28 api auth notes"


def test_markup_in_a_title_is_kept_as_text() -> None:
    memory = read(GOOD.replace("# Use pytest", "# [bold]oops[/] and [/]"))
    assert memory.title == "[bold]oops[/] and [/]"


def test_scan_records_files_it_cannot_read(tree, monkeypatch: pytest.MonkeyPatch) -> None:
    store = tree({f"{ST}/locked.md": GOOD, f"{ST}/fine.md": GOOD})
    real = reader._read_bytes

    def deny(path: str) -> bytes:
        if path.endswith("/locked.md"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(reader, "_read_bytes", deny)
    memories = {m.name: m for m in store.scan().memories}
    assert memories["fine.md"].problems == ()
    assert "cannot read: Permission denied" in only_problem(memories["locked.md"]).message


def test_symlink_leading_outside_is_recorded_not_read(tree, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text(GOOD)
    store = tree({})
    (store.root / ST / "link.md").symlink_to(outside)
    memory = store.scan().memories[0]
    assert "symlink leads outside the tree" in only_problem(memory).message
    assert memory.body == ""


def test_huge_file_is_recorded_without_its_body(tree) -> None:
    store = tree({f"{ST}/big.md": GOOD + "x" * (5 * 1024 * 1024)})
    memory = store.scan().memories[0]
    assert "over the 5 MB limit" in only_problem(memory).message
    assert memory.body == "" and memory.size > 5 * 1024 * 1024


# The scan's fast paths must build exactly what the careful ones do.

_LINE_PARTS = st.sampled_from(
    ["---", "...", "--- ", "---\t", "---\r", " ---", "-- -", "....", "a: 1", "#", "", "\ufeff---"]
)


@given(st.lists(_LINE_PARTS, max_size=8), st.sampled_from(["", "\n", "\r\n"]))
def test_the_reading_split_matches_the_writers(lines: list[str], ending: str) -> None:
    text = "\n".join(lines) + ending
    try:
        block = frontmatter._find_block(text)
    except frontmatter.FrontmatterError:
        with pytest.raises(frontmatter.FrontmatterError):
            frontmatter._split(text)
        return
    split = frontmatter._split(text)
    if block is None:
        assert split is None
    else:
        assert split == (block.yaml_text, "".join(block.lines[block.close_index + 1 :]))


def test_a_record_built_from_state_equals_one_built_by_init() -> None:
    memory = memory_from_bytes(f"{ST}/a.md", Kind.SHORT_TERM, GOOD.encode(), TODAY)
    names = [field.name for field in dataclasses.fields(Memory)]
    assert list(vars(memory)) == names
    assert Memory(**{name: getattr(memory, name) for name in names}) == memory
    assert isinstance(memory.frontmatter, MappingProxyType)


def test_a_named_pipe_is_reported_not_waited_on(tree) -> None:
    store = tree({f"{ST}/fine.md": GOOD})
    os.mkfifo(store.root / ST / "pipe.md")
    memories = {m.name: m for m in store.scan().memories}
    assert memories["fine.md"].problems == ()
    assert "not a regular file (a named pipe); skipped" in only_problem(memories["pipe.md"]).message

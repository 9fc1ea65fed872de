"""The title heading: found and rewritten in place, every other byte kept; read as samantha-llm
reads it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from samantha_tui.core.reading import heading
from samantha_tui.core.reading.reader import title_of
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.curator import Curator
from tests.conftest import ST

FILE = "---\ndate: 2026-06-01\ntopics: [ci]\n---\n\n# Old title\n\nBody with # not a title.\n"


def samantha_llm_title(text: str) -> str | None:
    """The title as samantha-llm's search finds it: the first body line starting with `# `."""
    body = text
    if text.startswith("---\n"):
        parts = text.split("---\n", 2)
        if len(parts) == 3:
            body = parts[2]
    for line in body.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return None


def test_retitle_changes_only_the_heading_text() -> None:
    new = heading.retitle(FILE, "New title")
    assert new == FILE.replace("# Old title", "# New title")
    assert samantha_llm_title(new) == "New title"


def test_the_first_heading_after_the_frontmatter_is_the_one_changed() -> None:
    text = "---\ndate: 2026-06-01\n# a comment\n---\nIntro\n# First\n# Second\n"
    assert heading.retitle(text, "Changed") == text.replace("# First", "# Changed")


def test_crlf_bom_and_no_final_newline_are_kept() -> None:
    text = "\ufeff---\r\ndate: 2026-06-01\r\n---\r\n\r\n# Old\r\nBody"
    assert heading.retitle(text, "New") == text.replace("# Old", "# New")
    last = "---\ndate: 2026-06-01\n---\n# Old"
    assert heading.retitle(last, "New") == "---\ndate: 2026-06-01\n---\n# New"


def test_a_body_without_heading_gets_one_as_its_first_line() -> None:
    text = "---\ndate: 2026-06-01\n---\n\nJust text.\n"
    assert heading.retitle(text, "Named") == "---\ndate: 2026-06-01\n---\n\n# Named\n\nJust text.\n"
    bare = "---\ndate: 2026-06-01\n---\nJust text.\n"
    assert heading.retitle(bare, "Named") == "---\ndate: 2026-06-01\n---\n# Named\n\nJust text.\n"
    crlf = "---\r\ndate: 2026-06-01\r\n---\r\n"
    assert heading.retitle(crlf, "Named") == crlf + "# Named\r\n"
    unended = "---\ndate: 2026-06-01\n---"
    assert heading.retitle(unended, "Named") == unended + "\n# Named\n"


@pytest.mark.parametrize(
    ("title", "reason"),
    [("", "blank"), ("   ", "blank"), ("two\nlines", "line break"), ("a\u2028b", "line break")],
)
def test_titles_that_cannot_be_one_heading_line_are_refused(title: str, reason: str) -> None:
    with pytest.raises(heading.TitleError, match=reason):
        heading.retitle(FILE, title)


def test_a_control_character_is_refused() -> None:
    with pytest.raises(heading.TitleError, match="control characters"):
        heading.retitle(FILE, "bell\x07")


odd_titles = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Zl", "Zp"),
        blacklist_characters="\x1c\x1d\x1e\x85\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
        "\u2066\u2067\u2068\u2069",
    ),
    min_size=1,
    max_size=40,
).filter(lambda t: t.strip())


@given(
    title=odd_titles | st.sampled_from(['"quoted"', "C#", "# # hashes", "ünïcødé 漢字", "[/]"]),
    newline=st.sampled_from(["\n", "\r\n"]),
    final=st.booleans(),
    has_heading=st.booleans(),
)
def test_any_title_reads_back_and_only_its_line_changes(
    title: str, newline: str, final: bool, has_heading: bool
) -> None:
    lines = ["---", "date: 2026-06-01", "topics: [ci]", "---", ""]
    lines += ["# Old", "", "Body # here"] if has_heading else ["Body # here"]
    text = newline.join(lines) + (newline if final else "")
    new = heading.retitle(text, title)
    assert heading.current_title(new) == title.strip()
    if newline == "\n":
        assert samantha_llm_title(new) == title.strip()
    old_lines, new_lines = text.split(newline), new.split(newline)
    if has_heading:
        assert len(old_lines) == len(new_lines)
        differ = [i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b]
        assert differ == ([5] if title.strip() != "Old" else [])
    else:
        assert new.replace(f"# {title.strip()}{newline}{newline}", "", 1) == text


def test_a_form_save_with_a_title_writes_it_and_undo_puts_the_bytes_back(tree) -> None:
    rel = f"{ST}/2026-06-01_one.md"
    store = tree({rel: FILE})
    cur = Curator(store)
    cur.load()
    cur.reindex()
    memory = cur.get(rel)
    plan = edits.edit_fields(rel, {"importance": "high"}, (), memory.digest, title="Renamed")
    outcome = cur.apply(plan)
    after = (store.root / rel).read_text()
    assert after == FILE.replace("# Old title", "# Renamed").replace(
        "topics: [ci]\n", "topics: [ci]\nimportance: high\n"
    )
    assert cur.get(rel).title == "Renamed"
    assert f"{ST}/index.json" in outcome.indexes
    assert '"title": "Renamed"' in (store.root / ST / "index.json").read_text()
    cur.undo()
    assert (store.root / rel).read_text() == FILE
    assert title_of(cur.get(rel).body, rel) == "Old title"

"""The reader's parts without the app: status lines as Markdown, a problem's field, the folder
opener, and a project's notes read from disk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from samantha_tui.core.basics.model import Problem
from samantha_tui.core.basics.problem_field import field_of
from samantha_tui.core.writing.project_files import project_files
from samantha_tui.ui.folder_opener import NoOpener, opener_command
from samantha_tui.ui.markdown_source import keep_field_lines, markdown_source
from samantha_tui.ui.widgets.preview import PREVIEW_BODY_CHARS, preview_part

from ..conftest import TASKS


def test_a_run_of_status_lines_and_the_line_before_it_take_hard_breaks() -> None:
    text = "Intro line.\n**Status**: active\n**Started:** 2026-03-30\n__Owner__: dana\n\nNext.\n"
    assert keep_field_lines(text) == (
        "Intro line.  \n**Status**: active  \n**Started:** 2026-03-30  \n__Owner__: dana\n\nNext.\n"
    )


def test_code_blocks_headings_and_other_lines_are_left_alone() -> None:
    text = "```\n**Status**: in code\n**Next**: too\n```\n# Heading\n**A**: 1\nplain\nmore\n"
    assert keep_field_lines(text) == (
        "```\n**Status**: in code\n**Next**: too\n```\n# Heading\n**A**: 1  \nplain\nmore\n"
    )


def test_crlf_endings_stay_and_controls_are_escaped() -> None:
    assert keep_field_lines("**A**: 1\r\n**B**: 2\r\n") == "**A**: 1  \r\n**B**: 2\r\n"
    assert markdown_source("**A**: \x1b[2J\n**B**: 2\n") == "**A**: \\x1b[2J  \n**B**: 2\n"


def test_the_preview_lays_out_only_the_start_of_a_long_body() -> None:
    body = "line of text\n" * (2 * PREVIEW_BODY_CHARS // 13)
    shown = preview_part(body)
    assert len(shown) < PREVIEW_BODY_CHARS + 100
    assert shown.endswith("more characters: Enter reads them all.*\n")
    assert preview_part("short\n") == "short\n"


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ("`importance` is 'urgent'; expected low, medium or high", "importance"),
        ("missing `topics`; add a line `topics: [testing, ci]`", "topics"),
        ("the file name says 2026-01-01, `date` says 2026-01-02; rename the file", "date"),
        ("`repo_signals` is 'x'; expected a list such as `repo_signals: [x]`", None),
        ("no frontmatter: the file must start with a `---` line", None),
    ],
)
def test_the_field_a_problem_names(message: str, field: str | None) -> None:
    keys = ("date", "topics", "importance", "type")
    assert field_of(Problem("x.md", message), keys) == field


def test_the_opener_is_the_setting_then_the_platforms_own() -> None:
    found = {"xdg-open": "/usr/bin/xdg-open", "open": "/usr/bin/open"}.get
    setting = {"SAMANTHA_TUI_OPEN": "nautilus --new-window"}
    assert opener_command(setting, "linux", found) == ["nautilus", "--new-window"]
    assert opener_command({}, "linux", found) == ["xdg-open"]
    assert opener_command({}, "darwin", found) == ["open"]
    with pytest.raises(NoOpener, match="xdg-open is not installed; set \\$SAMANTHA_TUI_OPEN"):
        opener_command({}, "linux", lambda name: None)


def test_a_projects_notes_are_read_and_a_pipe_among_them_is_named_not_opened(tree) -> None:
    store = tree(
        {
            f"{TASKS}/gw/status.md": "---\ndate: 2026-05-01\ntopics: [gw]\nstatus: active\n---\n",
            f"{TASKS}/gw/decisions.md": b"# Decisions\n\nbad byte \xff here\n",
        }
    )
    os.mkfifo(store.root / TASKS / "gw" / "notes.md")
    store.scan()
    memory = store.get(f"{TASKS}/gw/status.md")
    notes = project_files(store, memory)
    assert [note.name for note in notes] == ["notes.md", "decisions.md"]
    assert notes[0].problem == "not a regular file (a named pipe); not read"
    assert "bad byte \ufffd here" in notes[1].text and "not UTF-8" in notes[1].problem


def test_a_note_that_links_out_of_the_tree_is_not_read(tree, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("secret\n")
    store = tree({f"{TASKS}/gw/status.md": "---\ndate: 2026-05-01\ntopics: [gw]\n---\n"})
    (store.root / TASKS / "gw" / "notes.md").symlink_to(outside)
    store.scan()
    memory = store.get(f"{TASKS}/gw/status.md")
    notes = [note for note in project_files(store, memory) if note.name == "notes.md"]
    assert len(notes) == 1 and "secret" not in notes[0].text
    assert "outside the tree" in (notes[0].problem or "")

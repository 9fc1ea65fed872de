"""The distinguishing line and the name a memory is shown by (core/views/naming.py), on files in
the layout samantha-llm's worker writes."""

from __future__ import annotations

import datetime as dt

from samantha_tui.core.basics.model import Kind, Listed, Memory
from samantha_tui.core.reading.distinguishing import LINE_CHARS, distinguishing_line, file_words
from samantha_tui.core.views.naming import Names, line_of, name_of, session_date

FOLDER = Kind.SHORT_TERM.folder


def worker_body(
    date: str,
    overview: str | None,
    decisions: tuple[str, ...] = (),
    session: str = "20261130_101500",
) -> str:
    """A body in the worker's layout: heading, then the sections it writes when they have text."""
    parts = [f"# Session Analysis - {date}", ""]
    if overview is not None:
        parts += ["## Overview", "", overview, ""]
    if decisions:
        parts += ["## Key Decisions", "", *(f"- {d}" for d in decisions), ""]
    parts += ["## Patterns & Insights", "", "- Small commits reviewed faster", ""]
    parts += ["## Key Learnings", "", "- The scheduler reads local time", ""]
    parts += ["## User Preferences & Working Style", "", "- Prefers short answers", ""]
    parts += ["## Action Items", "", "- [ ] Watch the first UTC run", ""]
    parts += [
        "## Session Metadata",
        "",
        "- **Workspace**: /home/pat/billing",
        "- **Duration**: 42 minutes",
        f"- **Session ID**: {session}",
        "",
    ]
    return "\n".join(parts)


def memory(name: str, body: str, kind: Kind = Kind.SHORT_TERM, digest: str = "") -> Memory:
    from samantha_tui.core.reading.heading import title_in_body

    title = title_in_body(body) or name
    return Memory(kind=kind, path=f"{kind.folder}/{name}", title=title, body=body, digest=digest)


# --- the line ---------------------------------------------------------------------------------


def test_the_overviews_first_sentence_is_the_line() -> None:
    body = worker_body(
        "2026-11-30",
        "Moved the billing cron to UTC. Then fixed the flaky invoice test.",
        ("Run the cron at 02:00 UTC",),
    )
    assert distinguishing_line(body, f"{FOLDER}/2026-11-30_billing.md") == (
        "Moved the billing cron to UTC"
    )


def test_an_overview_the_worker_cut_keeps_its_ellipsis_and_fits() -> None:
    summary = "word " * 120  # no sentence end: the worker cut it at 500 characters
    body = worker_body("2026-11-30", summary.strip()[:500] + "...")
    line = distinguishing_line(body, f"{FOLDER}/2026-11-30_x.md")
    assert line.startswith("word word") and line.endswith("…")
    assert len(line) <= LINE_CHARS


def test_without_an_overview_the_first_key_decision_is_the_line() -> None:
    body = worker_body("2026-11-30", None, ("Keep **Postgres** for `billing`", "Drop MySQL"))
    assert distinguishing_line(body, f"{FOLDER}/2026-11-30_keep.md") == "Keep Postgres for billing"


def test_without_overview_or_decisions_the_first_prose_is_the_line() -> None:
    body = (
        "# Notes\n\n## Context\n\n- a list item is not prose\n\n"
        "We chose [Redis](http://r) for locks. Then more.\n"
    )
    assert distinguishing_line(body, f"{FOLDER}/notes.md") == "We chose Redis for locks"


def test_code_and_tables_are_not_prose() -> None:
    body = "# Notes\n\n```\nprint('code is not prose.')\n```\n\n| a | b |\n\nThe real sentence.\n"
    assert distinguishing_line(body, f"{FOLDER}/notes.md") == "The real sentence"


def test_with_nothing_but_metadata_the_file_name_is_the_line() -> None:
    body = worker_body("2026-11-30", None)
    body = body[: body.index("## Patterns")] + body[body.index("## Session Metadata") :]
    assert distinguishing_line(body, f"{FOLDER}/2026-11-30_billing_cron.md") == "billing cron"


def test_file_words_drop_the_date_the_merge_suffix_and_name_a_project_by_its_folder() -> None:
    assert file_words(f"{FOLDER}/2026-11-30_billing_cron.md") == "billing cron"
    assert file_words(f"{FOLDER}/2026-11-30_billing_cron_20261130_140000.md") == "billing cron"
    tasks = Kind.CURRENT_TASKS.folder
    assert file_words(f"{tasks}/gateway-refactor/status.md") == "gateway refactor"


def test_control_characters_stay_in_the_line_for_the_ui_to_escape() -> None:
    body = worker_body("2026-11-30", "Set \x1b]0;title\x07 right. Next.")
    assert "\x1b" in distinguishing_line(body, f"{FOLDER}/x.md")


# --- the name ---------------------------------------------------------------------------------


def test_session_date_is_read_from_the_workers_heading_only() -> None:
    assert session_date("Session Analysis - 2026-11-30") == "2026-11-30"
    assert session_date("Session Analysis - 2026-11-30 billing") is None
    assert session_date("Decision: use UTC") is None


def test_a_session_is_named_by_its_line_dated_where_no_date_column_shows() -> None:
    m = memory("2026-11-30_billing.md", worker_body("2026-11-30", "Moved the billing cron to UTC."))
    names = Names.of([m])
    assert names.shown(m) == "Session 2026-11-30: Moved the billing cron to UTC"
    assert names.shown(m, dated=False) == "Session: Moved the billing cron to UTC"
    assert m.title == "Session Analysis - 2026-11-30"  # the record keeps its heading


def test_a_shared_heading_gets_the_line_and_a_unique_one_does_not() -> None:
    first = memory("a.md", "# Notes\n\nAbout the cache.\n")
    second = memory("b.md", "# Notes\n\nAbout the queue.\n")
    alone = memory("c.md", "# Decision: use UTC\n\nBecause cron.\n")
    names = Names.of([first, second, alone])
    assert names.shown(first) == "Notes: About the cache"
    assert names.shown(second) == "Notes: About the queue"
    assert names.shown(alone) == "Decision: use UTC"
    assert names.is_plain(alone) and not names.is_plain(first)


def test_several_sessions_of_one_day_read_apart() -> None:
    overviews = ("Moved the billing cron to UTC.", "Fixed the invoice PDF fonts.", None)
    records = [
        memory(
            f"2026-11-30_{n}.md",
            worker_body("2026-11-30", text, ("Pinned the PDF library",) if text is None else ()),
        )
        for n, text in enumerate(overviews)
    ]
    names = Names.of(records)
    shown = [names.shown(r, dated=False) for r in records]
    assert shown == [
        "Session: Moved the billing cron to UTC",
        "Session: Fixed the invoice PDF fonts",
        "Session: Pinned the PDF library",
    ]


def test_a_line_equal_to_the_heading_adds_nothing() -> None:
    assert name_of("notes", "notes", frozenset({"notes"})) == "notes"


def test_a_list_entry_carries_its_line_and_is_named_without_a_body() -> None:
    entry = Listed(
        Kind.SHORT_TERM,
        f"{FOLDER}/2026-11-30_x.md",
        "Session Analysis - 2026-11-30",
        dt.date(2026, 11, 30),
        None,
        "medium",
        None,
        0,
        False,
        None,
        (),
        "Moved the billing cron to UTC",
    )
    assert line_of(entry) == "Moved the billing cron to UTC"
    assert Names.of([entry]).shown(entry, dated=False) == "Session: Moved the billing cron to UTC"


def test_a_records_line_is_worked_out_once_per_file_version() -> None:
    body = worker_body("2026-11-30", "First version.")
    old = memory("2026-11-30_x.md", body, digest="d1")
    new = memory("2026-11-30_x.md", body.replace("First", "Second"), digest="d2")
    assert line_of(old) == "First version"
    assert line_of(new) == "Second version"
    assert line_of(old) == "First version"


# --- the command line ---------------------------------------------------------------------------


def test_search_prints_a_session_by_its_line_with_the_date(tmp_path, capsys) -> None:
    import json

    from samantha_tui.cli import main

    from ..conftest import make_tree

    front = "---\ndate: 2026-11-30\ntopics: [billing]\ntype: session-analysis\n---\n\n"
    root = make_tree(
        tmp_path / "tree",
        {
            f"{FOLDER}/2026-11-30_billing.md": front
            + worker_body("2026-11-30", "Moved the billing cron to UTC."),
            f"{FOLDER}/2026-11-30_fonts.md": front
            + worker_body("2026-11-30", "Fixed the invoice fonts."),
        },
    )
    assert main(["search", "billing", "--tree", str(root)]) == 0
    out = capsys.readouterr().out
    assert "Session 2026-11-30: Moved the billing cron to UTC  (" in out
    assert "Session Analysis" not in out
    assert main(["search", "billing", "--json", "--tree", str(root)]) == 0
    hit = json.loads(capsys.readouterr().out)["hits"][0]
    assert hit["title"] == "Session Analysis - 2026-11-30"  # the heading, as the file has it
    assert hit["name"] == "Session 2026-11-30: Moved the billing cron to UTC"


def test_a_merge_copy_reads_apart_from_its_original() -> None:
    title = "Session Analysis - 2026-11-30"
    body = f"# {title}\n\n## Overview\n\nMoved the billing cron to UTC.\n"
    folder = ".ai/short-term-memory/.ai"
    original = Memory(Kind.SHORT_TERM, f"{folder}/2026-11-30_billing_cron.md", title, body=body)
    copy = Memory(
        Kind.SHORT_TERM, f"{folder}/2026-11-30_billing_cron_20261130_163000.md", title, body=body
    )
    names = Names.of([original, copy])
    assert names.shown(original, dated=False) == "Session: Moved the billing cron to UTC"
    assert names.shown(copy, dated=False) == "(copy) Session: Moved the billing cron to UTC"

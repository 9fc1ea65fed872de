"""Files shaped the way samantha-llm's own code writes them: read, used by every rule, edited
exactly or refused with the line to fix. Also its meanings of scalars and its date checks."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from samantha_tui.cli import main
from samantha_tui.commands.edit import parse_value
from samantha_tui.core.basics.model import Kind, Severity
from samantha_tui.core.reading import frontmatter
from samantha_tui.core.reading.frontmatter import FrontmatterError, edit
from samantha_tui.core.reading.reader import memory_from_bytes
from samantha_tui.core.views import lifecycle
from samantha_tui.core.views.bootstrap import Signals, Tier, plan
from samantha_tui.core.views.indexes.entries import readable
from samantha_tui.core.writing.atomic import StoreError

from ..conftest import ST, TODAY

RUNBOOKS = ".ai/procedural-memory/.ai"
SESSION = "20261128_140000"


# --- a generator-shaped memory, the way samantha-llm's memory generator lays one out --------------


def topic_of(decision: str) -> str:
    """A topic as the generator derives one from a decision: the words before a `:`, `*`s
    trimmed, lower case, the first three joined by `_`, commas and dots dropped."""
    head = decision.split(":")[0].strip("*").strip().lower()
    return "_".join(head.split()[:3]).replace(",", "").replace(".", "")


def generated(decisions: list[str], importance: str = "high", date: dt.date = TODAY) -> str:
    topics = [topic_of(decision) for decision in decisions]
    lines = [
        "---",
        f"date: {date.isoformat()}",
        f"topics: [{', '.join(topics)}]",
        f"importance: {importance}",
        "type: session-analysis",
        "project: gateway",
        "reference_count: 0",
        f"session_id: {date.strftime('%Y%m%d')}_140000",
        "duration_minutes: 42",
        "---",
        "",
        f"# Session Analysis - {date.isoformat()}",
        "",
        "## Key Decisions",
        "",
        *(f"- {decision}" for decision in decisions),
        "",
    ]
    return "\n".join(lines)


# Decision openings that make the generator write a topics line strict YAML refuses.
HOSTILE = {
    "backtick": ("`npm ci` over install", "`npm_ci`_over"),
    "double quote": ('"Ship it" for v2', '"ship_it"_for'),
    "single quote": ("'Keep' the cache", "'keep'_the_cache"),
    "at sign": ("@dana owns deploys", "@dana_owns_deploys"),
    "percent": ("%timeit before tuning", "%timeit_before_tuning"),
    "exclamation mark": ("!important retry budget", "!important_retry_budget"),
    "double ampersand": ("&& chains in scripts", "&&_chains_in"),
    "pipe": ("| pipes stay", "|_pipes_stay"),
    "greater than": ("> quotes in docs", ">_quotes_in"),
    "brace": ("{config} stays typed", "{config}_stays_typed"),
    "hash": ("#hashtags in commits", "#hashtags_in_commits"),
    "question mark": ("? should we split", "?_should_we"),  # YAML reads a mapping, not text
}
WIP = ("[WIP] CSV encoding", "wip]_csv_encoding")  # samantha-llm strips `[` from both ends


def read(text: str, rel: str = f"{ST}/m.md", kind: Kind = Kind.SHORT_TERM):
    return memory_from_bytes(rel, kind, text.encode("utf-8"), TODAY)


def warnings_of(memory) -> list:
    return [p for p in memory.problems if p.severity is Severity.WARNING]


CASES = {**HOSTILE, "[WIP]": WIP}


@pytest.mark.parametrize(("decision", "topic"), CASES.values(), ids=CASES.keys())
def test_generated_memory_is_read_kept_and_warned_about(decision: str, topic: str) -> None:
    text = generated([decision, "Use Postgres for storage"])
    memory = read(text)
    assert memory.topics == (topic, "use_postgres_for")
    assert memory.date == TODAY and memory.importance == "high"
    assert memory.frontmatter["session_id"] == f"{TODAY.strftime('%Y%m%d')}_140000"
    assert memory.frontmatter["duration_minutes"] == 42
    assert not memory.has_errors
    (warning,) = warnings_of(memory)
    assert warning.line == 3
    assert warning.message.startswith("strict YAML cannot read this (")
    assert warning.message.endswith(
        f"samantha-llm reads topics as {json.dumps([topic, 'use_postgres_for'])}"
    )
    good, bad = readable([memory])
    assert good == [memory] and bad == []


@pytest.mark.parametrize(("decision", "topic"), CASES.values(), ids=CASES.keys())
def test_generated_memory_is_edited_exactly_or_refused(decision: str, topic: str) -> None:
    text = generated([decision, "Use Postgres for storage"])
    changed = edit(text, {"importance": "low", "critical": True})
    assert changed == text.replace("importance: high\n", "importance: low\n").replace(
        "duration_minutes: 42\n", "duration_minutes: 42\ncritical: true\n"
    )
    for change in ({"set_values": {"topics": ["fixed"]}}, {"unset": ["topics"]}):
        with pytest.raises(FrontmatterError, match="line 3 is not YAML samantha-tui can rewrite"):
            edit(text, **change)


def test_generated_memories_are_used_by_prune_promote_and_bootstrap(tree) -> None:
    old = TODAY - dt.timedelta(days=40)
    store = tree(
        {
            f"{ST}/{old.isoformat()}_npm_ci.md": generated(
                ["`npm ci` over install"], importance="low", date=old
            ),
            f"{ST}/{TODAY.isoformat()}_wip.md": generated(["[WIP] CSV encoding"]),
        }
    )
    assert all(not m.has_errors and warnings_of(m) for m in store.tree.memories)
    pruned = [c.path for c in lifecycle.prune(store.tree).candidates]
    assert pruned == [f"{ST}/{old.isoformat()}_npm_ci.md"]
    result = plan(store.tree, Signals(), TODAY)
    recent = [i.path for i in result.items if i.tier is Tier.RECENT_HIGH]
    assert recent == [f"{ST}/{TODAY.isoformat()}_wip.md"]


def test_search_and_the_index_keep_generated_memories(tree, capsys) -> None:
    store = tree({f"{ST}/{TODAY.isoformat()}_wip.md": generated(["[WIP] CSV encoding"])})
    assert main(["index", "--tree", str(store.root)]) == 0
    index = json.loads((store.root / ST / "index.json").read_text())
    assert [e["topics"] for e in index["recent"]["high_importance"]] == [["wip]_csv_encoding"]]
    capsys.readouterr()
    assert main(["search", "csv", "--tree", str(store.root)]) == 0
    assert "_wip.md" in capsys.readouterr().out


# --- the runbook correction line ------------------------------------------------------------------

DRAFT = """---
date: 2026-05-28
updated: 2026-05-28
domain: db-migrations
topics: [alembic]
type: runbook
confidence: low
triggers:
  positive:
    repo_signals: ["ledger"]
    path_signals: []
    keyword_signals: ["alembic"]
    domain_signals: []
  negative: []
corrections: []
---

# Db Migrations Runbook
"""


def corrected(text: str) -> str:
    """A correction appended the way samantha-llm's merge does it: right after `corrections:`,
    which leaves the `[]` that followed at the end of the last new line."""
    entry = (
        "\n  - date: 2026-05-29\n"
        '    trigger: "reports"\n'
        '    wrong_interpretation: "reports"\n'
        '    correct_interpretation: "dbt"\n'
        '    action: "add anti-signal"'
    )
    return text.replace("corrections:", "corrections:" + entry, 1)


def test_a_corrected_runbook_keeps_its_triggers_and_loads(tree) -> None:
    text = corrected(DRAFT)
    assert 'action: "add anti-signal" []\n' in text
    store = tree({f"{RUNBOOKS}/db-migrations.md": text})
    (memory,) = store.tree.memories
    assert not memory.has_errors
    (warning,) = warnings_of(memory)
    assert warning.line == 20
    assert warning.message.endswith('samantha-llm reads action as "\\"add anti-signal\\" []"')
    positive = memory.frontmatter["triggers"]["positive"]
    assert (
        positive["repo_signals"] == ["ledger"] and memory.frontmatter["domain"] == "db-migrations"
    )
    assert "corrections" not in memory.frontmatter  # samantha-llm reads no value there either
    result = plan(store.tree, Signals(repos=("ledger",), keywords=("alembic",)), TODAY)
    assert [i.path for i in result.items if i.tier is Tier.RUNBOOK] == [memory.path]
    edited = store.edit(memory.path, {"confidence": "medium"}, touch_updated=False)
    assert (store.root / memory.path).read_text() == text.replace(
        "confidence: low", "confidence: medium"
    )
    assert edited.frontmatter["confidence"] == "medium"
    with pytest.raises(StoreError, match="line 20 is not YAML samantha-tui can rewrite safely"):
        store.edit(memory.path, {"corrections": []})
    assert (store.root / memory.path).read_text() == text.replace(
        "confidence: low", "confidence: medium"
    )


def test_a_scalar_trigger_signal_is_an_error_on_its_line(tree) -> None:
    text = DRAFT.replace('repo_signals: ["ledger"]', "repo_signals: db-infra").replace(
        "negative: []", "negative: reports"
    )
    store = tree({f"{RUNBOOKS}/db.md": text})
    (memory,) = store.tree.memories
    errors = {(p.line, p.message.split(";")[0]) for p in memory.problems}
    assert errors == {
        (10, "`repo_signals` is 'db-infra'"),
        (14, "`negative` is 'reports'"),
    }
    assert memory.has_errors


# --- scalars mean what they mean to samantha-llm --------------------------------------------------


def test_session_id_and_topic_words_stay_text() -> None:
    text = (
        f"---\ndate: 2026-01-28\ntopics: [yes, no, null, 42, on, off, ~]\nsession_id: {SESSION}\n"
        "reference_count: 017\n---\n# T\n"
    )
    memory = read(text)
    assert memory.problems == ()
    assert memory.topics == ("yes", "no", "null", "42", "on", "off", "~")
    assert memory.frontmatter["session_id"] == SESSION
    assert memory.reference_count == 17  # decimal, as samantha-llm's int() reads it


def test_set_writes_a_session_id_and_topic_words_back_unchanged(tree) -> None:
    text = "---\ndate: 2026-01-28\ntopics: [a]\nsession_id: 1\n---\n# T\n"
    store = tree({f"{ST}/m.md": text})
    path = store.root / ST / "m.md"
    assert parse_value(SESSION, "session_id") == SESSION
    assert parse_value("[yes, 42]", "topics") == ["yes", "42"]
    assert main(["set", "--keep-updated", str(path), f"session_id={SESSION}"]) == 0
    assert main(["set", "--keep-updated", str(path), "topics=[yes, 42, null]"]) == 0
    assert path.read_text() == text.replace("session_id: 1", f"session_id: {SESSION}").replace(
        "[a]", "[yes, 42, null]"
    )


def test_a_quoted_date_is_a_date_with_a_warning(tree) -> None:
    old = (TODAY - dt.timedelta(days=40)).isoformat()
    text = f'---\ndate: "{old}"\ntopics: [x]\nimportance: low\n---\n# Quoted\n'
    store = tree({f"{ST}/quoted.md": text})
    (memory,) = store.tree.memories
    assert memory.date == dt.date.fromisoformat(old) and not memory.has_errors
    (warning,) = warnings_of(memory)
    assert warning.line == 2 and "`date` is quoted" in warning.message
    assert [c.path for c in lifecycle.prune(store.tree).candidates] == [memory.path]


def test_a_local_tag_is_text_to_samantha_llm() -> None:
    memory = read("---\ndate: 2026-01-28\ntopics: [a]\nx: !custom x\n---\n")
    assert memory.frontmatter["x"] == "!custom x"
    (warning,) = warnings_of(memory)
    assert warning.line == 4 and "YAML reads `!custom` as a type tag" in warning.message


def test_yaml_own_tags_stay_refused() -> None:
    memory = read("---\ndate: 2026-01-28\nx: !!binary aGk=\n---\n")
    assert not memory.frontmatter and memory.has_errors


# --- Unicode line breaks inside quoted values -----------------------------------------------------


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85"], ids=["LS", "PS", "NEL"])
def test_edits_after_a_unicode_line_break_touch_only_their_lines(brk: str) -> None:
    text = f'---\ntitle: "one{brk}two"\ndate: 2026-01-28\nnote: x\ntopics: [a]\n---\n# T\n'
    # YAML folds NEL inside quotes into a space and keeps LS and PS; either way one value.
    assert frontmatter.parse(text).mapping["title"] in (f"one{brk}two", "one two")
    assert edit(text, {"note": "y"}) == text.replace("note: x", "note: y")
    assert edit(text, unset=["note"]) == text.replace("note: x\n", "")
    assert edit(text, {"title": "plain"}) == text.replace(f'"one{brk}two"', "plain")


def test_set_and_unset_after_a_line_separator_from_the_cli(tree, capsys) -> None:
    text = '---\ntitle: "a\u2028b"\ndate: 2026-01-28\ntopics: [a]\nnote: x\n---\n'
    store = tree({f"{ST}/m.md": text})
    path = store.root / ST / "m.md"
    assert main(["unset", "--keep-updated", str(path), "note"]) == 0
    assert path.read_text() == text.replace("note: x\n", "")


# --- samantha-llm's date checks -------------------------------------------------------------------


def test_future_and_mismatched_dates_are_warnings(tree, capsys) -> None:
    ahead = (TODAY + dt.timedelta(days=3)).isoformat()
    store = tree(
        {
            f"{ST}/2026-01-05_named.md": "---\ndate: 2026-01-06\ntopics: [a]\n---\n",
            f"{ST}/later.md": f"---\ndate: {ahead}\ntopics: [a]\n---\n",
        }
    )
    found = {m.name: [(p.line, p.message) for p in warnings_of(m)] for m in store.tree.memories}
    assert found["2026-01-05_named.md"] == [
        (
            2,
            "the file name says 2026-01-05, `date` says 2026-01-06; rename the file or fix `date` "
            "so they agree",
        )
    ]
    assert found["later.md"] == [
        (2, f"`date` {ahead} is in the future; fix it to the day it was written")
    ]
    assert main(["check", str(store.root)]) == 0  # warnings only
    assert main(["check", "--strict", str(store.root)]) == 1
    assert "warning: `date`" in capsys.readouterr().out


def test_a_cached_record_drops_the_future_warning_once_the_day_comes(tree, monkeypatch) -> None:
    import os

    ahead = TODAY + dt.timedelta(days=3)
    store = tree({f"{ST}/later.md": f"---\ndate: {ahead.isoformat()}\ntopics: [a]\n---\n"})
    long_ago = dt.datetime(2020, 1, 1).timestamp()
    os.utime(store.root / ST / "later.md", (long_ago, long_ago))
    store.scan()  # cached now
    from samantha_tui.core.writing.store import Store

    later = Store(store.root, lambda: ahead)
    (memory,) = later.scan().memories
    assert warnings_of(memory) == []

"""Index entries carry the values samantha-llm wrote with the meaning samantha-llm gives them.

samantha-llm never parses YAML: its worker reads a frontmatter line as the text after `: `, kept
as written (`yes` stays `yes`, quotes stay), and its merge finds a runbook by the `domain` text in
the procedural index.json and appends signals to each `triggers.positive` list of its entry. So a
YAML 1.1 word (`yes`, `on`, `null`, ...) must never reach an index as a bool or nothing, and a
trigger signal written as one word must never reach it as text the merge cannot append to.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.commands.edit import parse_value
from samantha_tui.core.basics import schema
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.reading import frontmatter
from samantha_tui.core.reading.reader import memory_from_bytes
from samantha_tui.core.views.indexes.entries import MEMORY as MEMORY_SHAPE
from samantha_tui.core.views.indexes.entries import RUNBOOK as RUNBOOK_SHAPE
from samantha_tui.core.views.indexes.entries import memory_entry, runbook_entry
from samantha_tui.core.views.indexes.merge import merge_entry
from samantha_tui.core.writing.door import apply
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY, make_tree

PROC = ".ai/procedural-memory/.ai"
WORDS = ("yes", "no", "on", "off", "true", "false", "null", "~", "Yes", "NO")


def read(text: str, kind: Kind = Kind.SHORT_TERM, name: str = "m.md"):
    folder = PROC if kind is Kind.PROCEDURAL else ST
    return memory_from_bytes(f"{folder}/{name}", kind, text.encode(), TODAY)


def memo(**fields: str) -> str:
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\ndate: 2026-06-10\ntopics: [a]\nimportance: high\n{lines}---\n\n# Memo\n\nBody.\n"


def runbook(domain: str = "db-infra", repo: str = '["ledger"]', negative: str = " []") -> str:
    return (
        "---\n"
        "date: 2026-06-01\n"
        f"domain: {domain}\n"
        "topics: [db]\n"
        "type: runbook\n"
        "confidence: medium\n"
        "triggers:\n"
        "  positive:\n"
        f"    repo_signals: {repo}\n"
        '    path_signals: ["migrations/"]\n'
        f"  negative:{negative}\n"
        "---\n\n# Db Infra Runbook\n\nHow to change the database layer.\n"
    )


# --- scalars: the text as written ---------------------------------------------------------------


@pytest.mark.parametrize("word", WORDS)
def test_a_yaml_word_stays_the_text_samantha_llm_reads(word: str) -> None:
    memory = read(memo(project=word, type=word))
    assert memory.frontmatter["project"] == word and memory.project == word
    entry = memory_entry(Kind.SHORT_TERM, memory)
    assert entry["project"] == word and entry["type"] == word
    assert not [p for p in memory.problems if "`project`" in p.message]


@pytest.mark.parametrize("word", ("yes", "on", "true", "off", "null"))
def test_a_runbook_domain_word_stays_its_text_in_the_entry(word: str) -> None:
    memory = read(runbook(domain=word), Kind.PROCEDURAL, f"{word}.md")
    entry = runbook_entry(memory)
    assert entry["domain"] == word
    assert not memory.has_errors, memory.problems


def test_confidence_and_status_words_are_their_text() -> None:
    memory = read(runbook().replace("confidence: medium", "confidence: on"), Kind.PROCEDURAL)
    assert runbook_entry(memory)["confidence"] == "on"


def test_a_quoted_value_is_its_text_and_an_index_spelling_it_quoted_stays() -> None:
    memory = read(memo(project='"q"', type="'decision'"))
    entry = memory_entry(Kind.SHORT_TERM, memory)
    assert (entry["project"], entry["type"]) == ("q", "decision")
    assert memory.problems == ()
    # The worker indexed that line with its quotes: its entry keeps them.
    worker = {"file": "m.md", "project": '"q"', "type": "'decision'"}
    merged = merge_entry(entry, worker, MEMORY_SHAPE)
    assert (merged["project"], merged["type"]) == ('"q"', "'decision'")
    # Another project in quotes is another project: the file's value replaces it.
    assert merge_entry(entry, {**worker, "project": '"r"'}, MEMORY_SHAPE)["project"] == "q"


def test_a_comment_after_a_word_is_no_part_of_it() -> None:
    memory = read(runbook(domain="yes  # the yes runbook"), Kind.PROCEDURAL, "yes.md")
    assert runbook_entry(memory)["domain"] == "yes"


def test_digits_and_plain_words_read_as_before() -> None:
    memory = read(memo(project="gateway", type="decision"))
    entry = memory_entry(Kind.SHORT_TERM, memory)
    assert (entry["project"], entry["type"]) == ("gateway", "decision")
    assert memory.problems == ()


def test_check_does_not_flag_a_word_name() -> None:
    assert schema.value_error("project", "yes") is None
    for word in WORDS:
        memory = read(memo(project=word), Kind.SHORT_TERM)
        assert not memory.has_errors, memory.problems


def test_set_reads_a_typed_word_as_its_text_and_writes_it_bare() -> None:
    assert parse_value("yes", "project") == "yes"
    assert parse_value("on", "domain") == "on"
    text = memo(project="gateway")
    edited = frontmatter.edit(text, {"project": "yes"})
    assert edited == text.replace("project: gateway", "project: yes")


# --- trigger lists ------------------------------------------------------------------------------


def test_trigger_signal_words_are_text() -> None:
    memory = read(runbook(repo="[yes, 42, null]"), Kind.PROCEDURAL)
    assert runbook_entry(memory)["triggers"]["positive"]["repo_signals"] == ["yes", "42", "null"]


def test_a_scalar_signal_is_never_put_in_an_entry() -> None:
    memory = read(runbook(repo="db-infra", negative=" reports"), Kind.PROCEDURAL)
    triggers = runbook_entry(memory)["triggers"]
    assert "repo_signals" not in triggers["positive"] and "negative" not in triggers
    assert triggers["positive"]["path_signals"] == ["migrations/"]


def test_a_scalar_signal_leaves_the_index_entry_as_it_was() -> None:
    old = {
        "file": "m.md",
        "domain": "db-infra",
        "triggers": {
            "positive": {"repo_signals": ["db-infra", "pg"], "path_signals": []},
            "negative": [{"signal": "x", "reason": "y"}],
        },
    }
    memory = read(runbook(repo="db-infra", negative=" reports"), Kind.PROCEDURAL)
    merged = merge_entry(runbook_entry(memory), old, RUNBOOK_SHAPE)
    assert merged["triggers"]["positive"]["repo_signals"] == ["db-infra", "pg"]
    assert merged["triggers"]["negative"] == [{"signal": "x", "reason": "y"}]


# --- the commands ---------------------------------------------------------------------------------


OLD_RUNBOOK_ENTRY = {
    "file": "yes.md",
    "domain": "yes",
    "summary": "How to change the database layer.",
    "triggers": {
        "positive": {
            "repo_signals": ["ledger", "pg"],
            "path_signals": ["migrations/"],
        },
        "negative": [{"signal": "x", "reason": "y"}],
    },
    "confidence": "medium",
    "corrections_count": 0,
}


def word_tree(root: Path, repo: str = '["ledger"]') -> Path:
    make_tree(
        root,
        {
            f"{PROC}/yes.md": runbook(domain="yes", repo=repo),
            f"{ST}/2026-06-10_on.md": memo(project="yes"),
            f"{ST}/2026-06-10_quoted.md": memo(project='"q"'),
        },
    )
    index = {"last_updated": "2026-06-14", "total_runbooks": 1, "runbooks": [OLD_RUNBOOK_ENTRY]}
    (root / PROC / "index.json").write_text(json.dumps(index, indent=2))
    return root


def runbooks(root: Path) -> list[dict]:
    return json.loads((root / PROC / "index.json").read_text())["runbooks"]


def projects(root: Path) -> dict[str, str]:
    data = json.loads((root / ST / "index.json").read_text())
    entries = data["recent"]["high_importance"] + data["recent"]["medium_importance"]
    return {entry["file"]: entry["project"] for entry in entries}


def test_index_writes_words_as_samantha_llm_reads_them(tmp_path: Path, capsys) -> None:
    root = word_tree(tmp_path / "cerebrum")
    assert main(["index", str(root)]) == 0
    (entry,) = runbooks(root)
    assert entry["domain"] == "yes" and entry["confidence"] == "medium"
    assert projects(root) == {"2026-06-10_on.md": "yes", "2026-06-10_quoted.md": "q"}
    assert main(["index", "--check", str(root)]) == 0
    capsys.readouterr()
    assert main(["check", str(root)]) == 0, capsys.readouterr().out


def test_index_keeps_the_quotes_of_a_project_the_worker_indexed(tmp_path: Path) -> None:
    root = word_tree(tmp_path / "cerebrum")
    assert main(["index", str(root)]) == 0
    index = root / ST / "index.json"
    data = json.loads(index.read_text())
    for entry in data["recent"]["high_importance"]:
        if entry["file"] == "2026-06-10_quoted.md":
            entry["project"] = '"q"'  # as the worker's finalize reads `project: "q"`
    index.write_text(json.dumps(data, indent=2))
    before = index.read_bytes()
    assert main(["index", str(root)]) == 0
    assert index.read_bytes() == before
    assert main(["index", "--check", str(root)]) == 0
    path = root / ST / "2026-06-10_quoted.md"
    assert main(["set", str(path), "reference_count=2", "--keep-updated"]) == 0
    assert projects(root)["2026-06-10_quoted.md"] == '"q"'


def test_set_on_a_word_domain_keeps_the_domain_samantha_llm_finds(tmp_path: Path) -> None:
    root = word_tree(tmp_path / "cerebrum")
    assert main(["set", str(root / PROC / "yes.md"), "confidence=high", "--keep-updated"]) == 0
    (entry,) = runbooks(root)
    assert entry["domain"] == "yes" and entry["confidence"] == "high"


def test_set_project_yes_writes_it_bare_and_indexes_it_as_text(tmp_path: Path) -> None:
    root = word_tree(tmp_path / "cerebrum")
    path = root / ST / "2026-06-10_quoted.md"
    assert main(["set", str(path), "project=yes", "--keep-updated"]) == 0
    assert "project: yes\n" in path.read_text()
    assert projects(root)["2026-06-10_quoted.md"] == "yes"


def test_index_leaves_a_scalar_signal_as_the_index_had_it_and_says_so(
    tmp_path: Path, capsys
) -> None:
    root = word_tree(tmp_path / "cerebrum", repo="db-infra")
    assert main(["index", str(root)]) == 0
    out = capsys.readouterr().out
    (entry,) = runbooks(root)
    assert entry["triggers"]["positive"]["repo_signals"] == ["ledger", "pg"]
    assert entry["triggers"]["negative"] == [{"signal": "x", "reason": "y"}]
    assert "triggers.positive.repo_signals" in out and "not a list" in out
    assert "index entry keeps" in out


def test_set_leaves_a_scalar_signal_as_the_index_had_it_and_says_so(tmp_path: Path, capsys) -> None:
    root = word_tree(tmp_path / "cerebrum")
    path = root / PROC / "yes.md"
    # The file's list turned into one word by hand: the index keeps its list.
    path.write_text(path.read_text().replace('repo_signals: ["ledger"]', "repo_signals: ledger"))
    assert main(["set", str(path), "confidence=high", "--keep-updated"]) == 0
    out = capsys.readouterr().out
    (entry,) = runbooks(root)
    assert entry["triggers"]["positive"]["repo_signals"] == ["ledger", "pg"]
    assert entry["confidence"] == "high"
    assert "triggers.positive.repo_signals" in out and "index entry keeps" in out


def test_a_new_runbook_with_a_scalar_signal_gets_an_entry_without_it(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "cerebrum", {f"{PROC}/db.md": runbook(repo="db-infra")})
    assert main(["index", str(root)]) == 0
    (entry,) = runbooks(root)
    assert entry["triggers"]["positive"] == {"path_signals": ["migrations/"]}
    assert entry["triggers"]["negative"] == []


def test_an_edit_that_turns_a_signal_list_into_a_word_takes_nothing_from_the_index(
    tmp_path: Path,
) -> None:
    root = word_tree(tmp_path / "cerebrum")
    store = Store(root, lambda: TODAY)
    store.scan()
    rel = f"{PROC}/yes.md"
    triggers = {"positive": {"repo_signals": "ledger", "path_signals": ["migrations/"]}}
    edit = Operation("edit", rel, values={"triggers": {**triggers, "negative": "reports"}})
    apply(store, Plan(f"edit {rel}", (edit,), rule="set"))
    (entry,) = runbooks(root)
    assert entry["triggers"]["positive"]["repo_signals"] == ["ledger", "pg"]
    assert entry["triggers"]["negative"] == [{"signal": "x", "reason": "y"}]

"""`samantha-tui health`: the text report grouped by check, hostile names escaped, the JSON shape
with every finding, and the exit code (1 on an error finding, as `check`)."""

from __future__ import annotations

import json

import pytest

from samantha_tui.cli import main
from samantha_tui.commands import health as command
from tests.conftest import MEANING_ON, ST, TODAY, use_settings

HOSTILE = f"{ST}/2026-06-10_\x1b[31mred\nforged: line\u202e.md"
PLAIN = f"{ST}/2026-06-11_plain.md"


def text(topics: str = "[ci]", body: str = "It says what it is.") -> str:
    return f"---\ndate: {TODAY.isoformat()}\ntopics: {topics}\n---\n\n# T\n\n{body}\n"


def test_the_report_groups_by_check_and_escapes_what_file_names_hold(tree, capsys) -> None:
    store = tree({HOSTILE: text("[]"), PLAIN: text(body="Ship it tomorrow.")})
    assert main(["health", str(store.root)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\x1b[31mred" in out
    assert not any(line.startswith("forged") for line in out.splitlines())
    lines = out.splitlines()
    assert lines[0] == f"health of {store.root}: {lines[0].rsplit(': ', 1)[1]}"
    assert lines[1] == "semantic checks: off (turned off in the settings (meaning.enabled = false))"
    assert "no topics (1)" in lines and "relative date (1)" in lines
    at = lines.index("relative date (1)")
    assert lines[at + 1].startswith("  short-term/2026-06-11_plain.md:8: ")
    assert lines[at + 2].startswith("    fix: o: ")


def test_json_has_every_finding_in_the_documented_shape(tree, capsys) -> None:
    store = tree({HOSTILE: text("[]"), PLAIN: text(body="Ship it tomorrow.")})
    assert main(["health", "--json", "--tree", str(store.root)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"root", "score", "errors", "warnings", "semantic", "findings", "notes"}
    assert data["semantic"]["on"] is False
    checks = [f["check"] for f in data["findings"]]
    assert "no topics" in checks and "relative date" in checks and "index drift" in checks
    assert data["warnings"] == len(data["findings"]) and data["errors"] == 0
    named = next(f for f in data["findings"] if f["check"] == "no topics")
    assert named["paths"] == [HOSTILE]  # JSON keeps the name as it is, escaped by json.dumps
    assert set(named["fix"]) == {"action", "words", "field", "section"}
    assert named["fix"]["field"] == "topics"
    for key in ("score", "errors", "warnings", "findings", "notes"):
        assert key in command.JSON_SHAPE


def test_a_conflict_found_by_meaning_exits_1_and_the_semantic_line_counts_the_pairs(
    tree, capsys, monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    """With the model on (the tests' settings turn it off), a real conflict is found offline."""
    use_settings(monkeypatch, tmp_path, MEANING_ON)
    store = tree(
        {
            PLAIN: text("[js, tooling]", "Always use pnpm for installs in this repo, never npm."),
            f"{ST}/2026-06-12_other.md": text(
                "[js, tooling]", "Never use pnpm for installs in this repo; always npm."
            ),
        }
    )
    assert main(["health", str(store.root)]) == 1
    out = capsys.readouterr().out
    assert "semantic checks: on (1 close pair found, 0 dismissed)" in out
    assert "conflict (1)" in out and "error: " in out and "pnpm" in out
    assert main(["health", "--json", str(store.root)]) == 1
    assert json.loads(capsys.readouterr().out)["errors"] == 1


def test_with_meaning_turned_off_the_report_says_so_and_still_runs(tree, capsys) -> None:
    store = tree({PLAIN: text()})
    assert main(["health", "--json", str(store.root)]) == 0
    semantic = json.loads(capsys.readouterr().out)["semantic"]
    assert semantic["on"] is False and "meaning.enabled = false" in semantic["reason"]


def test_the_help_documents_the_json_shape(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["health", "--help"])
    out = capsys.readouterr().out
    assert "--json prints one object" in out and "fix: {action, words, field, section}" in out

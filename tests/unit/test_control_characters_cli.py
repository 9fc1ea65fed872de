"""Control characters in a tree never reach the terminal from a headless command: core/visible
shows them as escapes that read back as the original, every command prints them so, and JSON
output keeps the exact strings."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.visible import (
    has_hidden_characters,
    visible,
    visible_lines,
    visible_with_spans,
)
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY, make_tree
from ..control_characters import EVIL, NAME, OLD, RECENT, TITLE, assert_clean, root

__all__ = ["root"]  # the fixture, from control_characters.py


# --- core/visible --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x00", "\\x00"),
        ("\x1b", "\\x1b"),
        ("\x07", "\\x07"),
        ("\r", "\\r"),
        ("\t", "\\t"),
        ("\n", "\\n"),
        ("\x7f", "\\x7f"),
        ("\x80", "\\x80"),
        ("\x9b", "\\x9b"),
        ("\x9f", "\\x9f"),
        ("\u061c", "\\u061c"),
        ("\u200e", "\\u200e"),
        ("\u200f", "\\u200f"),
        ("\u202a", "\\u202a"),
        ("\u202e", "\\u202e"),
        ("\u2066", "\\u2066"),
        ("\u2069", "\\u2069"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
        ("\udcff", "\\udcff"),
    ],
)
def test_each_class_of_character_is_escaped(raw: str, shown: str) -> None:
    assert visible(f"a{raw}b") == f"a{shown}b"
    assert has_hidden_characters(raw)


def test_plain_text_is_unchanged() -> None:
    plain = "Grüße, 日本語, emoji 👍🏽 with a ZWJ 👩‍💻, [bold]x[/], C:\\path\\x41, a\u00a0b"
    assert visible(plain) == plain
    assert visible_lines(plain) == plain
    assert not has_hidden_characters(plain)


def test_the_escapes_read_back_as_the_original() -> None:
    raw = EVIL + "\x00\x85\u2028\u2066\t\n"
    assert ast.literal_eval(f'"{visible(raw)}"') == raw
    assert "\n" not in visible(raw)


def test_the_multi_line_form_keeps_line_breaks_and_tabs_only() -> None:
    assert visible_lines("a\n\tb\r\nc") == "a\n\tb\r\nc"
    assert visible_lines("a\rb\x1b[2J\u2028") == "a\\rb\\x1b[2J\\u2028"


def test_non_utf8_file_names_print_as_escapes() -> None:
    name = b"caf\xe9.md".decode("utf-8", "surrogateescape")
    assert visible(name) == "caf\\udce9.md"
    visible(name).encode("utf-8")  # strict: a surrogate left in would raise here


def test_spans_move_with_the_escapes() -> None:
    text, spans = visible_with_spans("a\x1bbc", [(2, 4)])
    assert text == "a\\x1bbc"
    assert [text[s:e] for s, e in spans] == ["bc"]


# --- headless ------------------------------------------------------------------------------------


def run(capsysbinary: pytest.CaptureFixture[bytes], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsysbinary.readouterr()
    text = (out + err).decode("utf-8")
    return code, text


HUMAN = [
    ("search", "st"),
    ("search", "pwned"),
    ("check",),
    ("index", "--check"),
    ("index",),
    ("review",),
    ("prune",),
    ("promote",),
    ("escalate",),
    ("dedupe",),
    ("complete",),
    ("complete", "--project", f"done {NAME}"),
    ("complete", "--project", f"nothing {EVIL}"),
    ("bootstrap", "--project", NAME),
    ("trash", "list"),
    ("recover",),
]


@pytest.mark.parametrize("argv", HUMAN, ids=lambda argv: " ".join(argv)[:30])
def test_headless_output_holds_no_control_character(
    root: Path, capsysbinary: pytest.CaptureFixture[bytes], argv: tuple[str, ...]
) -> None:
    code, text = run(capsysbinary, *argv[:1], "--tree", str(root), *argv[1:])
    assert code in (0, 1), text
    assert_clean(text)


def test_search_shows_the_title_escaped(
    root: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    _, text = run(capsysbinary, "search", "--tree", str(root), "pwned")
    assert visible(TITLE) in text and visible(RECENT) in text


def test_check_and_index_name_the_files_escaped(
    root: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    _, text = run(capsysbinary, "check", "--tree", str(root))
    assert visible(OLD) in text  # its importance is not low, medium or high
    _, text = run(capsysbinary, "index", "--tree", str(root))
    assert visible(NAME) in text


def test_curation_applies_and_trash_restores_with_clean_output(
    root: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    for argv in (
        ("complete", "--project", f"done {NAME}", "--yes"),
        ("escalate", "--yes"),
        ("prune", "--yes"),
        ("promote", "--yes"),
        ("dedupe", "--yes"),
    ):
        code, text = run(capsysbinary, *argv[:1], "--tree", str(root), *argv[1:])
        assert code == 0, text
        assert_clean(text)
    assert (root / ".ai/work-experience/.ai" / f"done {NAME}").is_dir()
    code, text = run(capsysbinary, "set", str(root / RECENT), "critical=true")
    assert code == 0 and visible(RECENT) in text
    assert_clean(text)
    code, text = run(capsysbinary, "unset", str(root / RECENT), "critical")
    assert code == 0
    assert_clean(text)
    store = Store(root, lambda: TODAY)
    store.scan()
    store.trash(RECENT)
    code, text = run(capsysbinary, "trash", "list", "--tree", str(root))
    assert code == 0 and visible(NAME) in text
    assert_clean(text)
    entry = store.trash_listing().entries[0]
    code, text = run(capsysbinary, "trash", "restore", entry.id, "--tree", str(root))
    assert code == 0 and visible(RECENT) in text
    assert_clean(text)
    assert (root / RECENT).is_file()
    code, text = run(capsysbinary, "trash", "empty", "--older-than", "0", "--tree", str(root))
    assert code == 0
    assert_clean(text)


def test_errors_and_argparse_messages_are_escaped(
    root: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, text = run(capsysbinary, "trash", "restore", f"id{EVIL}", "--tree", str(root))
    assert code == 1 and text.startswith("samantha-tui: ") and "\\x1b]0;pwned" in text
    assert_clean(text)
    code, text = run(capsysbinary, "set", str(root / RECENT), f"bad{NAME}")  # no `=`
    assert code == 1 and visible(NAME) in text
    assert_clean(text)
    code, text = run(capsysbinary, "check", "--tree", str(root / f"missing {EVIL}"))
    assert code == 2
    assert_clean(text)
    with pytest.raises(SystemExit):
        main(["trash", f"nope{EVIL}"])  # argparse: invalid choice, quoted back
    out, err = capsysbinary.readouterr()
    assert b"nope" in err
    assert_clean((out + err).decode())


def test_json_output_keeps_the_exact_strings(
    root: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code = main(["search", "--tree", str(root), "--json", "pwned"])
    out, _ = capsysbinary.readouterr()
    hits = json.loads(out)["hits"]
    assert (
        code == 0 and {h["title"] for h in hits} >= {TITLE} and RECENT in {h["path"] for h in hits}
    )
    main(["check", "--tree", str(root), "--json"])
    out, _ = capsysbinary.readouterr()
    assert OLD in {p["path"] for p in json.loads(out)["problems"]}
    main(["review", "--tree", str(root), "--json"])
    out, _ = capsysbinary.readouterr()
    titles = {c.get("title") for found in json.loads(out).values() for c in found}
    assert f"old {EVIL}" in titles or f"done {EVIL}" in titles
    main(["bootstrap", "--tree", str(root), "--json", "--project", NAME])
    out, _ = capsysbinary.readouterr()
    assert f"lt {EVIL}" in {item["title"] for item in json.loads(out)["items"]}


def test_a_non_utf8_file_name_prints_escaped(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "root", {})
    name = os.fsencode(f"{ST}/") + b"2026-06-10_caf\xe9.md"
    (root / os.fsdecode(name)).write_bytes(b"---\ndate: 2026-06-10\n---\n\n# caf\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2]), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "samantha_tui", "check", str(root)],
        capture_output=True,
        env=env,
    )
    assert b"Traceback" not in done.stderr, done.stderr
    if b"caf" in done.stdout + done.stderr:
        assert b"\\udce9" in done.stdout + done.stderr

"""Control characters in a tree never reach the terminal: headless output and the app show them
as escapes (`\\x1b`), and JSON output keeps the exact strings.

The tree's titles, topics, project names, bodies and file names hold an OSC 0 title change, an
OSC 52 clipboard write, a clear screen, BEL, C1 CSI (U+009B), DEL and a right-to-left override.
On screen, the text each widget paints is read back from the compositor's strips (what would be
written to the terminal, after the app's line filters), and must hold none of them.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.command import CommandList
from textual.widgets import Input, Tabs

from samantha_tui.cli import main
from samantha_tui.core.basics.visible import (
    has_hidden_characters,
    visible,
    visible_lines,
    visible_with_spans,
)
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.bootstrap import BootstrapScreen
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.review import ReviewScreen
from samantha_tui.ui.screens.stats import StatsScreen
from samantha_tui.ui.screens.trash import TrashScreen

from ..conftest import LT, ST, TASKS, TODAY, make_tree
from ..pilot import settle

EVIL = "\x1b]0;pwned\x07 \x1b]52;c;cHduZWQ=\x07 \x1b[2J \x9b31m \x7f \u202eexe.md"
FORBIDDEN = ("\x1b", "\x07", "\x9b", "\x7f", "\u202e")
NAME = "n\x1b[2J\x07\x9b\x7f\u202e"
"""The same classes of character, in file and folder names."""
TITLE = f"st {EVIL}"


def assert_clean(text: str) -> None:
    for char in FORBIDDEN:
        assert char not in text, f"{char!r} reached the output: {text[:300]!r}"


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


# --- a tree full of control characters -----------------------------------------------------------

RECENT = f"{ST}/2026-06-10_{NAME}.md"
OLD = f"{ST}/2026-04-01_old {NAME}.md"
CRITICAL = f"{LT}/2026-01-10_{NAME}.md"
TASK = f"{TASKS}/{NAME}/status.md"
DONE = f"{TASKS}/done {NAME}/status.md"
SIZE = (200, 50)


def quoted(value: str) -> str:
    """YAML double quotes: control characters as YAML escapes, read back as the characters."""
    return json.dumps(value)


def memory(title: str, date: str = "2026-06-10", extra: str = "") -> str:
    topics = ", ".join(quoted(t) for t in (f"t{EVIL}", "ci"))
    return (
        f"---\ndate: {date}\ntopics: [{topics}]\nproject: {quoted(NAME)}\n{extra}---\n\n"
        f"# {title}\n\nbody {EVIL}\n\nline two {EVIL}\n"
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path / "root",
        {
            RECENT: memory(TITLE, extra="importance: medium\n"),
            OLD: memory(f"old {EVIL}", "2026-04-01", f"importance: {quoted(EVIL)}\n"),
            CRITICAL: memory(f"lt {EVIL}", "2026-01-10", "critical: true\nimportance: high\n"),
            TASK: memory(f"task {EVIL}", extra="status: active\n"),
            DONE: memory(f"done {EVIL}", extra="status: completed\n"),
        },
    )


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


# --- the app -------------------------------------------------------------------------------------


def painted(app: SamanthaApp) -> str:
    """Every segment of every strip the top screen paints (after the app's line filters)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def assert_screen_clean(app: SamanthaApp) -> None:
    assert_clean(painted(app))
    assert app.title == "samantha-tui"
    assert_clean(app.sub_title)
    assert_clean(app.screen.title or "")
    assert_clean(app.screen.sub_title or "")


def squeezed(text: str) -> str:
    return "".join(text.split())


def assert_shows(app: SamanthaApp, *needles: str) -> None:
    screen = squeezed(painted(app))
    for needle in needles:
        assert squeezed(needle) in screen, f"{needle!r} not on {type(app.screen).__name__}"


def start(root: Path) -> SamanthaApp:
    return SamanthaApp(root, lambda: TODAY)


async def test_every_tab_and_the_preview_show_escapes(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key in "1234567":
            await pilot.press(key)
            await settle(pilot)
            assert_screen_clean(app)
        await pilot.press("1")
        await settle(pilot)
        assert app.table.select_key(RECENT)
        await settle(pilot)
        assert_shows(app, visible(TITLE), visible(f"body {EVIL}"), visible(f"t{EVIL}"))
        # The list row too, BEL included (a rich Text made from the raw title would drop it).
        row = app.table.render_line(1 + app.table.cursor).text
        assert visible("st \x1b]0;pwned\x07") in row
        assert_screen_clean(app)


async def test_the_form_holds_a_field_with_control_characters_as_it_was(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert app.table.select_key(RECENT)
        await settle(pilot)
        before = (root / RECENT).read_bytes()
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemoryForm)
        assert_screen_clean(app)
        topics = form.query_one("#field-topics", Input)
        assert topics.disabled and topics.value == visible(f"t{EVIL}") + ", ci"
        assert form.raw()["topics"] == f"t{EVIL}, ci"
        assert_shows(app, "holds control characters")
        form.query_one("#field-reference_count", Input).value = "3"
        await pilot.press("ctrl+s")
        await settle(pilot)
        after = (root / RECENT).read_bytes()
        assert after != before and b"reference_count: 3" in after
        assert (
            after.split(b"topics:")[1].split(b"\n")[0]
            == before.split(b"topics:")[1].split(b"\n")[0]
        )
        assert_screen_clean(app)


async def test_notices_dialogs_and_screens_hold_no_control_character(root: Path) -> None:
    app = start(root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert app.table.select_key(RECENT)
        await settle(pilot)
        await pilot.press("c")  # a notice naming the file
        await settle(pilot)
        assert_shows(app, visible(RECENT.rsplit("/", 1)[1]))
        assert_screen_clean(app)
        app.clear_notifications()
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert_shows(app, visible(NAME))
        assert_screen_clean(app)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, TrashScreen)
        assert_shows(app, visible(NAME))
        assert_screen_clean(app)
        await pilot.press("escape", "b")
        await settle(pilot)
        assert isinstance(app.screen, BootstrapScreen)
        assert_screen_clean(app)
        await pilot.press("escape", "p")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert_screen_clean(app)
        for section in ("complete", "promote", "escalate"):
            review.query_one("#review-tabs", Tabs).active = f"review-tab-{section}"
            await settle(pilot)
            assert_screen_clean(app)
        await pilot.press("escape", "s")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        assert_shows(app, visible(f"t{EVIL}")[:10])
        assert_screen_clean(app)
        await pilot.press("escape", "ctrl+k")
        await settle(pilot)
        await pilot.press(*"lt")
        await settle(pilot)  # the palette gathers hits in a worker
        assert app.screen.query_one(CommandList).option_count  # its hits are listed
        assert_screen_clean(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.return_code is None

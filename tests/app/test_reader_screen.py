"""The reader (Enter), Problems Enter, `y` and `O`: driven through the real app."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from rich.style import Style
from textual.widgets import Static

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.memory_form import MemoryForm
from samantha_tui.ui.screens.reader import DELETED, MARKDOWN_LIMIT, ReaderScreen
from samantha_tui.ui.widgets.markdown_body import MarkdownBody
from samantha_tui.ui.widgets.plain_lines import PlainLines

from ..conftest import ST, TASKS, TODAY, make_tree
from ..mashing import mash
from ..pilot import ALPHA, BETA, alpha_and_beta, memory, settle, until


def app_on(root: Path) -> SamanthaApp:
    return SamanthaApp(root, lambda: TODAY)


def reader(app: SamanthaApp) -> ReaderScreen:
    assert isinstance(app.screen, ReaderScreen), app.screen
    return app.screen


def plain(widget: Static) -> str:
    """What a Static shows, as text (a Group of Text and tables included)."""
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


async def test_enter_opens_the_reader_and_esc_comes_back_on_the_row(tmp_path: Path) -> None:
    app = app_on(alpha_and_beta(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("down")
        assert app.table.selected_key == BETA
        await pilot.press("enter")
        await settle(pilot)
        screen = reader(app)
        assert screen.path == BETA
        assert "Beta note" in plain(screen.query_one("#reader-head", Static))
        assert "Body of Beta note." in screen.query_one("#reader-body", MarkdownBody).source
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ReaderScreen)
        assert app.table.selected_key == BETA


async def test_n_p_and_brackets_read_the_next_and_previous_with_the_list_following(
    tmp_path: Path,
) -> None:
    app = app_on(alpha_and_beta(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert app.table.selected_key == ALPHA
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        assert reader(app).path == BETA
        assert "Body of Beta note." in app.screen.query_one("#reader-body", MarkdownBody).source
        await pilot.press("n")  # the last: stays, says so
        await settle(pilot)
        assert reader(app).path == BETA
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert reader(app).path == ALPHA
        await pilot.press("right_square_bracket")
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert not isinstance(app.screen, ReaderScreen)
        assert app.table.selected_key == BETA


PROJECT = f"{TASKS}/gateway"
STATUS = (
    "---\ndate: 2026-05-01\ntopics: [gateway]\nstatus: active\n---\n\n# Project: Gateway\n\n"
    "Replace the gateway.\n**Status**: Phase 2 - routing done\n**Started**: 2026-03-30\n"
    "**Last Updated**: 2026-06-13\n\n## Next\n- cut over\n"
)


def project_tree(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path / "cerebrum",
        {
            f"{PROJECT}/status.md": STATUS,
            f"{PROJECT}/notes.md": "# Notes\n\nLua rewrites still to port.\n",
            f"{PROJECT}/decisions.md": "# Decisions\n\nEnvoy, not nginx.\n",
            f"{PROJECT}/docs/design.md": "# Design\n\nNot shown in the reader.\n",
        },
    )


async def test_a_project_shows_its_notes_and_decisions(tmp_path: Path) -> None:
    app = app_on(project_tree(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("3", "enter")
        await settle(pilot)
        screen = reader(app)
        assert screen.path == f"{PROJECT}/status.md"
        assert [note.name for note in screen.notes] == ["notes.md", "decisions.md"]
        notes = screen.query(".reader-note").results(MarkdownBody)
        sources = [note.source for note in notes if note.display]
        assert "Lua rewrites still to port." in sources[0]
        assert "Envoy, not nginx." in sources[1]
        assert not any("Not shown in the reader" in source for source in sources)


def drawn_text(body: MarkdownBody) -> str:
    """What the preview's body shows, line by line as on screen (wide enough not to wrap)."""
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(body.content)
    return "\n".join(line.strip() for line in out.getvalue().splitlines())


DEMO_PROJECT = f"{TASKS}/api-gateway-refactor/status.md"


def painted(app: SamanthaApp) -> str:
    return "".join(
        segment.text for strip in app.screen._compositor.render_strips() for segment in strip
    )


async def test_end_in_a_projects_reader_goes_to_the_end_of_its_last_note(demo_root: Path) -> None:
    """End taken while the project is shown again (a change on disk, or the checked records
    replacing the catalog's) stopped short of the notes, or was undone by the redraw."""
    app = app_on(demo_root)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3", "enter")
        screen = reader(app)
        assert screen.path == DEMO_PROJECT
        shown_before = screen.memory
        status = demo_root / DEMO_PROJECT
        status.write_text(status.read_text() + "\nOne more line.\n")
        app._take_in([DEMO_PROJECT], "taken in")
        assert await until(pilot, lambda: screen.memory is not shown_before)
        await mash(pilot, ["end"])
        await settle(pilot)
        scroll = screen.scroller
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y
        assert "the team already runs it as a" in painted(app)  # decisions.md's last lines


async def test_status_lines_keep_their_line_breaks_in_the_preview_and_the_reader(
    tmp_path: Path,
) -> None:
    root = project_tree(tmp_path)
    before = (root / PROJECT / "status.md").read_bytes()
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        expected = (
            "Replace the gateway.\nStatus: Phase 2 - routing done\nStarted: 2026-03-30\n"
            "Last Updated: 2026-06-13"
        )
        preview_body = app.query_one("#preview-body", MarkdownBody)
        assert await until(pilot, lambda: expected in drawn_text(preview_body))
        await pilot.press("enter")
        await settle(pilot)
        assert expected in drawn_text(app.screen.query_one("#reader-body", MarkdownBody))
    assert (root / PROJECT / "status.md").read_bytes() == before


async def test_the_reader_follows_a_change_on_disk_and_says_when_the_file_goes(
    tmp_path: Path,
) -> None:
    root = alpha_and_beta(tmp_path)
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        (root / ALPHA).write_text(memory("Alpha rule", "importance: high\n") + "New line.\n")
        app._take_in([ALPHA], "taken in")
        await settle(pilot)
        assert await until(
            pilot, lambda: "New line." in reader(app).query_one("#reader-body", MarkdownBody).source
        )
        screen = reader(app)
        assert "New line." in screen.query_one("#reader-body", MarkdownBody).source
        assert "high" in plain(screen.query_one("#reader-fields", Static))
        (root / ALPHA).unlink()
        app._take_in([ALPHA], "taken in")
        await settle(pilot)
        banner = screen.query_one("#reader-banner", Static)
        assert await until(pilot, lambda: banner.display and plain(banner).strip() == DELETED)
        assert banner.display and plain(banner).strip() == DELETED
        assert reader(app) is screen


async def test_e_in_the_reader_edits_and_the_reader_shows_the_saved_field(
    tmp_path: Path,
) -> None:
    root = alpha_and_beta(tmp_path)
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemoryForm) and form.memory.path == ALPHA
        form.query_one("#field-reference_count").value = "7"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert await until(
            pilot, lambda: "7" in plain(reader(app).query_one("#reader-fields", Static))
        )
        screen = reader(app)
        assert "reference_count: 7" in (root / ALPHA).read_text()
        assert "7" in plain(screen.query_one("#reader-fields", Static))


async def test_y_copies_the_absolute_path_from_the_list_and_the_reader(tmp_path: Path) -> None:
    root = alpha_and_beta(tmp_path)
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert app.clipboard == str(root.resolve() / ALPHA)
        assert any(f"Copied {root / ALPHA}" in n.message for n in app._notifications)
        await pilot.press("down", "enter", "y")
        await settle(pilot)
        assert app.clipboard == str(root.resolve() / BETA)


async def test_o_opens_the_folder_with_the_configured_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = alpha_and_beta(tmp_path)
    log = tmp_path / "opened.txt"
    opener = tmp_path / "opener.sh"
    opener.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {log}\n')
    opener.chmod(0o755)
    monkeypatch.setenv("SAMANTHA_TUI_OPEN", f"{opener} --flag")
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("O")
        assert await until(pilot, log.exists, 5)
    assert log.read_text().splitlines() == ["--flag", str(root.resolve() / ST)]


async def test_o_without_any_opener_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SAMANTHA_TUI_OPEN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    app = app_on(alpha_and_beta(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "O")
        await settle(pilot)
        assert isinstance(app.screen, ReaderScreen)
        messages = [n.message for n in app._notifications]
        assert any("no program to open folders" in m and "SAMANTHA_TUI_OPEN" in m for m in messages)


BAD = f"{ST}/2026-06-08_urgent_note.md"
NO_FRONTMATTER = f"{ST}/2026-06-07_plain_note.md"


def faulty_tree(tmp_path: Path) -> Path:
    root = make_tree(
        tmp_path / "cerebrum",
        {
            ALPHA: memory("Alpha rule"),
            BAD: memory("Urgent note", "importance: urgent\n"),
            NO_FRONTMATTER: "# Plain note\n\nNo fields at all.\n",
            f"{ST}/.hidden.md": "# Hidden\n",
        },
    )
    return root


def problem_row(app: SamanthaApp, path: str, words: str) -> int:
    problems = app.memory_tree.all_problems
    return next(
        i
        for i, row in enumerate(app.table.rows)
        if row.key.split("#")[0] == path and words in problems[int(row.key.split("#")[1])].message
    )


async def test_enter_on_a_field_problem_opens_the_form_on_that_field(tmp_path: Path) -> None:
    app = app_on(faulty_tree(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        app.table.cursor = problem_row(app, BAD, "`importance`")
        await pilot.press("enter")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, MemoryForm) and form.memory.path == BAD
        assert form.focused is not None and form.focused.id == "field-importance"
        await pilot.press("escape")
        await settle(pilot)
        assert app.current_tab == "short-term"
        assert app.table.selected_key == BAD


async def test_enter_on_a_file_the_form_cannot_take_opens_the_reader_and_says_why(
    tmp_path: Path,
) -> None:
    app = app_on(faulty_tree(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        app.table.cursor = problem_row(app, NO_FRONTMATTER, "frontmatter")
        await pilot.press("enter")
        await settle(pilot)
        screen = reader(app)
        assert screen.path == NO_FRONTMATTER
        assert "no frontmatter" in plain(screen.query_one("#reader-fields", Static))
        assert app.current_tab == "short-term"


async def test_enter_on_a_problem_of_a_file_that_is_no_memory_says_what_to_do(
    tmp_path: Path,
) -> None:
    app = app_on(faulty_tree(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        app.table.cursor = problem_row(app, f"{ST}/.hidden.md", "hidden file")
        await pilot.press("enter")
        await settle(pilot)
        assert app.current_tab == "problems" and len(app.screen_stack) == 1
        notices = [n for n in app._notifications if n.title == "Not a memory"]
        assert notices and ".hidden.md: hidden file" in notices[0].message


async def test_a_1_mb_body_opens_as_plain_lines_and_scrolls_to_its_end(tmp_path: Path) -> None:
    line = "A long line of a very large memory, repeated to make a megabyte of body text. "
    body = "".join(f"{i}: {line}\n" for i in range(1_000_000 // len(line)))
    big = f"{ST}/2026-06-05_big.md"
    root = make_tree(tmp_path / "cerebrum", {big: memory("Big") + body + "THE END\n"})
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        screen = reader(app)
        lines = screen.query_one("#reader-plain", PlainLines)
        assert len(app.curator.get(big).body) > MARKDOWN_LIMIT
        assert lines.display and lines.row_count > 12_000
        assert screen.query_one("#reader-body", MarkdownBody).display is False
        await pilot.press("end")

        def at_the_end() -> bool:
            return "THE END" in "".join(
                seg.text for y in range(lines.size.height) for seg in lines.render_line(y)
            )

        assert await until(pilot, at_the_end)


async def test_markup_and_control_characters_show_as_typed_in_the_reader(tmp_path: Path) -> None:
    title = "[bold]Loud[/] \x1b]0;owned\x07 \u202etxt.exe"
    text = memory(title, "topics_note: '[red]x[/]'\n") + "Body [b]bold?[/b] \x1b[2J and \u202e.\n"
    root = make_tree(tmp_path / "cerebrum", {ALPHA: text})
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        screen = reader(app)
        head = plain(screen.query_one("#reader-head", Static))
        assert "[bold]Loud[/] \\x1b]0;owned\\x07 \\u202etxt.exe" in head
        assert "[red]x[/]" in plain(screen.query_one("#reader-fields", Static))
        source = screen.query_one("#reader-body", MarkdownBody).source
        assert "\\x1b[2J" in source and "\\u202e" in source and "\x1b" not in source

        def painted_now() -> str:
            return "".join(
                segment.text
                for strip in app.screen._compositor.render_strips()
                for segment in strip
            )

        assert await until(pilot, lambda: "[bold]Loud[/]" in painted_now())
        painted = painted_now()
        assert "[bold]Loud[/]" in painted
        assert "\x1b" not in painted and "\u202e" not in painted


async def test_keys_sent_together_with_enter_act_in_the_reader(tmp_path: Path) -> None:
    from .test_key_mashing import mash

    gamma = f"{ST}/2026-06-08_gamma_note.md"
    root = make_tree(
        tmp_path / "cerebrum",
        {ALPHA: memory("Alpha rule"), BETA: memory("Beta note"), gamma: memory("Gamma note")},
    )
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert app.table.selected_key == ALPHA
        # Without holding them, j and n reached the list before the reader opened: it opened on
        # Beta and n went on to Gamma.
        await mash(pilot, ["enter", "j", "n"])
        await settle(pilot)
        assert reader(app).path == BETA, "n read the next memory in the reader"
        assert len(app.screen_stack) == 2, f"another screen opened: {app.screen_stack!r}"


async def test_a_field_problem_in_a_file_the_form_cannot_write_opens_the_reader_saying_why(
    tmp_path: Path,
) -> None:
    odd = f"{ST}/2026-06-06_odd_bytes.md"
    data = memory("Odd bytes", "importance: urgent\n").encode() + b"Byte \xff here.\n"
    app = app_on(make_tree(tmp_path / "cerebrum", {odd: data}))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("7")
        await settle(pilot)
        app.table.cursor = problem_row(app, odd, "`importance`")
        await pilot.press("enter")
        await settle(pilot)
        assert reader(app).path == odd
        notices = [n for n in app._notifications if n.title == "Form not opened"]
        assert notices and "not UTF-8" in notices[0].message and "o to open" in notices[0].message


LINKED = (
    "Intro.\n\n## Heading two\n\nSee [the docs](https://example.com/docs) first.\n\n"
    "### Heading three\n\nMore.\n"
)


def painted_style(app: SamanthaApp, words: str) -> Style:
    """The style of the painted segment that holds `words`."""
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            if words in segment.text and segment.style is not None:
                return segment.style
    raise AssertionError(f"{words!r} is not on screen")


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_headings_do_not_look_like_links_in_the_preview_or_the_reader(
    tmp_path: Path, theme: str
) -> None:
    root = make_tree(tmp_path / "cerebrum", {ALPHA: memory("Linked") + LINKED})
    app = app_on(root)
    async with app.run_test(size=(120, 36)) as pilot:
        app.theme = theme
        await settle(pilot)
        for where in ("preview", "reader"):
            if where == "reader":
                await pilot.press("enter")
                await settle(pilot)
                reader(app)
            link = painted_style(app, "the docs")
            for heading in ("Heading two", "Heading three"):
                style = painted_style(app, heading)
                assert style.bold, (where, heading, style)
                assert not style.underline, (where, heading, style)
                assert style.color != link.color, (where, heading, style, link)

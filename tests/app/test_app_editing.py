"""Pilot tests of curating in the app: one-key edits, undo, delete, conflicts, the editor, indexes.

Each drives the real app with keys and then looks at the files on disk and at the indexes, the way
samantha-llm would see them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Label, Select

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.conflict import ConflictScreen
from samantha_tui.ui.screens.memory_form import MemoryForm

from ..conftest import ST, TODAY, make_tree
from ..pilot import ALPHA, BETA, index_check, memory, reindexed, settle

A, B = ALPHA, BETA
C = f"{ST}/2026-06-08_gamma_note.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """Three memories and indexes regenerated, so any drift afterwards is the app's doing."""
    tree_root = make_tree(
        tmp_path / "cerebrum",
        {
            A: memory("Alpha rule", "importance: medium\n"),
            B: memory("Beta note"),
            C: memory("Gamma note"),
        },
    )
    return reindexed(tree_root)


async def test_c_toggles_critical_on_disk_and_the_indexes_stay_clean(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (root / A).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.table.selected_key == A
        await pilot.press("c")
        await settle(pilot)
        assert (root / A).read_bytes() == before.replace(
            b"importance: medium\n", b"importance: medium\ncritical: true\n"
        )
        assert index_check(root, capsys) == 0
        assert app.table.selected_key == A, "the selection stays on the memory"
        assert app.selected_memory().critical
        notices = [n.message for n in app._notifications]
        assert any("marked critical" in m and "index updated" in m for m in notices)

        await pilot.press("c")
        await settle(pilot)
        assert (root / A).read_bytes() == before
        assert index_check(root, capsys) == 0


async def test_plus_and_minus_step_importance_and_refuse_past_the_end(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("plus")
        await settle(pilot)
        assert b"importance: high\n" in (root / A).read_bytes()
        await pilot.press("plus")
        await settle(pilot)
        assert any("already at high" in n.message for n in app._notifications)
        await pilot.press("minus", "minus")
        await settle(pilot)
        assert b"importance: low\n" in (root / A).read_bytes()


async def test_undo_walks_back_to_the_exact_bytes(root: Path) -> None:
    before = (root / A).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        for key in ("c", "plus"):
            await pilot.press(key)
            await settle(pilot)
        assert (root / A).read_bytes() != before
        await pilot.press("u")
        await settle(pilot)
        assert b"importance: medium" in (root / A).read_bytes()
        await pilot.press("u")
        await settle(pilot)
        assert (root / A).read_bytes() == before
        await pilot.press("u")
        await settle(pilot)
        assert any("Nothing to undo" in n.message for n in app._notifications)


async def test_changes_run_in_the_order_asked_even_when_pressed_quickly(root: Path) -> None:
    before = (root / A).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("c", "plus", "u", "u", "c")
        await settle(pilot)
        assert (root / A).read_bytes() == before.replace(
            b"importance: medium\n", b"importance: medium\ncritical: true\n"
        )


async def test_delete_asks_first_then_trashes_and_undo_restores(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (root / A).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")  # the focused button is the safe one
        await settle(pilot)
        assert (root / A).exists()

        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert not (root / A).exists()
        assert len(app.store.trash_entries()) == 1
        assert A not in [row.key for row in app.table.rows]
        assert index_check(root, capsys) == 0

        await pilot.press("u")
        await settle(pilot)
        assert (root / A).read_bytes() == before
        assert index_check(root, capsys) == 0


async def test_space_marks_several_and_d_deletes_exactly_those(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("space", "space")  # marks A and B, the cursor ends on C
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "2 memories" in dialog._title
        await pilot.press("y")
        await settle(pilot)
        assert not (root / A).exists() and not (root / B).exists()
        assert (root / C).exists()


async def test_a_conflict_offers_three_choices_and_loses_nothing(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        theirs = (root / A).read_bytes().replace(b"Body of", b"Edited elsewhere:")
        (root / A).write_bytes(theirs)

        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        assert (root / A).read_bytes() == theirs
        await pilot.press("escape")  # cancel: nothing written, their version taken in
        await settle(pilot)
        assert (root / A).read_bytes() == theirs
        assert "Edited elsewhere" in app.selected_memory().body

        (root / A).write_bytes(theirs.replace(b"Edited", b"Edited again"))
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("r")  # reload theirs
        await settle(pilot)
        assert b"critical" not in (root / A).read_bytes()
        assert "Edited again" in app.selected_memory().body

        again = (root / A).read_bytes().replace(b"again", b"a third time")
        (root / A).write_bytes(again)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("k")  # keep mine: my key over their file
        await settle(pilot)
        assert (root / A).read_bytes() == again.replace(
            b"importance: medium\n", b"importance: medium\ncritical: true\n"
        )
        await pilot.press("u")  # their version is one undo away
        await settle(pilot)
        assert (root / A).read_bytes() == again


async def test_o_without_an_editor_says_how_to_set_one(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        assert any("$EDITOR" in n.message for n in app._notifications)


async def test_without_automatic_indexes_r_regenerates_and_the_status_shows_drift(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    config = tmp_path / "off.toml"
    config.write_text("[watch]\nenabled = false\n[index]\nauto_regenerate = false\n")
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert "indexes ✓" in str(app.status_line.render())
        await pilot.press("c")
        await settle(pilot)
        assert index_check(root, capsys) == 1
        assert "to update (r)" in str(app.status_line.render())
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen), "r shows the plan before writing"
        assert index_check(root, capsys) == 1
        await pilot.press("y")
        await settle(pilot)
        assert index_check(root, capsys) == 0
        assert "indexes ✓" in str(app.status_line.render())
        await pilot.press("u")  # the index write is a change like any other
        await settle(pilot)
        assert index_check(root, capsys) == 1


async def test_the_form_refuses_a_bad_date_then_writes_only_what_changed(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (root / A).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, MemoryForm)
        date = form.query_one("#field-date", Input)
        date.value = "2026-02-30"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form, "saving is refused while a field is wrong"
        assert "2026-02-30" in str(form.query_one("#error-date", Label).render())
        assert (root / A).read_bytes() == before

        date.value = "2026-06-01"
        form.query_one("#field-importance", Select).value = "high"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is not form
        assert (root / A).read_bytes() == before.replace(b"importance: medium", b"importance: high")
        assert index_check(root, capsys) == 0


async def test_n_creates_a_memory_from_the_template_and_selects_it(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, MemoryForm)
        form.query_one("#field-title", Input).value = "Try the new cache"
        form.query_one("#field-topics", Input).value = "ci, cache"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        created = f"{ST}/{TODAY.isoformat()}_try_the_new_cache.md"
        text = (root / created).read_text()
        assert text.startswith(f"---\ndate: {TODAY.isoformat()}\n")
        assert "topics: [ci, cache]" in text and "# Try the new cache" in text
        assert app.table.selected_key == created
        assert index_check(root, capsys) == 0
        await pilot.press("u")  # a created memory goes to the trash on undo
        await settle(pilot)
        assert not (root / created).exists()
        assert len(app.store.trash_entries()) == 1


async def test_escape_on_a_changed_form_asks_before_discarding(root: Path) -> None:
    before = (root / A).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        form.query_one("#field-importance", Select).value = "low"
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")  # no: back to the form, input kept
        await pilot.pause()
        assert app.screen is form
        assert form.query_one("#field-importance", Select).value == "low"
        await pilot.press("escape", "y")
        await settle(pilot)
        assert not isinstance(app.screen, MemoryForm | ConfirmScreen)
        assert (root / A).read_bytes() == before


async def test_b_p_t_s_open_their_screens_and_main_list_keys_rest_there(root: Path) -> None:
    from samantha_tui.ui.screens.bootstrap import BootstrapScreen
    from samantha_tui.ui.screens.review import ReviewScreen
    from samantha_tui.ui.screens.stats import StatsScreen
    from samantha_tui.ui.screens.trash import TrashScreen

    before = (root / A).read_bytes()
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        for key, screen_class in (
            ("b", BootstrapScreen),
            ("p", ReviewScreen),
            ("t", TrashScreen),
            ("s", StatsScreen),
        ):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, screen_class)
            await pilot.press("e", "d", "n")  # main-list keys: nothing happens here
            await settle(pilot)
            assert isinstance(app.screen, screen_class)
            await pilot.press("escape")
            await settle(pilot)
            assert len(app.screen_stack) == 1
        assert (root / A).read_bytes() == before

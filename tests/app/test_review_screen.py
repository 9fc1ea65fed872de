"""The review screen in the real app on the demo tree, judged by the files on disk and the indexes;
and the batch plan and its impact in words (core/writing/impact.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import Static, Tabs

from samantha_tui.core.basics.plans import Operation
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import impact, trash
from samantha_tui.core.writing.store import Store
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.diff_view import Diff
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.review import SECTIONS as lifecycle_sections
from samantha_tui.ui.screens.review import ReviewScreen, ReviewTable
from samantha_tui.ui.wrapping import Wrapped

from ..conftest import LT, ST, TASKS, TODAY, memory_text
from ..pilot import index_check, reindexed, settle, until
from ..waiting import key_event

PRUNE = (
    f"{ST}/2026-02-09_decided_to_version.md",
    f"{ST}/2026-02-16_standup_notes_format.md",
    f"{ST}/2026-02-22_vendor_credit_notes.md",
    f"{ST}/2026-03-06_decided_to_test.md",
    f"{ST}/2026-03-09_rename_currency_rounding.md",
    f"{ST}/2026-03-18_ci_cache_key_fix.md",
    f"{ST}/2026-03-29_document_csv_writer.md",
    f"{ST}/2026-04-27_extract_config_renderer.md",
    f"{ST}/2026-04-30_work_stalled_about.md",
    f"{ST}/2026-05-01_docker_compose_profiles.md",
    f"{ST}/2026-05-04_dynamodb_errors_were.md",
    f"{ST}/2026-05-05_log_export_schedule.md",
    f"{ST}/2026-05-14_agreed_to_keep.md",
)
"""The demo's prune candidates in the list's order: low importance and past 30 days (ten of
them the worker's session analyses, which it rates low when a session yields little)."""
UPDATE = f"{TASKS}/pending-updates/20260614_165930_api-gateway-refactor.json"


@pytest.fixture
def root(demo_root: Path) -> Path:
    return reindexed(demo_root)


async def open_review(pilot) -> ReviewScreen:
    await settle(pilot)
    screen = ReviewScreen()
    pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


async def show(pilot, screen: ReviewScreen, section: str) -> None:
    """Straight to a section (a press of `right` per section costs a redraw of the preview)."""
    screen.query_one("#review-tabs", Tabs).active = f"review-tab-{section}"
    await settle(pilot)


def trashed(root: Path) -> list[str]:
    return sorted(entry.path for entry in trash.entries(root))


# --- pilot tests ---------------------------------------------------------------------------------


async def test_a_reviewed_prune_trashes_exactly_the_marked_and_u_brings_them_back(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {path: (root / path).read_bytes() for path in PRUNE}
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        table = screen.table()
        assert table.rows.keys == list(PRUNE)
        await pilot.press("space", "down", "space")  # the first and the third
        assert table.marked_keys == [PRUNE[0], PRUNE[2]]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert app.screen is screen
        assert trashed(root) == sorted([PRUNE[0], PRUNE[2]])
        assert not (root / PRUNE[0]).exists() and not (root / PRUNE[2]).exists()
        assert (root / PRUNE[1]).read_bytes() == before[PRUNE[1]]
        assert index_check(root, capsys) == 0
        rest = [path for path in PRUNE if path not in (PRUNE[0], PRUNE[2])]
        assert table.rows.keys == rest, "the list follows the change"
        assert table.marked_keys == []

        await pilot.press("u")
        await settle(pilot)
        assert {path: (root / path).read_bytes() for path in PRUNE} == before
        assert trashed(root) == []
        assert index_check(root, capsys) == 0
        assert table.rows.keys == list(PRUNE)


async def test_the_confirmation_says_the_impact_in_words(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        await pilot.press("a", "right", "space", "space", "enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog._title == "Apply 15 reviewed changes?"
        assert dialog._lines == [
            "Prune 13 memories to the trash: 0 critical, referenced 2 times in total.",
            "Promote 2 to long-term memory.",
            "",
            "Their index entries are patched afterwards; u undoes the whole batch.",
        ]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        assert trashed(root) == [], "cancel writes nothing"


async def test_one_batch_of_several_sections_is_one_undo(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        await open_review(pilot)
        await pilot.press("a", "right", "a", "right", "a", "right", "a", "enter")
        # The answer goes to the confirmation once it is up, as a person's would.
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        promoted = sorted(p.name for p in (root / LT).glob(f"{TODAY.isoformat()}_*.md"))
        assert len(promoted) == 14  # five of them the worker's session analyses
        # Escalated before it was promoted, so the copy carries the new importance.
        copy = (root / LT / f"{TODAY.isoformat()}_terraform_state_lock_stuck.md").read_text()
        assert "importance: high\n" in copy and f"date: {TODAY.isoformat()}\n" in copy
        assert index_check(root, capsys) == 0
        await pilot.press("u")
        await settle(pilot)
    after = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert {k: v for k, v in after.items() if k.parts[1] != ".trash"} == before


async def test_a_prune_pick_that_is_promoted_is_said_so_and_counted_once(root: Path) -> None:
    """Marked to prune and to promote, a memory is promoted: the dialog says so, its title and
    the notice after it count what is done (13 pruned, 1 promoted), not the 15 rows marked."""
    store = Store(root, lambda: TODAY)
    store.scan()
    both = next(
        c.path
        for c in lifecycle.promote(store.tree, TODAY).candidates
        if c.reason == "referenced 5 times" and not store.get(c.path).critical
    )
    text = (root / both).read_text()
    (root / both).write_text(text.replace("importance: high", "importance: low"))
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_review(pilot)
        assert both in screen.table().rows.keys, "now a prune candidate too"
        await pilot.press("a")  # every prune candidate, the promoted one with them
        await show(pilot, screen, "promote")
        assert screen.table().select_key(both)
        await pilot.press("space", "enter")
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        title = store.get(both).title
        assert dialog._title == "Apply 14 reviewed changes?"
        assert dialog._lines[:3] == [
            "Prune 13 memories to the trash: 0 critical, referenced 2 times in total.",
            "Promote 1 to long-term memory.",
            f"1 picked to prune is promoted instead: {title}.",
        ]
        await pilot.press("y")
        await settle(pilot)
        said = [n.message for n in app._notifications]
        assert "review: promote 1, prune 13 · index updated" in said
    assert len(trashed(root)) == 14, "13 pruned, and the promoted one's short-term file"
    assert list((root / LT).glob(f"{TODAY.isoformat()}_*.md"))


async def test_applying_a_pending_update_writes_the_index_entry_and_trashes_the_file(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = root / TASKS / "index.json"
    proposed = json.loads((root / UPDATE).read_text())["proposed_changes"]
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        await show(pilot, screen, "updates")
        assert screen.table().rows.keys == [UPDATE]
        await pilot.press("space", "enter")
        await pilot.pause()
        assert app.screen._lines[0] == (
            "Apply 1 pending project update to the current-tasks index."
        )
        await pilot.press("y")
        await settle(pilot)
        data = json.loads(index.read_text())
        entry = next(e for e in data["active"] if e["name"] == "api-gateway-refactor")
        # samantha-llm's analyzer proposes the current status with a check mark.
        assert entry["status"] == proposed["status"] == "Phase 2 - routing done ✅"
        assert entry["recent_progress"] == proposed["recent_progress"]
        assert entry["summary"] == proposed["summary"]
        assert data["last_updated"] == TODAY.isoformat()
        assert not (root / UPDATE).exists()
        assert trashed(root) == [UPDATE]
        assert screen.table().rows.keys == []
        assert index_check(root, capsys) == 0, "index.md follows the entry index.json got"


async def test_completing_a_task_moves_its_folder_to_work_experience(
    demo_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = demo_root / TASKS / "billing-export" / "status.md"
    status.write_text(status.read_text().replace("status: blocked", "status: completed"))
    root = reindexed(demo_root)
    moved = root / ".ai/work-experience/.ai/billing-export"
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        await show(pilot, screen, "complete")
        assert screen.table().rows.keys == [f"{TASKS}/billing-export"]
        await pilot.press("a", "enter")
        await pilot.pause()
        assert app.screen._lines[0] == "Complete 1 task (its folder moves to work experience)."
        await pilot.press("y")
        await settle(pilot)
        assert not (root / TASKS / "billing-export").exists()
        text = (moved / "status.md").read_text()
        assert "status: completed\n" in text and f"completed: {TODAY.isoformat()}\n" in text
        assert index_check(root, capsys) == 0
        data = json.loads((root / TASKS / "index.json").read_text())
        assert "billing-export" not in {e["name"] for e in data["active"] + data["blocked"]}


async def test_nothing_selected_is_a_notice_not_a_dialog(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert any("Nothing selected" in n.message for n in app._notifications)


async def test_a_marks_the_section_and_again_none(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(pilot)
        await pilot.press("a")
        assert screen.table().marked_keys == list(PRUNE)
        assert screen.picked() == {"prune": list(PRUNE)}
        await pilot.press("a")
        assert screen.picked() == {}


async def test_sessions_awaiting_merge_are_shown_and_cannot_be_picked(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        await show(pilot, screen, "sessions")
        table = screen.table()
        assert isinstance(table, ReviewTable) and table.read_only
        assert [key.rsplit("/", 1)[-1] for key in table.rows.keys] == [
            "2026-06-14_shipments_cutover_check.md",
            "2026-06-14_sliding_window_lua.md",
        ]
        await pilot.press("space", "a")
        assert table.marked_keys == [] and screen.picked() == {}
        note = screen.query_one("#review-note", Static).content
        assert isinstance(note, Text)
        note = note.plain
        assert "samantha-llm subconscious merge" in note


async def test_duplicates_show_both_bodies_with_the_differences_marked(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        await pilot.press("right", "right", "right")
        await settle(pilot)
        diff = screen.query_one("#review-diff", Static)
        assert diff.display and not screen.query_one("#review-preview").display
        shown_diff = diff.content
        assert isinstance(shown_diff, Diff)
        table = shown_diff.columns()
        left_signs, left, _, right_signs, right = (list(column.cells) for column in table.columns)
        # The copy kept is the safe one (green ●); the one going to the trash is red (✗).
        assert any(s.plain == "● " and "green" in str(s.style) for s in left_signs)
        assert any(s.plain == "✗ " and "red" in str(s.style) for s in right_signs)
        assert not any(s.plain.startswith(("-", "+")) for s in left_signs + right_signs)
        headers = [column.header.plain for column in table.columns if column.header]
        assert headers == ["kept", "goes to the trash"]
        out = io.StringIO()
        Console(file=out, width=110).print(shown_diff)
        assert "● only in the copy kept   ✗ only in the copy going to the trash" in out.getvalue()
        heading = [cell_text(cell) for cell in left].index(
            "# Retry Budgets Instead of Fixed Retry Counts"
        )
        assert cell_text(right[heading]) == cell_text(left[heading]), "equal lines face each other"
        assert left_signs[heading].plain == right_signs[heading].plain == ""


def cell_text(cell: Text | Wrapped) -> str:
    return cell.text.plain if isinstance(cell, Wrapped) else cell.plain


# --- impact.combine and impact.describe ----------------------------------------------------------


def note(title: str, **fields: str) -> str:
    """A memory with its own title and body, so no two are duplicates."""
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{lines}---\n\n# {title}\n\nWhat {title} says.\n"


def test_describe_counts_each_kind_of_change(tree) -> None:
    store = tree(
        {
            f"{ST}/2026-01-02_old.md": note(
                "Old", date="2026-01-02", topics="[a]", importance="low", reference_count="2"
            ),
            f"{ST}/2026-01-03_older.md": note(
                "Older", date="2026-01-03", topics="[a]", importance="low", reference_count="1"
            ),
            f"{ST}/2026-06-01_often.md": note(
                "Often", date="2026-06-01", topics="[a]", importance="medium", reference_count="12"
            ),
        }
    )
    proposals = lifecycle.review(store.tree, TODAY)
    every = {p.name: [c.path for c in p.candidates] for p in proposals}
    plan = impact.combine(proposals, every)
    assert impact.describe(plan, store.tree) == [
        "Prune 2 memories to the trash: 0 critical, referenced 3 times in total.",
        "Promote 1 to long-term memory.",
        "Raise 1 to high importance; mark 1 critical.",
    ]
    assert plan.name == "review: escalate 1, promote 1, prune 2"


def test_combine_edits_before_copies_and_trashes_a_file_once(tree) -> None:
    # Low importance, old and referenced 5 times: pruned, promoted and escalated at once.
    path = f"{ST}/2026-01-02_everything.md"
    store = tree(
        {path: memory_text(date="2026-01-02", topics="[a]", importance="low", reference_count="5")}
    )
    proposals = lifecycle.review(store.tree, TODAY)
    plan = impact.combine(proposals, {"prune": [path], "promote": [path], "escalate": [path]})
    assert [op.action for op in plan.operations] == ["edit", "copy", "trash"]
    assert impact.describe(plan, store.tree) == [
        "Promote 1 to long-term memory.",
        "Raise 1 to high importance.",
    ]


def test_describe_says_one_in_the_singular_and_counts_critical(tree) -> None:
    path = f"{ST}/2026-01-02_rule.md"
    store = tree({path: memory_text(date="2026-01-02", topics="[a]", critical="true")})
    operation = Operation("trash", path)
    picked = lifecycle.Proposal("prune", (lifecycle.Candidate(path, "Rule", "why", (operation,)),))
    plan = impact.combine([picked], {"prune": [path]})
    assert impact.describe(plan, store.tree) == [
        "Prune 1 memory to the trash: 1 critical, referenced 0 times in total."
    ]
    assert impact.describe(impact.combine([picked], {}), store.tree) == []


def test_describe_updates_and_tasks_on_the_demo(demo_root: Path) -> None:
    status = demo_root / TASKS / "billing-export" / "status.md"
    status.write_text(status.read_text().replace("status: blocked", "status: completed"))
    store = Store(demo_root, lambda: TODAY)
    store.scan()
    proposals = [
        lifecycle.complete(store.tree, TODAY),
        lifecycle.pending_updates(store.tree),
    ]
    every = {p.name: [c.path for c in p.candidates] for p in proposals}
    assert impact.describe(impact.combine(proposals, every), store.tree) == [
        "Complete 1 task (its folder moves to work experience).",
        "Apply 1 pending project update to the current-tasks index.",
    ]


def test_index_changes_reads_the_current_values(root: Path) -> None:
    store = Store(root, lambda: TODAY)
    store.scan()
    candidate = lifecycle.pending_updates(store.tree).candidates[0]
    changes = impact.index_changes(store, candidate.operations[0])
    assert next((c.key, c.current, c.proposed) for c in changes) == (
        "status",
        "Phase 2 - routing done",
        "Phase 2 - routing done ✅",
    )
    (root / TASKS / "index.json").unlink()
    assert impact.index_changes(store, candidate.operations[0])[0].current is None


@pytest.mark.parametrize("keys", [("right", "a"), ("right", "space"), ("right", "left", "a")])
async def test_keys_typed_at_once_after_a_section_change_act_on_the_section_it_went_to(
    root: Path, keys: tuple[str, ...]
) -> None:
    """A quick typist's `right a`: the marks land in the section `right` went to, not the one it
    left, although the keys arrive before the tab has been drawn."""
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 34)) as pilot:
        screen = await open_review(pilot)
        for key in keys:  # posted together, as a terminal delivers a burst
            app.post_message(key_event(key))
        await settle(pilot)
        went_to = lifecycle_sections[keys.count("right") - keys.count("left")]
        marked = {s.key: screen.table(s).marked_keys for s in lifecycle_sections}
        assert marked[went_to.key], f"nothing marked in {went_to.label}: {marked}"
        assert all(not keys for key, keys in marked.items() if key != went_to.key), marked
        assert screen.section is went_to


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (200, 60)])
async def test_digit_keys_go_to_the_sections_as_the_list_tabs_do(
    root: Path, size: tuple[int, int]
) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=size) as pilot:
        screen = await open_review(pilot)
        tabs = screen.query_one("#review-tabs", Tabs)
        for key, section in zip("1234567890", lifecycle_sections, strict=True):
            await pilot.press(key)
            await settle(pilot)
            assert (screen.section, tabs.active) == (section, section.tab_id), key
            assert app.screen is screen, f"{key} opened nothing"
        await pilot.press("6")  # Possible conflicts: 1 and 2 go to sections there too
        await pilot.press("2")
        await settle(pilot)
        assert app.screen is screen and screen.section.rule == "promote"
        await pilot.press("6", "f1")
        await settle(pilot)
        listed = dict(app.screen.listed)
        assert listed["1"] == "Go to the Prune section"
        assert listed["0"] == "Go to the Health section"
        assert listed[">"] == "Conflicts: keep 2 (the right); 1 goes to the trash"


async def test_every_section_tab_is_on_screen_at_80x24(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(pilot)
        await pilot.press("space")  # a mark: the count moves with the marks too
        await settle(pilot)
        tabs = screen.query_one("#review-tabs", Tabs)
        for section in lifecycle_sections:
            tab = tabs.query_one(f"#{section.tab_id}")
            assert tab.region.width and tab.region.right <= 80, f"{section.label} is cut off"
        # No room for the counts in the tabs: the section's is on the line above its list.
        about = screen.query_one("#review-about", Static).render()
        assert str(about).startswith("13 candidates, 1 marked · Stale short-term memories")
        dimmed = [
            s for s in lifecycle_sections if tabs.query_one(f"#{s.tab_id}").has_class("-empty")
        ]
        assert dimmed == [s for s in lifecycle_sections if not screen.table(s).rows.keys]
        assert any(s.key == "complete" for s in dimmed), "the empty sections are dimmed"

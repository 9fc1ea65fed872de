"""Text folded for the width it is read at: words whole, paths broken at their separators, a YAML
value's folded lines under their own key, the two copies of a duplicate each about half the
screen. Driven through the real app on the demo tree."""

from __future__ import annotations

from pathlib import Path

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.review import ReviewScreen

from ..conftest import TODAY
from ..pilot import reindexed, settle, until

STANDUP = "_standup_notes_format.md"
"""A memory whose topics end in "communication"."""


def painted_lines(app: SamanthaApp) -> list[str]:
    return [
        "".join(segment.text for segment in strip)
        for strip in app.screen._compositor.render_strips()
    ]


async def open_review(pilot, section: str) -> ReviewScreen:
    await settle(pilot)
    screen = ReviewScreen(section)
    pilot.app.push_screen(screen)
    await settle(pilot)
    assert await until(pilot, lambda: screen.review is not None)
    return screen


async def test_the_reviews_preview_breaks_no_word_at_80x24(demo_root: Path) -> None:
    app = SamanthaApp(reindexed(demo_root), lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(pilot, "prune")
        table = screen.table()
        keys = [row.key for row in table.rows]
        standup = next(key for key in keys if key.endswith(STANDUP))
        await pilot.press(*["down"] * keys.index(standup))
        assert table.selected_key == standup
        painted = "\n".join(painted_lines(app))
        assert "communication" in painted, painted  # "communicati" / "on" before


async def test_a_runbooks_path_and_triggers_fold_as_a_person_reads_them(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        assert app.table.selected_key == ".ai/procedural-memory/.ai/database-migrations.md"
        lines = [line.split("▎", 1)[-1] for line in painted_lines(app)]
        # The path breaks after a `/`, not inside a name ("database-migration" / "s.md").
        assert any(line.rstrip().endswith("database-migrations.md") for line in lines), lines
        # A folded value hangs under its own key: deeper than the key it continues.
        at = next(i for i, line in enumerate(lines) if "path_signals:" in line)
        after = next(i for i, line in enumerate(lines) if "keyword_signals:" in line)
        key_column = lines[at].index("path_signals:")
        folded = [line.rstrip(" ▁▂▃▄▅▆▇█") for line in lines[at + 1 : after]]
        assert "alembic/]" in "".join(lines[at:after])
        for line in folded:
            assert len(line) - len(line.lstrip(" ")) > key_column or not line.strip(), (
                lines[at],
                line,
            )


async def duplicate_diff_lines(pilot) -> list[str]:
    await open_review(pilot, "dedupe")
    return painted_lines(pilot.app)


async def test_the_duplicates_diff_gives_each_copy_half_the_screen_at_120x36(
    demo_root: Path,
) -> None:
    app = SamanthaApp(reindexed(demo_root), lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        lines = await duplicate_diff_lines(pilot)
        heading = "# Retry Budgets Instead of Fixed Retry Counts"
        assert any(line.count(heading) == 2 for line in lines), "\n".join(lines)
        header = next(line for line in lines if "goes to the trash" in line and "kept" in line)
        # The right side starts about half way across the screen.
        assert header.index("goes to the trash") >= 50, header


async def test_the_duplicates_diff_stays_readable_at_80x24(demo_root: Path) -> None:
    app = SamanthaApp(reindexed(demo_root), lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        lines = await duplicate_diff_lines(pilot)
        heading = "# Retry Budgets Instead of Fixed"
        assert any(line.count(heading) == 2 for line in lines), "\n".join(lines)


async def test_a_pending_updates_path_breaks_after_its_slashes_at_80x24(demo_root: Path) -> None:
    app = SamanthaApp(reindexed(demo_root), lambda: TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_review(pilot, "apply updates")
        lines = [line.split("▎", 1)[-1].rstrip(" ▁▂▃▄▅▆▇█") for line in painted_lines(app)]
        stripped = [line.strip() for line in lines]
        assert "current-tasks/" in stripped and "pending-updates/" in stripped, "\n".join(lines)

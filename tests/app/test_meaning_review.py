"""Memories compared by meaning in the review, with the real model (the tests' settings turn it
off; these turn it on): a pair saying the same thing merged as one change `u` undoes, a possible
conflict settled by keeping one, and a dismissal remembered across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from samantha_tui.core.views.merging import MERGE
from samantha_tui.core.writing import trash
from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen
from samantha_tui.ui.screens.review import CONFLICTS, HEALTH, ReviewScreen

from ..conftest import MEANING_ON, ST, TODAY, make_tree, use_settings
from ..pilot import index_check, reindexed, settle, until

ALWAYS_PNPM = f"{ST}/2026-06-01_pnpm_always.md"
ONLY_NPM = f"{ST}/2026-06-02_npm_only.md"
FLAKY = f"{ST}/2026-06-03_flaky_tests_redis.md"
PER_WORKER = f"{ST}/2026-06-04_xdist_redis_per_worker.md"


def memory(
    title: str, body: str, topics: str, refs: int, importance: str, date: str = "2026-06-01"
) -> str:
    return (
        f"---\ndate: {date}\ntopics: {topics}\nimportance: {importance}\n"
        f"reference_count: {refs}\n---\n\n# {title}\n\n{body}\n"
    )


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    use_settings(monkeypatch, tmp_path, MEANING_ON)
    files = {
        ALWAYS_PNPM: memory(
            "Installs use pnpm",
            "Always use pnpm for installs in this repo, never npm.",
            "[js, tooling]",
            2,
            "medium",
        ),
        ONLY_NPM: memory(
            "Installs use npm",
            "Never use pnpm for installs in this repo; always npm.",
            "[js]",
            1,
            "medium",
        ),
        FLAKY: memory(
            "Flaky tests shared one Redis database",
            "The gateway tests were flaky under pytest-xdist because every worker used the same "
            "Redis database. Give each worker its own database number from the worker id.",
            "[testing, redis]",
            3,
            "high",
        ),
        # The same memory written again with its sentences the other way round: a merge is
        # offered on meaning only for a copy in words (pairs.MERGE_WORDING); a paraphrase in
        # other words is shown as related.
        PER_WORKER: memory(
            "Flaky tests shared one Redis database",
            "Give each worker its own database number from the worker id. The gateway tests were "
            "flaky under pytest-xdist because every worker used the same Redis database.",
            "[testing, ci]",
            1,
            "low",
        ),
    }
    return reindexed(make_tree(tmp_path / "tree", files))


async def open_review(pilot, section: str) -> ReviewScreen:
    await settle(pilot)
    screen = ReviewScreen(section)
    pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


async def test_a_pair_saying_the_same_is_merged_as_one_change_and_u_undoes_it(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_review(pilot, MERGE)
        table = screen.table()
        assert [row.key for row in table.rows] == [PER_WORKER], "the poorer of the pair goes"
        assert screen.review is not None and screen.review.alike_kept[PER_WORKER].path == FLAKY
        await pilot.press("space", "enter")
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        kept = (root / FLAKY).read_text()
        assert "topics: [testing, redis, ci]\n" in kept
        assert "reference_count: 4\n" in kept and "importance: high\n" in kept
        assert not (root / PER_WORKER).exists()
        assert [e.path for e in trash.entries(root)] == [PER_WORKER]
        assert index_check(root, capsys) == 0
        await pilot.press("escape", "u")
        await settle(pilot)
    after = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert {k: v for k, v in after.items() if k.parts[1] != ".trash"} == before


async def test_a_possible_conflict_found_by_health_is_settled_by_keeping_one(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_review(pilot, HEALTH)
        assert screen.review is not None
        (pair,) = screen.review.conflicts
        findings = screen.review.health.findings
        conflict = next(i for i, f in enumerate(findings) if f.check == "conflict")
        assert screen.table().select_key(f"finding:{conflict}")
        await pilot.press("f")
        await settle(pilot)
        assert screen.section.rule == CONFLICTS
        assert screen.table().selected_key == f"{pair.first}\n{pair.second}"
        assert {pair.first, pair.second} == {ALWAYS_PNPM, ONLY_NPM}
        assert any("pnpm" in cue for cue in pair.cues)
        note = str(screen.query_one("#review-note").render())
        assert "Possible conflict" in note and "Installs use pnpm" in note
        await pilot.press("space")  # marks nothing: a conflict is settled on its own
        assert screen.table().marked_keys == []
        await pilot.press("greater_than_sign")  # > keeps 2, the right
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        second = pair.second
        gone = pair.first
        assert (root / second).exists() and not (root / gone).exists()
        assert screen.review.conflicts == ()


async def test_a_dismissed_conflict_stays_dismissed_after_a_restart(root: Path) -> None:
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_review(pilot, CONFLICTS)
        assert screen.review is not None and len(screen.review.conflicts) == 1
        score = app.health_report.score if app.health_report else None
        await pilot.press("d")
        await settle(pilot)
        assert screen.review.conflicts == ()
        assert app.health_report is not None and score is not None
        assert app.health_report.score > score, "the status line's score follows the dismissal"
        assert f"health {app.health_report.score} (H)" in str(app.status_line.render())
    again = SamanthaApp(root, lambda: TODAY)
    async with again.run_test(size=(140, 40)) as pilot:
        screen = await open_review(pilot, CONFLICTS)
        assert screen.review is not None and screen.review.conflicts == ()
        assert screen.review.health.semantic.dismissed == 1
        assert (root / ALWAYS_PNPM).exists() and (root / ONLY_NPM).exists()


OLDER_LIMIT = f"{ST}/2026-03-01_upload_limit.md"
NEWER_LIMIT = f"{ST}/2026-06-01_upload_limit_raised.md"


async def test_keeping_the_newer_of_a_supersession_joins_the_olders_topics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_settings(monkeypatch, tmp_path, MEANING_ON)
    files = {
        OLDER_LIMIT: memory(
            "Attachment upload limit",
            "The upload limit for attachments is 10 MB per file; larger files are refused.",
            "[uploads, api]",
            2,
            "medium",
            date="2026-03-01",
        ),
        NEWER_LIMIT: memory(
            "Attachment upload limit",
            "The upload limit for attachments is 50 MB per file; larger files are refused.",
            "[uploads]",
            1,
            "medium",
        ),
    }
    root = reindexed(make_tree(tmp_path / "tree", files))
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await open_review(pilot, CONFLICTS)
        assert screen.review is not None
        (pair,) = screen.review.conflicts
        assert pair.verdict == "supersession" and pair.newer == NEWER_LIMIT
        note = str(screen.query_one("#review-note").render())
        assert "The newer may supersede the older" in note and "(newer)" in note
        newer_side = "less_than_sign" if pair.first == NEWER_LIMIT else "greater_than_sign"
        await pilot.press(newer_side)
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "The older's topics and references join it." in app.screen._lines
        await pilot.press("y")
        await settle(pilot)
    kept = (root / NEWER_LIMIT).read_text()
    assert "topics: [uploads, api]\n" in kept and "reference_count: 3\n" in kept
    assert "50 MB" in kept and not (root / OLDER_LIMIT).exists()
    assert [e.path for e in trash.entries(root)] == [OLDER_LIMIT]


async def test_a_tree_over_the_limit_is_compared_when_reviewed_not_after_each_change(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass grows with the square of the tree: the report after a change skips it over
    UNASKED_MAX, says so, and the review still compares when asked."""
    from samantha_tui.ui import health

    monkeypatch.setattr(health, "UNASKED_MAX", 3)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(140, 40)) as pilot:
        assert await until(pilot, lambda: app.health_report is not None)
        semantic = app.health_report.semantic
        assert not semantic.on and "not compared after each change" in semantic.reason
        assert "the review (p) compares them" in semantic.reason
        screen = await open_review(pilot, HEALTH)
        assert screen.review is not None
        assert {pair.first for pair in screen.review.conflicts} == {ALWAYS_PNPM}

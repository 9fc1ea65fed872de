"""Living beside samantha-llm: its index state survives the app's writes.

The tree holds what samantha-llm's own code leaves (tests/samantha_llm_tree.py). Regenerating the
indexes from the app keeps it, and is written only when confirmed; with the watcher on, the
entries and lines samantha-llm's worker writes while the person changes memories all stay.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.ui.app import SamanthaApp
from samantha_tui.ui.screens.confirm import ConfirmScreen

from ..conftest import ST, TODAY
from ..pilot import settle, until
from ..samantha_llm_tree import MEMO, _dump, _held_by_samantha_llm, _json, root
from ..watching import watches_made

__all__ = ["root"]  # the fixture, from samantha_llm_tree.py


async def test_r_in_the_app_shows_what_it_keeps_and_writes_only_when_confirmed(root: Path) -> None:
    entry = json.loads((root / ST / "index.json").read_bytes())
    entry["recent"]["high_importance"] = []  # another program dropped entries: drift to show
    (root / ST / "index.json").write_text(_dump(entry))
    before = {p: p.read_bytes() for p in root.rglob("index.*")}
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before, "no silent writes"
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        _held_by_samantha_llm(root)
        await pilot.press("u")
        await settle(pilot)
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before


def _worker_writes(root: Path, number: int) -> str:
    """What samantha-llm's worker does after a session: a memory file, its entry appended to
    the short-term index.json, a line appended to index.md (another process's bytes)."""
    name = f"2026-06-14_worker_{number}.md"
    (root / ST / name).write_text(
        f"---\ndate: 2026-06-14\ntopics: [w]\nimportance: medium\n---\n\n# Worker {number}\n\nX.\n"
    )
    index = _json(root, ST)
    index["recent"]["medium_importance"].append({"file": name, "by": "worker"})
    (root / ST / "index.json").write_text(_dump(index))
    md = root / ST / "index.md"
    md.write_bytes(md.read_bytes() + f"- worker note {number}\n".encode())
    return name


async def test_with_the_watcher_on_the_workers_writes_survive_the_persons_changes(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import asyncio

    config = tmp_path / "watch.toml"
    config.write_text("[watch]\nenabled = true\n")
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    made = watches_made(monkeypatch)
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        assert await until(pilot, lambda: app.curator.get(MEMO) is not None)
        assert await until(pilot, lambda: made)  # the watcher is running
        written = []
        for number in range(3):
            written.append(_worker_writes(root, number))
            await asyncio.sleep(0.3)
            app.toggle_critical_of(MEMO)  # the person's own change, while the worker writes
            await asyncio.sleep(0.4)

        def all_shown() -> bool:
            shown = {m.path for m in app.curator.tree.memories}
            return all(f"{ST}/{name}" in shown for name in written)

        assert await until(pilot, all_shown)
        # settle, not a clock: an own change whose index write met the worker's is patched
        # again once outside changes are quiet (INDEX_QUIET), a timer settle waits out.
        await settle(pilot)
    recent = _json(root, ST)["recent"]["medium_importance"]
    for name in written:
        assert {"file": name, "by": "worker"} in recent, name
    md = (root / ST / "index.md").read_text()
    assert all(f"- worker note {n}\n" in md for n in range(3))
    _held_by_samantha_llm(root)


async def test_removing_an_index_only_project_needs_the_button_not_a_stray_y(root: Path) -> None:
    """R lists the project no file holds as forgotten and its pending update; `y` alone does
    nothing, Enter on the Remove button removes it, and `u` brings it back."""
    from ..conftest import TASKS
    from ..pending_updates import update
    from ..samantha_llm_tree import _project

    waiting = root / TASKS / "pending-updates" / "20260614_165930_infra-notes.json"
    waiting.parent.mkdir()
    waiting.write_text(update("infra-notes", {"status": "Phase 2"}))
    before = {p: p.read_bytes() for p in root.rglob("index.*")}
    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        text = "\n".join(dialog._lines)
        assert (
            "removed infra-notes (active): known only to the index: the assistant forgets it"
            in text
        )
        assert (
            "pending update .ai/current-tasks/.ai/pending-updates/20260614_165930_infra-notes.json"
            in text
        )
        await pilot.press("y")
        await settle(pilot)
        assert app.screen is dialog, "a bare y does not accept this dialog"
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before
        await pilot.press("enter")  # on Cancel, focused first
        await settle(pilot)
        assert app.screen is not dialog
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before
        await pilot.press("R")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        await pilot.press("right", "enter")  # Enter on the Remove button
        await settle(pilot)
        assert app.screen is not dialog
        assert _project(root, "infra-notes") is None
        assert waiting.is_file(), "the update is the person's to settle"
        await pilot.press("u")
        await settle(pilot)
        assert {p: p.read_bytes() for p in root.rglob("index.*")} == before


async def test_a_click_on_the_remove_button_removes_the_index_only_project(root: Path) -> None:
    from ..samantha_llm_tree import _project

    app = SamanthaApp(root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.click("#confirm")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert _project(root, "infra-notes") is None

"""Toasts one at a time per kind: a burst of keys shows one counted toast, never a flood."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._toast import Toast

from samantha_tui.ui import notices
from samantha_tui.ui.app import SamanthaApp

from ..conftest import TODAY
from ..pilot import settle, until


def test_kind_of_leaves_out_numbers_and_names() -> None:
    assert notices.kind_of("3 memories marked", "") == notices.kind_of("12 memories marked", "")
    assert notices.kind_of("Marked critical: 2026-01-02_a.md") == "Marked critical"
    assert notices.kind_of("3 keys unknown", "Settings") == notices.kind_of(
        "4 keys unknown", "Settings"
    )
    assert notices.kind_of("theme 'x' is not a theme", "Settings") != notices.kind_of(
        "no action has the id y", "Settings"
    )
    assert notices.kind_of("Saved", "Settings") != notices.kind_of("Saved", "Trash")
    # Two settings errors, each naming the settings file first: what they say sets them apart.
    assert notices.kind_of("/home/a/config.toml: unknown key 'x'", "Settings") != notices.kind_of(
        "/home/a/config.toml: on the bootstrap preview, x is Critical", "Settings"
    )
    assert notices.kind_of("~/cfg/config.toml: unknown key 'x'", "Settings") == notices.kind_of(
        "/other/config.toml: unknown key 'y'", "Settings"
    )
    assert notices.kind_of("Reading the tree again") != notices.kind_of("Still reading the tree")


def test_counted_titles() -> None:
    assert notices.counted("", 1) == ""
    assert notices.counted("", 3) == "(×3)"
    assert notices.counted("Saved", 2) == "Saved (×2)"


def toasts(app: SamanthaApp) -> list[Toast]:
    return list(app.screen.query(Toast))


async def test_ten_critical_toggles_leave_one_counted_toast(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.clear_notifications()
        for _ in range(10):
            await pilot.press("c")
        await settle(pilot)
        changes = [n for n in app._notifications if "critical" in n.message.lower()]
        assert len(changes) == 1, [n.message for n in app._notifications]
        assert changes[0].title == "(×10)"
        assert len(toasts(app)) <= notices.MAX_SHOWN


async def test_at_most_three_toasts_and_errors_stay_longest(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.clear_notifications()
        app.notify("it broke", title="Nothing was written", severity="error", timeout=1)
        for number in range(5):
            app.notify(f"notice {number}", kind=f"kind {number}")
        await pilot.pause()
        shown = list(app._notifications)
        assert len(shown) == notices.MAX_SHOWN
        assert shown[0].message == "it broke"
        assert shown[0].timeout >= notices.ERROR_TIMEOUT
        assert [n.message for n in shown[1:]] == ["notice 3", "notice 4"]


async def test_a_notice_after_its_kind_expired_counts_from_one(demo_root: Path) -> None:
    app = SamanthaApp(demo_root, lambda: TODAY)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.notify("first", kind="k", timeout=0.05)

        def expired() -> bool:
            logged = any(entry.message == "first" for entry in app.notices.log.newest_first())
            return logged and not any(n.message == "first" for n in app._notifications)

        assert await until(pilot, expired)
        app.notify("second", kind="k")
        await pilot.pause()
        (shown,) = [n for n in app._notifications if n.message == "second"]
        assert shown.title == ""
        assert not any(n.message == "first" for n in app._notifications)

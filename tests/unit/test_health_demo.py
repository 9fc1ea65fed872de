"""The health report on the bundled demo, with the real model: the demo holds a paraphrase pair
(the force-push rule written twice in other words) and a contradiction (30 s against 60 s of JWT
clock-skew leeway), and the report finds both, each with its fix."""

from __future__ import annotations

from pathlib import Path

from samantha_tui.core.views import health_findings as h
from samantha_tui.core.views.bootstrap import Signals, plan
from samantha_tui.core.views.dismissals import Dismissed
from samantha_tui.core.views.health import health_report
from samantha_tui.core.views.meaning.analysis import analyse
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TODAY

FORCE_PUSH = (
    f"{ST}/2026-03-20_no_force_push_shared_branches.md",
    f"{ST}/2026-06-12_force_push_own_branches_only.md",
)
JWT = (f"{ST}/2026-05-18_jwt_clock_skew_leeway.md", f"{ST}/2026-06-10_jwt_leeway_sixty_seconds.md")


def test_the_demo_report_finds_its_paraphrase_pair_and_its_contradiction(demo_root: Path) -> None:
    store = Store(demo_root, lambda: TODAY)
    store.scan()
    tree = store.tree
    report = health_report(
        tree,
        TODAY,
        bootstrap_plan=plan(tree, Signals(), TODAY, 8000),
        meaning=analyse(tree.memories),
        dismissed=Dismissed(),
    )
    assert report.semantic.on
    by_pair = {
        frozenset(f.paths): f
        for f in report.findings
        if f.check in (h.CONFLICT, h.SUPERSESSION, h.DUPLICATE, h.RELATED)
    }
    # The leeway raised from 30 to 60 seconds three weeks later: the newer may supersede.
    superseded = by_pair[frozenset(JWT)]
    assert superseded.check == h.SUPERSESSION and "30 vs 60" in superseded.message
    assert superseded.paths == (JWT[1], JWT[0])  # (newer, older)
    assert superseded.fix.action == h.RESOLVE_CONFLICT
    # A paraphrase in other words: never merged on meaning, shown to be read side by side.
    related = by_pair[frozenset(FORCE_PUSH)]
    assert related.check == h.RELATED and related.fix.action == h.RESOLVE_CONFLICT
    copy = frozenset(
        (
            f"{ST}/2026-05-12_retry_budget_upstream_calls.md",
            f"{ST}/2026-05-12_retry_budget_upstream_calls_20260513_020114.md",
        )
    )
    assert set(by_pair) == {frozenset(JWT), frozenset(FORCE_PUSH), copy}
    assert report.errors == 0, "a supersession is a warning: nothing here contradicts"

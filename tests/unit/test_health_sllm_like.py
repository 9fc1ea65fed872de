"""The health report, meaning on, of a tree made the way samantha-llm makes one
(bench/samantha_llm_like.py): its worker's session analyses, merge copies, merge-drafted
runbooks and hand-written memories of many projects, each setting given one value throughout.

Nothing contradicts or replaces anything there, so no pair may be called a conflict or a
supersession; the duplicates are the merge copies; the index drift is the merge's own (an
anti-signal it writes into a runbook and not into the index, so the veto is never read).
"""

from __future__ import annotations

import pytest

from bench import samantha_llm_like as like
from samantha_tui.core.views import health_findings as h
from samantha_tui.core.views.bootstrap import Signals, plan
from samantha_tui.core.views.dismissals import Dismissed
from samantha_tui.core.views.health import HealthReport, health_report
from samantha_tui.core.views.meaning.analysis import analyse
from samantha_tui.core.views.merge_copies import merge_copies
from samantha_tui.core.writing.store import Store

from ..conftest import TODAY

SIZE = 400


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, HealthReport]:
    root = tmp_path_factory.mktemp("sllm-health") / "tree"
    like.write_tree(root, SIZE, seed=11, today=TODAY)
    store = Store(root, lambda: TODAY)
    store.scan()
    tree = store.tree
    meaning = analyse(tree.memories)
    report = health_report(
        tree,
        TODAY,
        bootstrap_plan=plan(tree, Signals(), TODAY, 8000),
        meaning=meaning,
        dismissed=Dismissed(),
    )
    return store, report


def of(report: HealthReport, check: str) -> list[h.Finding]:
    return [f for f in report.findings if f.check == check]


def test_nothing_is_said_to_contradict_or_replace_anything(reported) -> None:
    _, report = reported
    assert report.semantic.on
    said = [f.message for f in report.findings if f.check in (h.CONFLICT, h.SUPERSESSION)]
    assert said == []
    assert of(report, h.RELATED) == [], "no two memories here are near enough to be one"


def test_the_duplicates_are_the_merge_copies(reported) -> None:
    store, report = reported
    copies = merge_copies(store.tree)
    found = of(report, h.DUPLICATE)
    assert found, "the tree holds merge copies"
    assert all(set(f.paths) & set(copies) for f in found), [f.paths for f in found]


def test_the_index_drift_said_is_the_runbook_vetoes_the_index_lacks(reported) -> None:
    _, report = reported
    (drift,) = of(report, h.INDEX_DRIFT)
    assert drift.paths == (f"{like.PROCEDURAL}/index.json",)
    assert "disagreeing" in drift.message and "missing" not in drift.message

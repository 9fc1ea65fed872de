"""The health report on a tree as samantha-llm makes it (tests/samantha_llm_made.py): nothing
said of what its worker, its merge and its assistant write as they should (summaries where its
templates keep them, durations in words, its indexes as it keeps them); and each real problem
still found when planted in that tree."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.views import health_findings as h
from samantha_tui.core.views.health import HealthReport, health_report
from samantha_tui.core.views.indexes import drift
from samantha_tui.core.views.indexes.summary import summary_of
from samantha_tui.core.views.meaning import Unavailable
from samantha_tui.core.writing.store import Store

from .. import samantha_llm_made as made
from ..conftest import TODAY, make_tree

NOISE = (h.NO_SUMMARY, h.NO_TOPICS, h.RELATIVE_DATE, h.INDEX_DRIFT)
"""The checks this tree must give no finding of (pairs and staleness are other rules')."""


def report_of(store: Store) -> HealthReport:
    """The report over the tree as it is on disk: indexes as samantha-llm left them."""
    return health_report(
        store.tree, TODAY, bootstrap_plan=None, meaning=Unavailable("off"), dismissed=()
    )


def of(found: HealthReport, check: str) -> list[h.Finding]:
    return [f for f in found.findings if f.check == check]


@pytest.fixture
def made_tree(tmp_path: Path):
    """made_tree(changes) -> the made tree with `changes` (path: text, or None for no such
    file), each call in a folder of its own."""
    made_count = iter(range(1000))

    def build(changes: dict[str, str | None] | None = None) -> Store:
        files = made.files(TODAY)
        for path, text in (changes or {}).items():
            if text is None:
                del files[path]
            else:
                files[path] = text
        store = Store(make_tree(tmp_path / f"cerebrum{next(made_count)}", files), lambda: TODAY)
        store.scan()
        return store

    return build


def test_a_tree_samantha_llm_made_gets_no_finding_a_person_would_not_act_on(made_tree) -> None:
    store = made_tree()
    found = report_of(store)
    assert [f for f in found.findings if f.check in NOISE] == []
    # The index check itself still lists how these indexes differ from what samantha-tui
    # writes (worker titles, merge copies, index.md wording): only health leaves them out.
    assert drift(store.tree, store.root, TODAY).drifted


SUMMARIES = {
    f"{made.ST}/{made.SESSIONS[0].name}": "Moved the job queue off Redis onto SQLite and "
    "settled how failed webhooks are retried.",
    f"{made.ST}/{made.SESSIONS[2].name}": "Split the README into install and usage pages",
    made.HAND_SHORT: "Partners hit the API in bursts at the top of each hour.",
    made.HAND_LONG: "Every public API carries its version in the path, so old clients keep "
    "working for a year.",
    made.STATUS: "Move the billing job queue from Redis to SQLite.",
    made.DONE: "The docs moved to mkdocs with one page per command.",
    f"{made.PROC}/billing-api.md": made.RUNBOOK.reason,
}


@pytest.mark.parametrize("path", SUMMARIES)
def test_the_summary_is_where_samantha_llm_keeps_it(path: str) -> None:
    """The Overview of a session analysis (its first decision when the worker wrote none), the
    section each template keeps it in, with the text right under the heading, and the reason
    of a runbook its merge drafted (the summary its merge indexes)."""
    text = made.files(TODAY)[path]
    assert summary_of(text.split("---\n", 2)[2]) == SUMMARIES[path]


def test_a_memory_truly_without_a_summary_is_still_found(made_tree) -> None:
    bare = f"{made.ST}/2026-06-14_ports.md"
    text = "---\ndate: 2026-06-14\ntopics: [infra]\n---\n\n# Ports\n\n## Table\n| a | b |\n"
    found = of(report_of(made_tree({bare: text})), h.NO_SUMMARY)
    assert [f.paths for f in found] == [(bare,)]


DURATIONS = (
    "The cut-over is done in a day.",
    "Backfills finish in two days.",
    "Keys are cached for a day.",
    "Retries stop within a week.",
    "A day later the cache is cold.",
    "Two hundred jobs per day.",
    "The report runs every day.",
    "The rollout takes a day.",
)


def test_durations_and_frequencies_are_no_relative_date_and_a_real_one_is(made_tree) -> None:
    planted = made.HAND_SHORT_TEXT.replace(
        "## Key Points\n", "## Key Points\n" + "\n".join(DURATIONS) + "\nWe tell them tomorrow.\n"
    )
    store = made_tree({made.HAND_SHORT: planted})
    (found,) = of(report_of(store), h.RELATIVE_DATE)
    lines = (store.root / made.HAND_SHORT).read_text().splitlines()
    assert found.paths == (made.HAND_SHORT,) and '"tomorrow"' in found.message
    assert found.line == lines.index("We tell them tomorrow.") + 1
    assert "it meant 2026-06-12" in found.message  # written 2026-06-11


def test_a_twin_merge_copy_says_nothing_its_original_does_not(made_tree) -> None:
    """Its findings would be its original's again; the duplicate check handles the copy. (A
    memory of another type than a session analysis: a session's is read against its day.)"""
    session = made.SESSIONS[1]
    before = session.text().replace("type: session-analysis", "type: decision")
    assert before != session.text()
    text = before.replace("- [ ] Bump ruff", "- [ ] Tomorrow: bump ruff")
    original, copy = f"{made.ST}/{session.name}", f"{made.ST}/{session.copy_name}"
    found = of(report_of(made_tree({original: text, copy: text})), h.RELATIVE_DATE)
    assert [f.paths for f in found] == [(original,)]
    # A copy that differs from its original (a later session of the same name) is its own.
    differs = made_tree({original: before, copy: text})
    assert [f.paths for f in of(report_of(differs), h.RELATIVE_DATE)] == [(copy,)]


@pytest.mark.parametrize("folder", [made.ST, made.TASKS, made.PROC])
def test_a_missing_index_json_is_found_where_samantha_llm_writes_one(made_tree, folder) -> None:
    (found,) = of(report_of(made_tree({f"{folder}/index.json": None})), h.INDEX_DRIFT)
    assert found.paths == (f"{folder}/index.json",) and "index.json is missing" in found.message


def test_no_missing_index_is_found_where_samantha_llm_keeps_none(made_tree) -> None:
    """Work experience has no index; long-term has only the assistant's index.md here; no
    index.md is needed beside an index.json."""
    store = made_tree({f"{made.ST}/index.md": None, f"{made.TASKS}/index.md": None})
    assert not (store.root / made.WE / "index.json").exists()
    assert not (store.root / made.LT / "index.json").exists()
    assert of(report_of(store), h.INDEX_DRIFT) == []


def test_a_critical_long_term_memory_the_start_up_cannot_find_is_found(made_tree) -> None:
    critical = made.HAND_LONG_TEXT.replace(
        "importance: high\n", "importance: high\ncritical: true\n"
    )
    # With the assistant's index.md naming it, the start-up finds it there.
    assert of(report_of(made_tree({made.HAND_LONG: critical})), h.INDEX_DRIFT) == []
    (found,) = of(
        report_of(made_tree({made.HAND_LONG: critical, f"{made.LT}/index.md": None})),
        h.INDEX_DRIFT,
    )
    assert found.paths == (f"{made.LT}/index.json",) and "critical" in found.message


def test_an_index_md_read_in_place_of_index_json_must_name_every_memory(made_tree) -> None:
    another = f"{made.LT}/2026-05-20_queues.md"
    text = made.HAND_LONG_TEXT.replace("Version APIs in the path", "Queues")
    (found,) = of(report_of(made_tree({another: text})), h.INDEX_DRIFT)
    assert found.paths == (f"{made.LT}/index.json",) and "leaves out 1" in found.message


def test_real_drift_in_an_index_samantha_llm_keeps_is_still_found(made_tree) -> None:
    """A memory the index lacks, and a value that differs (not a key left out)."""
    unlisted = f"{made.ST}/2026-06-14_new_note.md"
    note = "---\ndate: 2026-06-14\ntopics: [api]\nimportance: high\n---\n\n# N\n\nA note.\n"
    bumped = made.HAND_SHORT_TEXT.replace("reference_count: 2", "reference_count: 3")
    (found,) = of(report_of(made_tree({unlisted: note, made.HAND_SHORT: bumped})), h.INDEX_DRIFT)
    assert found.paths == (f"{made.ST}/index.json",)
    assert "1 missing" in found.message and "1 disagreeing" in found.message


def test_a_short_term_index_without_the_stats_the_worker_needs_is_found(made_tree) -> None:
    index = made.short_term_index(made.SESSIONS, TODAY.isoformat())
    del index["stats"]["by_type"]
    store = made_tree({f"{made.ST}/index.json": json.dumps(index, indent=2)})
    (found,) = of(report_of(store), h.INDEX_DRIFT)
    assert "1 disagreeing" in found.message


def test_the_command_on_such_a_tree_lists_none_of_the_noise(made_tree, capsys) -> None:
    store = made_tree()
    assert main(["health", str(store.root)]) == 0
    out = capsys.readouterr().out
    assert not any(f"\n{check} (" in out for check in NOISE), out


def test_entries_aged_out_of_recent_are_how_the_worker_leaves_its_index(made_tree) -> None:
    """The worker only ever inserts into `recent`: months later its entries are still there."""
    store = made_tree()
    later = TODAY + dt.timedelta(days=120)
    found = health_report(
        store.tree, later, bootstrap_plan=None, meaning=Unavailable("off"), dismissed=()
    )
    assert of(found, h.INDEX_DRIFT) == []
    short = next(
        k for k in drift(store.tree, store.root, later).kinds if k.path.startswith(made.ST)
    )
    assert short.gone or short.disagreeing, "the index check itself still says they aged out"


def _long_index(listed_in: dict[str, object]) -> str:
    entry = {"file": Path(made.HAND_LONG).name, "importance": "high", "topics": ["api", "design"]}
    return json.dumps({"last_updated": "2026-05-02", **{k: v(entry) for k, v in listed_in.items()}})


def test_long_term_groups_are_the_assistants_own_but_critical_is_read(made_tree) -> None:
    """Long-term's grouping is the assistant's own: an entry only in `high_importance` is found
    all the same. Listed as critical while its file is not, it is loaded every session."""
    index = f"{made.LT}/index.json"
    grouped = _long_index({"critical": lambda e: [], "high_importance": lambda e: [e]})
    assert of(report_of(made_tree({index: grouped})), h.INDEX_DRIFT) == []
    wrong = _long_index({"critical": lambda e: [e], "high_importance": lambda e: [e]})
    (found,) = of(report_of(made_tree({index: wrong})), h.INDEX_DRIFT)
    assert found.paths == (index,) and "1 disagreeing" in found.message


def test_a_session_analysis_is_read_against_its_own_day(made_tree) -> None:
    """The worker's account of a session is headed by its date: its "tomorrow" is that day's."""
    session = made.SESSIONS[0]
    path = f"{made.ST}/{session.name}"
    text = session.text().replace("## Action Items\n", "## Action Items\n- Deploy tomorrow\n")
    assert "Deploy tomorrow" in text
    assert of(report_of(made_tree({path: text})), h.RELATIVE_DATE) == []

"""The bootstrap plan follows the index.json files the assistant reads, and marks where they and the
memory files disagree: in its items and near misses, its rows, its Markdown and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.bootstrap import Signals, Tier, UnknownProject, active_projects, plan
from samantha_tui.core.views.bootstrap_markdown import render
from samantha_tui.core.views.index_view import read_index
from samantha_tui.ui.bootstrap_rows import Disagreement, Note, entries, entry_row

from ..bootstrap_indexes import index, tasks_index
from ..conftest import LT, ST, TASKS, TODAY, dt, memory_text

RUNBOOKS = ".ai/procedural-memory/.ai"


def ago(days: int) -> str:
    return (TODAY - dt.timedelta(days=days)).isoformat()


def entry(file: str, **extra: object) -> dict[str, object]:
    return {"file": file, "title": file, **extra}


def short_index(critical=(), high_priority=(), recent=()) -> dict[str, str]:
    return index(
        ST,
        {
            "critical": [entry(f) for f in critical],
            "high_priority": [entry(f) for f in high_priority],
            "recent": {"high_importance": [entry(f) for f in recent], "medium_importance": []},
        },
    )


def make_plan(store, signals: Signals | None = None, budget: int | None = None):
    return plan(store.tree, signals or Signals(), TODAY, budget)


def names(rows) -> list[str]:
    return [row.path.rsplit("/", 1)[-1] for row in rows]


def near(result, name: str):
    (found,) = [m for m in result.near_misses if m.path.endswith("/" + name)]
    return found


def item(result, name: str):
    (found,) = [i for i in result.items if i.path.endswith("/" + name)]
    return found


# --- critical, frequent, recent ------------------------------------------------------------------


def test_critical_in_its_file_but_not_in_the_index_does_not_load(tree):
    store = tree(
        {
            f"{ST}/listed.md": memory_text(date=ago(200), topics="[x]", critical="true"),
            f"{ST}/forgotten.md": memory_text(date=ago(200), topics="[x]", critical="true"),
            **short_index(critical=["listed.md"]),
        }
    )
    result = make_plan(store)
    assert names(result.items) == ["listed.md"]
    assert item(result, "listed.md").disagreements == ()
    missed = near(result, "forgotten.md")
    assert missed.reason == "critical in its file"
    assert missed.disagreements == (
        "critical in its file, missing from index.json's critical list: the assistant will not "
        "read it as critical until the index is updated (press r, or run `samantha-tui index`)",
    )
    assert result.disagreements == 1


def test_in_the_index_but_not_critical_in_its_file_loads_and_is_marked(tree):
    store = tree(
        {
            f"{ST}/demoted.md": memory_text(date=ago(200), topics="[x]", critical="false"),
            f"{LT}/plain.md": memory_text(date=ago(300), topics="[x]"),
            **short_index(critical=["demoted.md", "gone.md"]),
            **index(LT, {"critical": [entry("plain.md")]}),
        }
    )
    result = make_plan(store)
    assert [(i.tier, n) for i, n in zip(result.items, names(result.items), strict=True)] == [
        (Tier.CRITICAL, "demoted.md"),
        (Tier.CRITICAL, "plain.md"),
    ]
    assert item(result, "demoted.md").disagreements == (
        "in index.json's critical list, but its file says critical: false",
    )
    assert item(result, "plain.md").disagreements == (
        "in index.json's critical list, but its file has no `critical`",
    )
    gone = near(result, "gone.md")
    assert not gone.file_found
    assert gone.disagreements[0].startswith("listed in index.json's critical list, file not found")
    assert result.on_demand == (), "a long-term memory the index loads is not also on demand"


def test_frequent_and_recent_come_from_the_short_term_index(tree):
    store = tree(
        {
            f"{ST}/often.md": memory_text(date=ago(200), topics="[x]", reference_count="7"),
            f"{ST}/rare.md": memory_text(date=ago(200), topics="[x]", reference_count="2"),
            f"{ST}/fresh.md": memory_text(date=ago(3), topics="[x]", importance="high"),
            f"{ST}/stale.md": memory_text(date=ago(45), topics="[x]", importance="high"),
            f"{ST}/meh.md": memory_text(date=ago(5), topics="[x]", importance="medium"),
            **short_index(high_priority=["rare.md"], recent=["stale.md", "meh.md"]),
        }
    )
    result = make_plan(store)
    assert [(i.tier, i.reason) for i in result.items] == [
        (Tier.FREQUENT, "referenced 2 times"),
        (Tier.RECENT_HIGH, "high importance, 45 days old"),
        (Tier.RECENT_HIGH, "medium importance, 5 days old"),
    ]
    assert item(result, "rare.md").disagreements == (
        "in index.json's high_priority list, but its file says reference_count: 2",
    )
    assert (
        "45 days old: the index's recent list is out of date"
        in (item(result, "stale.md").disagreements[0])
    )
    assert item(result, "meh.md").disagreements == (
        "in index.json's recent.high_importance list, but its file says importance: medium",
    )
    assert (
        near(result, "often.md")
        .disagreements[0]
        .startswith("referenced 7 times in its file, missing from index.json's high_priority list")
    )
    assert (
        near(result, "fresh.md")
        .disagreements[0]
        .startswith(
            "high importance, 3 days old, missing from index.json's recent.high_importance list"
        )
    )


def test_a_file_loaded_by_an_earlier_tier_gets_no_mark_from_a_later_one(tree):
    store = tree(
        {
            f"{ST}/rule.md": memory_text(
                date=ago(60), topics="[x]", critical="true", importance="high"
            ),
            **short_index(critical=["rule.md"], recent=["rule.md"]),
        }
    )
    result = make_plan(store)
    assert [(i.tier, i.disagreements) for i in result.items] == [(Tier.CRITICAL, ())]


# --- projects ------------------------------------------------------------------------------------


def test_an_index_only_project_is_shown_without_a_size(tree, capsys):
    store = tree(
        tasks_index(
            {
                "name": "Data Lake",
                "status": "Phase 1 - [bold]scoping[/]",
                "summary": "Move reports to Parquet",
                "files": ["data-lake/status.md"],
            }
        )
    )
    result = make_plan(store)
    assert result.project == "Data Lake"
    (status,) = result.items
    assert (status.tier, status.path, status.file_found) == (
        Tier.PROJECT,
        f"{TASKS}/data-lake/status.md",
        False,
    )
    assert (status.tokens, status.running_tokens) == (0, 0)
    assert (status.index_status, status.index_summary) == (
        "Phase 1 - [bold]scoping[/]",
        "Move reports to Parquet",
    )
    assert status.disagreements == (
        "in index.json's active list, but data-lake/status.md is not found: the assistant knows "
        "this project only from the index entry",
    )
    assert active_projects(store.tree) == ["Data Lake"]

    assert main(["bootstrap", str(store.root), "--json"]) == 0
    (data,) = json.loads(capsys.readouterr().out)["items"]
    assert (data["tokens"], data["lines"], data["chars"], data["file_found"]) == (
        None,
        None,
        None,
        False,
    )
    assert data["index_status"] == "Phase 1 - [bold]scoping[/]"
    assert main(["bootstrap", str(store.root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[out.index("Current project") + 1].startswith(
        "  1  project      - tok   total     0  current-tasks/data-lake/status.md"
    )
    assert "     index.json: Phase 1 - [bold]scoping[/] · Move reports to Parquet" in out


def test_a_renamed_project_is_matched_to_its_folder_by_files_then_by_name(tree):
    store = tree(
        {
            f"{TASKS}/gateway/status.md": memory_text(date=ago(40), topics="[x]", status="active"),
            f"{TASKS}/billing/status.md": memory_text(date=ago(40), topics="[x]", status="blocked"),
            f"{ST}/by_folder.md": memory_text(date=ago(9), topics="[x]", project="gateway"),
            f"{ST}/by_name.md": memory_text(
                date=ago(8), topics="[x]", importance="high", project="Gateway Refactor"
            ),
            **tasks_index(
                {"name": "Gateway Refactor", "status": "Phase 2", "files": ["gateway/status.md"]},
                {"name": "Billing", "status": "Phase 1"},
            ),
        }
    )
    result = make_plan(store, Signals(project="Gateway Refactor"))
    assert result.project == "Gateway Refactor"
    assert [(i.path.removeprefix(TASKS + "/"), i.reason) for i in result.items] == [
        ("gateway/status.md", "project Gateway Refactor (folder gateway/) is current (chosen)"),
        (f"{ST}/by_name.md", "project Gateway Refactor, high importance"),
        (f"{ST}/by_folder.md", "project Gateway Refactor, unset importance"),
        ("billing/status.md", "project Billing (folder billing/) is active"),
    ]
    # "Billing" found its folder by name, ignoring case; its file says blocked.
    assert result.items[-1].disagreements == (
        "in index.json's active list, but its file says status: blocked",
    )
    # The folder's own name chooses it too; and the two active entries make two choices.
    assert make_plan(store, Signals(project="gateway")).project == "Gateway Refactor"
    assert active_projects(store.tree) == ["Billing", "Gateway Refactor"]
    with pytest.raises(
        UnknownProject, match="current: Billing, Gateway Refactor, billing, gateway"
    ):
        make_plan(store, Signals(project="nope"))


def test_an_active_status_file_the_index_does_not_list_is_a_marked_near_miss(tree):
    store = tree(
        {
            f"{TASKS}/gw/status.md": memory_text(date=ago(40), topics="[x]", status="active"),
            f"{TASKS}/side/status.md": memory_text(date=ago(40), topics="[x]", status="active"),
            **tasks_index({"name": "gw", "status": "active", "files": ["gw/status.md"]}),
        }
    )
    result = make_plan(store)
    assert result.project == "gw"
    assert names(result.items) == ["status.md"]
    side = near(result, "side/status.md")
    assert side.reason == "project side is active in its status.md only"
    assert side.disagreements[0].startswith(
        "its status.md says active, but index.json's active list does not name it"
    )
    assert active_projects(store.tree) == ["gw", "side"]


def test_the_project_tier_loads_what_the_index_gives_and_marks_the_rest(tree):
    """The assistant finds the project's memories by the index entries naming it: a merge copy,
    a memory `recent` dropped as old and one the index leaves out are marked, never loaded."""
    st = {
        "critical": [],
        "high_priority": [],
        "recent": {
            "high_importance": [entry("fresh.md", project="gw")],
            "medium_importance": [
                entry("said.md", project="gw"),
                entry("note_20260601_120000.md", project="gw"),
                entry("other.md", project="side"),
                entry("gone.md", project="gw"),
            ],
        },
    }
    store = tree(
        {
            f"{TASKS}/gw/status.md": memory_text(date=ago(40), topics="[x]", status="active"),
            f"{ST}/fresh.md": memory_text(
                date=ago(2), topics="[x]", importance="high", project="gw"
            ),
            # The index's entry names the project; the file names another: the index decides.
            f"{ST}/said.md": memory_text(date=ago(3), topics="[x]", project="billing"),
            f"{ST}/note.md": memory_text(date=ago(5), topics="[x]", project="gw"),
            f"{ST}/note_20260601_120000.md": memory_text(date=ago(5), topics="[x]", project="gw"),
            f"{ST}/other.md": memory_text(date=ago(4), topics="[x]", project="gw"),
            f"{ST}/old.md": memory_text(date=ago(45), topics="[x]", project="gw"),
            f"{LT}/kept.md": memory_text(date=ago(300), topics="[x]", project="gw"),
            **index(ST, st),
            **index(LT, {"critical": [], "high_importance": [entry("kept.md", project="gw")]}),
            **tasks_index({"name": "gw", "status": "active", "files": ["gw/status.md"]}),
        }
    )
    result = make_plan(store)
    mine = [i for i in result.items if i.tier is Tier.PROJECT]
    assert names(mine) == ["status.md", "fresh.md", "said.md", "kept.md"]
    assert item(result, "said.md").disagreements == (
        "index.json's recent.medium_importance entry says project: gw, but its file says"
        " project: billing",
    )
    assert not any(i.path.endswith("_20260601_120000.md") for i in result.items)
    copy = near(result, "note_20260601_120000.md")
    assert copy.disagreements == (
        "listed in index.json's recent.medium_importance list, but a merge copy of note.md"
        " (samantha-llm's merge wrote it; its worker never indexes one): the assistant does not"
        " load it as the project's",
    )
    assert near(result, "note.md").disagreements == (
        "in no index list: the assistant does not load it until the index is updated"
        " (press r, or run `samantha-tui index`)",
    )
    assert near(result, "old.md").disagreements == (
        "in no index list (45 days old: `recent` keeps the last 30 days): the assistant does not"
        " load it",
    )
    assert (
        near(result, "other.md")
        .disagreements[0]
        .startswith(
            "its file says project: gw, but its entry in index.json's recent.medium_importance list"
            " says project: side: the assistant does not load it as the project's"
        )
    )
    gone = near(result, "gone.md")
    assert gone.file_found is False
    assert gone.disagreements[0].startswith(
        "listed in index.json's recent.medium_importance list, file not found"
    )
    # Every near miss of the project tier is marked: none is left unexplained.
    assert all(m.disagreements for m in result.near_misses if "project gw" in m.reason)


def test_without_a_short_term_index_the_files_decide_but_merge_copies_never_load(tree):
    store = tree(
        {
            f"{TASKS}/gw/status.md": memory_text(date=ago(40), topics="[x]", status="active"),
            f"{ST}/note.md": memory_text(date=ago(5), topics="[x]", project="gw"),
            f"{ST}/note_20260601_120000.md": memory_text(date=ago(5), topics="[x]", project="gw"),
        }
    )
    result = make_plan(store)
    assert names(result.items) == ["status.md", "note.md"]


# --- runbooks ------------------------------------------------------------------------------------


RUNBOOK = """---
date: 2026-05-28
topics: [database]
type: runbook
triggers:
  positive:
    repo_signals: [tidewater/ledger]
    keyword_signals: [alembic]
  negative: []
---

# Migrations Runbook
"""


def procedural_index(triggers: dict[str, object]) -> dict[str, str]:
    return index(
        RUNBOOKS,
        {
            "runbooks": [{"file": "db.md", "domain": "db", "triggers": triggers}],
            "loading_strategy": {"minimum_positive_categories": 2},
        },
    )


def test_a_runbook_loads_through_signals_only_the_index_holds(tree):
    triggers = {
        "positive": {
            "repo_signals": ["tidewater/ledger"],
            "path_signals": ["src/db/"],
            "keyword_signals": ["alembic"],
        },
        "negative": [],
    }
    store = tree({f"{RUNBOOKS}/db.md": RUNBOOK, **procedural_index(triggers)})
    result = make_plan(store, Signals(repos=("ledger",), paths=("src/db/models.py",)))
    (runbook,) = result.items
    assert (runbook.tier, runbook.reason) == (Tier.RUNBOOK, "runbook: repo + path signals matched")
    assert runbook.disagreements == (
        "loads through index-only signals: path_signals src/db/ (not in the runbook file)",
    )
    # With signals the file has too, nothing is index-only.
    both = make_plan(store, Signals(repos=("ledger",), keywords=("alembic",)))
    assert both.items[0].disagreements == ()


def test_a_negative_signal_only_in_the_index_vetoes(tree):
    triggers = {
        "positive": {"repo_signals": ["tidewater/ledger"], "keyword_signals": ["alembic"]},
        "negative": [{"signal": "reports-svc", "reason": "dbt there", "added": "2026-06-01"}],
    }
    store = tree({f"{RUNBOOKS}/db.md": RUNBOOK, **procedural_index(triggers)})
    result = make_plan(store, Signals(repos=("ledger", "reports-svc"), keywords=("alembic",)))
    assert result.items == ()
    missed = near(result, "db.md")
    assert missed.reason == (
        "runbook: repo + keyword signals matched but negative signal 'reports-svc' matched "
        "repo reports-svc (dbt there)"
    )
    assert missed.disagreements == (
        "vetoed by negative signal 'reports-svc', which is in index.json only (not in the "
        "runbook file)",
    )


def test_a_runbook_missing_from_the_index_and_one_whose_file_is_gone(tree):
    store = tree(
        {
            f"{RUNBOOKS}/db.md": RUNBOOK,
            **index(RUNBOOKS, {"runbooks": [{"file": "ghost.md", "triggers": {}}]}),
        }
    )
    result = make_plan(store, Signals(repos=("ledger",), keywords=("alembic",)))
    assert result.items == ()
    db = near(result, "db.md")
    assert db.reason == "runbook not in index.json"
    assert db.disagreements[0].endswith(
        "; its own triggers would load it (repo + keyword signals matched)"
    )
    ghost = near(result, "ghost.md")
    assert (ghost.file_found, ghost.title) == (False, "ghost")
    assert ghost.disagreements[0].startswith("listed in index.json's runbooks list, file not found")


# --- without an index ----------------------------------------------------------------------------


def test_no_index_json_at_all_falls_back_to_the_files_and_says_so(tree, capsys):
    store = tree(
        {
            f"{ST}/rule.md": memory_text(date=ago(200), topics="[x]", critical="true"),
            f"{TASKS}/gw/status.md": memory_text(date=ago(40), topics="[x]", status="active"),
            f"{RUNBOOKS}/db.md": RUNBOOK,
        }
    )
    result = make_plan(store, Signals(repos=("ledger",), keywords=("alembic",)))
    assert [(i.tier, n) for i, n in zip(result.items, names(result.items), strict=True)] == [
        (Tier.CRITICAL, "rule.md"),
        (Tier.PROJECT, "status.md"),
        (Tier.RUNBOOK, "db.md"),
    ]
    assert result.disagreements == 0
    assert [(s.kind, s.from_index) for s in result.sources] == [
        (Kind.SHORT_TERM, False),
        (Kind.LONG_TERM, False),
        (Kind.CURRENT_TASKS, False),
        (Kind.PROCEDURAL, False),
    ]
    assert result.sources[0].note == (
        "no index.json for short-term: the assistant falls back to index.md / the files; "
        "shown from the files"
    )
    assert "skips runbooks without it" in result.sources[3].note
    assert main(["bootstrap", str(store.root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"From the files: {result.sources[0].note}"
    assert out[4] == "Critical memories (every session)"
    rows = entries(result, 8000, {})
    assert Note(result.sources[0].note) in rows


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"{not json", "not valid JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nested more than 100 levels deep"),
        (b"[1, 2]", "not a JSON object"),
        (b"\xff\xfe{}", "not UTF-8 text"),
    ],
)
def test_an_unreadable_index_falls_back_and_never_raises(tree, content, problem):
    store = tree(
        {
            f"{ST}/rule.md": memory_text(date=ago(200), topics="[x]", critical="true"),
            f"{ST}/index.json": content,
        }
    )
    assert problem in read_index(Path(store.root), Kind.SHORT_TERM).problem
    result = make_plan(store)
    assert names(result.items) == ["rule.md"]
    assert result.sources[0].note.startswith(
        f".ai/short-term-memory/.ai/index.json cannot be read ({problem}"
    )


def test_odd_shapes_in_an_index_are_skipped_and_counted(tree):
    data = {
        "critical": [
            "rule.md",
            {"file": ["rule.md"]},
            {"title": "no file"},
            {"file": "./rule.md", "title": {"nested": [[[]]]}},
        ],
        "high_priority": {"file": "rule.md"},
        "recent": ["x"],
    }
    store = tree(
        {
            f"{ST}/rule.md": memory_text(date=ago(200), topics="[x]", critical="true"),
            **index(ST, data),
        }
    )
    result = make_plan(store)
    assert names(result.items) == ["rule.md"]
    assert result.items[0].disagreements == ()
    assert (
        "2 entries of .ai/short-term-memory/.ai/index.json's critical list name no `file`: the "
        "assistant can read nothing for them" in result.notes
    )


# --- what the preview and the export show --------------------------------------------------------


def test_rows_and_markdown_mark_each_disagreement_literally(tree):
    title = "Rule [bold]x[/] [link=y]"
    store = tree(
        {
            f"{ST}/listed.md": memory_text(date=ago(200), topics="[x]"),
            f"{ST}/forgotten.md": (
                f"---\ndate: {ago(200)}\ntopics: [x]\ncritical: true\n---\n# {title}\n"
            ),
            **short_index(critical=["listed.md"]),
        }
    )
    result = make_plan(store)
    rows = entries(result, 8000, {})
    keys = [f"k{i}" for i in range(len(rows))]
    cells = {
        type(row).__name__ + str(i): [
            c.plain for c in entry_row(row, keys[i], result, 8000, {}, True).cells
        ]
        for i, row in enumerate(rows)
    }
    listed = next(v for k, v in cells.items() if k.startswith("PlanItem"))
    assert listed[0] == "≠"
    details = [row for row in rows if isinstance(row, Disagreement)]
    assert [d.path for d in details] == [result.items[0].path, near(result, "forgotten.md").path]
    miss = next(v for k, v in cells.items() if k.startswith("NearMiss"))
    assert miss[:3] == ["≠", title, "critical in its file"]
    detail_cells = [v for k, v in cells.items() if k.startswith("Disagreement")]
    assert detail_cells[0][1] == "≠ " + result.items[0].disagreements[0]

    markdown = render(result, None)
    assert "**Index and files disagree** in 2 places, marked ≠" in markdown
    assert (
        "| critical — ≠ in index.json's critical list, but its file has no \\`critical\\` |"
        in markdown
    )
    assert "Rule \\[bold\\]x\\[/\\] \\[link=y\\]" in markdown


def test_a_project_memory_an_earlier_tier_loads_gets_no_project_mark(tree):
    store = tree(
        {
            f"{TASKS}/gw/status.md": memory_text(date=ago(40), topics="[x]", status="active"),
            f"{ST}/rule.md": memory_text(
                date=ago(200), topics="[x]", critical="true", project="gw"
            ),
            **short_index(critical=["rule.md"]),
            **tasks_index({"name": "gw", "status": "active", "files": ["gw/status.md"]}),
        }
    )
    result = make_plan(store)
    assert [(i.tier, n) for i, n in zip(result.items, names(result.items), strict=True)] == [
        (Tier.CRITICAL, "rule.md"),
        (Tier.PROJECT, "status.md"),
    ]
    assert result.disagreements == 0

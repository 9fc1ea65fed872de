"""The bootstrap plan: each loading rule and its boundaries, sizes, budget, and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.reading.triggers import (
    LoadingStrategy,
    path_matches,
    phrase_matches,
    read_strategy,
    repo_matches,
)
from samantha_tui.core.views.bootstrap import Signals, Tier, UnknownProject, plan

from ..conftest import LT, ST, TASKS, TODAY, dt, memory_text

RUNBOOKS = ".ai/procedural-memory/.ai"


def ago(days: int) -> str:
    return (TODAY - dt.timedelta(days=days)).isoformat()


def make_plan(store, signals: Signals | None = None, budget: int | None = None):
    return plan(store.tree, signals or Signals(), TODAY, budget)


def loaded(result) -> list[tuple[Tier, str, str]]:
    return [(i.tier, i.path.rsplit("/", 1)[-1], i.reason) for i in result.items]


def missed(result) -> dict[str, str]:
    return {m.path.rsplit("/", 1)[-1]: m.reason for m in result.near_misses}


def status_text(status: str = "active") -> str:
    return memory_text(date=ago(40), topics="[x]", status=status)


RUNBOOK = """---
date: 2026-05-28
topics: [database]
type: runbook
triggers:
  positive:
    repo_signals: [tidewater/ledger, alembic.ini]
    path_signals: ["migrations/versions/", "*.sql"]
    keyword_signals: [alembic, state lock]
    domain_signals: [postgres]
  negative:
    - signal: "reports-svc"
      reason: "Reports uses dbt"
      added: 2026-05-28
    - signal: "tests/e2e/"
      reason: "Node suite"
      added: 2026-05-28
---

# Migrations Runbook
"""


RUNBOOK_TRIGGERS = {
    "positive": {
        "repo_signals": ["tidewater/ledger", "alembic.ini"],
        "path_signals": ["migrations/versions/", "*.sql"],
        "keyword_signals": ["alembic", "state lock"],
        "domain_signals": ["postgres"],
    },
    "negative": [
        {"signal": "reports-svc", "reason": "Reports uses dbt", "added": "2026-05-28"},
        {"signal": "tests/e2e/", "reason": "Node suite", "added": "2026-05-28"},
    ],
}
"""RUNBOOK's triggers as the procedural index.json holds them."""


# --- tiers and their boundaries ------------------------------------------------------------------


def test_critical_short_term_then_long_term(tree):
    store = tree(
        {
            f"{LT}/a_rule.md": memory_text(date=ago(400), topics="[x]", critical="true"),
            f"{ST}/z_rule.md": memory_text(date=ago(200), topics="[x]", critical="true"),
            f"{ST}/b_plain.md": memory_text(date=ago(200), topics="[x]"),
        }
    )
    assert loaded(make_plan(store)) == [
        (Tier.CRITICAL, "z_rule.md", "critical"),
        (Tier.CRITICAL, "a_rule.md", "critical"),
    ]


def test_reference_count_five_loads_four_is_a_near_miss(tree):
    store = tree(
        {
            f"{ST}/four.md": memory_text(date=ago(200), topics="[x]", reference_count="4"),
            f"{ST}/five.md": memory_text(date=ago(200), topics="[x]", reference_count="5"),
            f"{ST}/nine.md": memory_text(date=ago(200), topics="[x]", reference_count="9"),
        }
    )
    result = make_plan(store)
    assert loaded(result) == [
        (Tier.FREQUENT, "nine.md", "referenced 9 times"),
        (Tier.FREQUENT, "five.md", "referenced 5 times"),
    ]
    assert missed(result) == {"four.md": "referenced 4 times, one short of 5"}


def test_recent_high_importance_is_thirty_days_inclusive(tree):
    files = {
        f"{ST}/d{days}.md": memory_text(date=ago(days), topics="[x]", importance="high")
        for days in (0, 1, 29, 30, 31, 45, 90, 91)
    }
    files[f"{ST}/medium.md"] = memory_text(date=ago(3), topics="[x]", importance="medium")
    result = make_plan(tree(files))
    assert loaded(result) == [
        (Tier.RECENT_HIGH, "d0.md", "high importance, from today"),
        (Tier.RECENT_HIGH, "d1.md", "high importance, 1 day old"),
        (Tier.RECENT_HIGH, "d29.md", "high importance, 29 days old"),
        (Tier.RECENT_HIGH, "d30.md", "high importance, 30 days old"),
    ]
    assert missed(result) == {
        "d31.md": "high importance but 31 days old",
        "d45.md": "high importance but 45 days old",
        "d90.md": "high importance but 90 days old",
    }


def test_ages_follow_the_today_given_to_plan(tree):
    store = tree({f"{ST}/m.md": memory_text(date=ago(31), topics="[x]", importance="high")})
    result = plan(store.tree, Signals(), TODAY - dt.timedelta(days=1))
    assert loaded(result) == [(Tier.RECENT_HIGH, "m.md", "high importance, 30 days old")]


def test_a_memory_that_qualifies_twice_appears_once_in_its_first_tier(tree):
    store = tree(
        {
            f"{ST}/all.md": memory_text(
                date=ago(2),
                topics="[x]",
                importance="high",
                critical="true",
                reference_count="7",
                project="gw",
            ),
            f"{TASKS}/gw/status.md": status_text(),
        }
    )
    result = make_plan(store)
    assert loaded(result) == [
        (Tier.CRITICAL, "all.md", "critical"),
        (Tier.PROJECT, "status.md", "project gw is the only active project"),
    ]
    assert result.total_tokens == sum(item.tokens for item in result.items)
    assert result.near_misses == ()


def test_sizes_count_the_whole_file_and_running_totals_add_up(tree):
    first = memory_text(date=ago(1), topics="[x]", importance="high")
    second = "---\ndate: " + ago(2) + "\ntopics: [x]\nimportance: high\n---\nCafé ünïcode body"
    store = tree({f"{ST}/a.md": first, f"{ST}/b.md": second})
    a, b = make_plan(store).items
    assert (a.lines, a.chars, a.tokens) == (first.count("\n"), len(first), -(-len(first) // 4))
    assert (b.lines, b.chars) == (second.count("\n") + 1, len(second))
    assert b.chars < len(second.encode("utf-8"))
    assert (a.running_tokens, b.running_tokens) == (a.tokens, a.tokens + b.tokens)


def test_nested_frontmatter_lines_are_counted_as_written(tree):
    store = tree({f"{RUNBOOKS}/db.md": RUNBOOK})
    result = make_plan(store, Signals(repos=("tidewater/ledger",), keywords=("alembic",)))
    (item,) = result.items
    assert (item.lines, item.chars) == (RUNBOOK.count("\n"), len(RUNBOOK))


def test_budget_marks_where_it_runs_out(tree):
    files = {
        f"{ST}/{n}.md": memory_text(date=ago(n), topics="[x]", importance="high") for n in (1, 2, 3)
    }
    store = tree(files)
    each = make_plan(store).items[0].tokens
    result = make_plan(store, budget=2 * each)
    assert [i.over_budget for i in result.items] == [False, False, True]
    assert result.budget_runs_out_at == 2
    assert make_plan(store, budget=3 * each).budget_runs_out_at is None
    with pytest.raises(ValueError, match="budget must be at least 1 token"):
        make_plan(store, budget=0)


def test_memories_with_unreadable_frontmatter_never_load(tree):
    broken = "---\ndate: 2026-06-14\ncritical: true\ntopics: [x\n---\n# Broken\n"
    store = tree({f"{ST}/broken.md": broken})
    result = make_plan(store)
    assert (result.items, result.near_misses) == ((), ())


def test_long_term_is_listed_on_demand_and_not_counted(tree):
    store = tree(
        {
            f"{LT}/topic/deep.md": memory_text(date=ago(300), topics="[x]"),
            f"{LT}/rule.md": memory_text(date=ago(300), topics="[x]", critical="true"),
        }
    )
    result = make_plan(store)
    assert [m.path for m in result.on_demand] == [f"{LT}/topic/deep.md"]
    assert result.on_demand[0].tokens > 0
    assert result.total_tokens == result.items[0].tokens


# --- the current project -------------------------------------------------------------------------


def project_files() -> dict[str, str]:
    return {
        f"{TASKS}/gw/status.md": status_text(),
        f"{TASKS}/billing/status.md": status_text(),
        f"{TASKS}/old/status.md": status_text("blocked"),
        f"{ST}/gw_old_high.md": memory_text(
            date=ago(80), topics="[x]", importance="high", project="gw"
        ),
        f"{ST}/gw_new_low.md": memory_text(
            date=ago(5), topics="[x]", importance="low", project="gw"
        ),
        f"{LT}/gw_new_high.md": memory_text(
            date=ago(60), topics="[x]", importance="high", project="gw"
        ),
        f"{ST}/billing_note.md": memory_text(date=ago(5), topics="[x]", project="billing"),
    }


def test_chosen_project_loads_status_then_memories_high_first_then_other_active(tree):
    result = make_plan(tree(project_files()), Signals(project="gw"))
    assert loaded(result) == [
        (Tier.PROJECT, "status.md", "project gw is current (chosen)"),
        (Tier.PROJECT, "gw_new_high.md", "project gw, high importance"),
        (Tier.PROJECT, "gw_old_high.md", "project gw, high importance"),
        (Tier.PROJECT, "gw_new_low.md", "project gw, low importance"),
        (Tier.PROJECT, "status.md", "project billing is active"),
    ]
    assert result.items[0].path == f"{TASKS}/gw/status.md"
    assert result.project == "gw"
    assert missed(result) == {"status.md": "project old is blocked, not active"}


def test_several_active_projects_and_none_chosen_load_only_their_status_files(tree):
    result = make_plan(tree(project_files()))
    assert [(i.path, i.reason) for i in result.items] == [
        (f"{TASKS}/billing/status.md", "project billing is active"),
        (f"{TASKS}/gw/status.md", "project gw is active"),
    ]
    assert result.project is None
    assert "several active projects and none chosen" in result.notes[0]


def test_unknown_or_completed_project_is_an_error_naming_the_current_ones(tree):
    files = project_files()
    files[".ai/work-experience/.ai/done/status.md"] = status_text("completed")
    store = tree(files)
    with pytest.raises(UnknownProject, match=r"no project 'gx' in current tasks \(current: "):
        make_plan(store, Signals(project="gx"))
    with pytest.raises(UnknownProject, match="'done' is completed"):
        make_plan(store, Signals(project="done"))


def test_pending_updates_are_a_note_not_an_item(demo_root):
    from samantha_tui.core.writing.store import Store

    store = Store(demo_root, lambda: TODAY)
    store.scan()
    result = make_plan(store)
    # Two active projects in the demo's index, one kept there alone (no folder): the one with a
    # folder is the current one until another is chosen.
    assert result.project == "api-gateway-refactor"
    assert not any("several active projects" in n for n in result.notes)
    assert any("1 pending project update for api-gateway-refactor" in n for n in result.notes)
    assert not any("pending-updates" in i.path for i in result.items)


# --- runbooks ------------------------------------------------------------------------------------


def runbook_result(tree, *, text: str = RUNBOOK, **signals):
    return make_plan(tree({f"{RUNBOOKS}/db.md": text}), Signals(**signals))


def test_runbook_loads_with_two_categories(tree):
    result = runbook_result(
        tree, repos=("Tidewater/Ledger",), paths=("svc/migrations/versions/x.py",)
    )
    assert loaded(result) == [(Tier.RUNBOOK, "db.md", "runbook: repo + path signals matched")]


def test_runbook_with_one_category_is_a_near_miss(tree):
    result = runbook_result(tree, keywords=("alembic", "state lock stuck"))
    assert result.items == ()
    assert missed(result) == {"db.md": "runbook: only keyword signals matched, 2 categories needed"}


def test_domain_signals_match_keywords_and_the_project(tree):
    files = {f"{RUNBOOKS}/db.md": RUNBOOK, f"{TASKS}/postgres-upgrade/status.md": status_text()}
    result = make_plan(tree(files), Signals(keywords=("alembic",)))
    assert loaded(result)[-1] == (
        Tier.RUNBOOK,
        "db.md",
        "runbook: keyword + domain signals matched",
    )


def test_a_matching_negative_signal_vetoes_and_is_named(tree):
    result = runbook_result(
        tree, repos=("ledger",), keywords=("alembic",), paths=("app/tests/e2e/login.spec.ts",)
    )
    assert result.items == ()
    assert missed(result) == {
        "db.md": "runbook: repo + keyword signals matched but negative signal 'tests/e2e/' "
        "matched path app/tests/e2e/login.spec.ts (Node suite)"
    }


@pytest.mark.parametrize(
    ("triggers", "reason"),
    [
        (
            "triggers: [alembic]\n",
            "runbook: `triggers` is not a mapping of `positive` and `negative`",
        ),
        (
            "triggers:\n  positive:\n    keyword_signals: [[a], b]\n",
            "runbook: `keyword_signals` holds something other than text",
        ),
        (
            "triggers:\n  negative: [reports-svc]\n",
            "runbook: `triggers.negative` entry 1 has no text `signal`",
        ),
        ("domain: db\n", "runbook: no `triggers`, so it never loads at start"),
    ],
)
def test_malformed_triggers_make_a_near_miss_not_a_crash(tree, triggers, reason):
    text = f"---\ndate: 2026-05-28\ntopics: [db]\ntype: runbook\n{triggers}---\n# Runbook\n"
    result = runbook_result(tree, text=text, repos=("ledger",), keywords=("alembic",))
    assert missed(result) == {"db.md": reason}


def test_minimum_categories_come_from_the_procedural_index(tree):
    strategy = {
        "runbooks": [{"file": "db.md", "triggers": RUNBOOK_TRIGGERS}],
        "loading_strategy": {"minimum_positive_categories": 3},
    }
    files = {f"{RUNBOOKS}/db.md": RUNBOOK, f"{RUNBOOKS}/index.json": json.dumps(strategy)}
    store = tree(files)
    result = make_plan(store, Signals(repos=("ledger",), keywords=("alembic",)))
    assert missed(result) == {
        "db.md": "runbook: only repo + keyword signals matched, 3 categories needed"
    }
    assert read_strategy(Path(store.tree.root)) == LoadingStrategy(
        3, True, f"{RUNBOOKS}/index.json"
    )


def test_an_unreadable_procedural_index_falls_back_to_two(tmp_path):
    folder = tmp_path / RUNBOOKS
    folder.mkdir(parents=True)
    (folder / "index.json").write_text("{not json")
    assert read_strategy(tmp_path).minimum_positive_categories == 2
    assert "not readable JSON" in read_strategy(tmp_path).source


@pytest.mark.parametrize(
    ("signal", "path", "hit"),
    [
        ("tests/", "svc/tests/test_a.py", True),
        ("tests/", "svc/contests/a.py", False),
        ("migrations/versions/", "migrations/versions", True),
        ("*.tf", "terraform/prod/main.tf", True),
        ("*.tf", "terraform/prod/main.tfvars", False),
        ("tests/conftest.py", "/home/me/repo/tests/conftest.py", True),
        ("tests/conftest.py", "tests/conftest.pyc", False),
        (".github/workflows/ci.yml", ".\\.github\\workflows\\CI.yml", True),
    ],
)
def test_path_signals(signal, path, hit):
    assert path_matches(signal, path) is hit


def test_repo_and_phrase_signals():
    assert repo_matches("tidewater/infra", "infra")
    assert repo_matches("infra", "Tidewater/Infra")
    assert not repo_matches("infra", "tidewater/infra-old")
    assert phrase_matches("state lock", "Terraform STATE LOCK stuck")
    assert not phrase_matches("plan", "planning the cutover")
    assert phrase_matches("gateway", "api-gateway-refactor")


# --- the command ---------------------------------------------------------------------------------


def test_command_on_the_demo_tree(demo_root, capsys):
    args = ["bootstrap", str(demo_root), "--project", "api-gateway-refactor"]
    args += ["--repo", "tidewater/infra", "--path", "terraform/a.tf"]
    assert main([*args, "--budget", "2000"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Critical memories (every session)"
    # In the order of the short-term index.json's critical list, which the assistant follows.
    assert out[1] == (
        "  1  critical   273 tok   total   273  "
        "short-term/2026-05-06_secrets_never_in_fixtures.md  critical"
    )
    # The demo's index still lists the CSV memory as recent and high; its file says medium.
    csv = next(i for i, line in enumerate(out) if "2026-04-29_billing_export_csv" in line)
    assert out.index("Recent high importance") < csv < out.index("Runbooks")
    assert out[csv + 1] == (
        "     ≠ in index.json's recent.high_importance list, but its file says importance: medium"
    )
    assert out[
        out.index("     procedural/database-migrations.md  runbook not in index.json") + 1
    ] == (
        "       ≠ not listed in index.json's runbooks: the assistant will not consider it until the"
        " index is updated (press r, or run `samantha-tui index`)"
    )
    marker = out.index("--- budget of 2000 tokens runs out here ---")
    assert out[marker - 1] == "Current project"
    assert out[marker + 1].startswith("  7  project    369 tok   total  2010  ")
    assert "procedural/terraform-deploys.md  runbook: repo + path signals matched" in "\n".join(out)
    assert (
        "     current-tasks/billing-export/status.md  project billing-export is blocked, not active"
        in out
    )
    assert out[-2:] == [
        "Note: 1 pending project update for api-gateway-refactor: "
        "review with `samantha-llm projects review`",
        "Note: 1 subconscious session awaiting merge",
    ]


def test_command_json_has_the_full_structure(demo_root, capsys):
    args = ["bootstrap", str(demo_root), "--json", "--keyword", "pytest"]
    assert main([*args, "--project", "api-gateway-refactor"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["project"] == "api-gateway-refactor"
    assert data["total_tokens"] == data["items"][-1]["running_tokens"]
    assert [i["tier"] for i in data["items"]][:2] == ["critical", "critical"]
    assert set(data["items"][0]) == {
        "tier", "path", "title", "reason", "lines", "chars", "tokens", "running_tokens",
        "over_budget", "file_found", "disagreements",
    }  # fmt: skip
    assert len(data["on_demand"]) == 9
    assert data["near_misses"][-2] == {
        "path": ".ai/procedural-memory/.ai/python-testing.md",
        "title": "Python Testing Runbook",
        "reason": "runbook: only keyword signals matched, 2 categories needed",
        "file_found": True,
        "disagreements": [],
    }
    assert data["near_misses"][-1]["disagreements"][0].startswith(
        "not listed in index.json's runbooks"
    )
    # The CSV memory's importance, the runbook missing from the index, infra-notes, which the
    # index alone holds, and the three high-importance worker sessions of other projects that
    # finalize put in the index's recent list more than 30 days ago; and the project's own: a
    # merge copy and a missing file its index lists, and four memories in no index list (two of
    # them recent and high, so marked for that tier too).
    assert data["disagreements"] == 14
    assert [(s["kind"], s["from_index"]) for s in data["sources"]] == [
        ("short-term", True), ("long-term", True), ("current-tasks", True), ("procedural", True),
    ]  # fmt: skip


def test_command_errors_are_one_line(demo_root, capsys):
    assert main(["bootstrap", str(demo_root), "--project", "mobile-sync"]) == 1
    assert capsys.readouterr().err == (
        "samantha-tui: project 'mobile-sync' is completed (in work experience)\n"
    )
    assert main(["bootstrap", str(demo_root), "--budget", "-5"]) == 1
    assert "budget must be at least 1 token" in capsys.readouterr().err

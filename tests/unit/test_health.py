"""The health report: each check on a tree that triggers it and on one that does not, pairs less
the dismissed ones, and the score's formula."""

from __future__ import annotations

import datetime as dt

from samantha_tui.core.basics.model import Memory, Severity, Tree
from samantha_tui.core.views import health_findings as h
from samantha_tui.core.views.bootstrap import Signals, plan
from samantha_tui.core.views.dismissals import dismissal
from samantha_tui.core.views.health import CAP, HealthReport, health_report, score
from samantha_tui.core.views.meaning import CONFLICT, DUPLICATE, SimilarPair, Unavailable
from samantha_tui.core.writing.store import Store
from tests.conftest import LT, ST, TODAY
from tests.curating import ready

OFF = Unavailable("no model here")


def note(day: dt.date = TODAY, extra: str = "", body: str = "A sentence says what it is.\n") -> str:
    return (
        f"---\ndate: {day.isoformat()}\ntopics: [ci]\nimportance: medium\n{extra}---\n\n"
        f"# A note\n\n{body}"
    )


def report(store: Store, meaning=OFF, dismissed=(), bootstrap=None) -> HealthReport:
    """The report over a tree whose indexes are in step (so drift is not in every test)."""
    curator = ready(store)
    return health_report(
        curator.tree, TODAY, bootstrap_plan=bootstrap, meaning=meaning, dismissed=dismissed
    )


def of(found: HealthReport, check: str) -> list[h.Finding]:
    return [f for f in found.findings if f.check == check]


A, B, C = f"{ST}/2026-06-10_a.md", f"{ST}/2026-06-11_b.md", f"{ST}/2026-06-12_c.md"


def pair(first: str, second: str, verdict: str, cues: tuple[str, ...] = ()) -> SimilarPair:
    return SimilarPair(first, second, 0.93, 41.0, verdict, cues)


def test_a_clean_tree_has_no_findings_and_a_full_score(tree) -> None:
    found = report(tree({A: note(), B: note(body="Another sentence here.\n")}))
    assert found.findings == () and found.score == 100 and found.errors == 0
    assert found.semantic.line() == "semantic checks: off (no model here)"


def test_conflicts_and_duplicates_come_from_the_meaning_pairs(tree) -> None:
    store = tree({A: note(), B: note(body="Never retry.\n"), C: note(body="Retry once.\n")})
    meaning = (pair(A, B, CONFLICT, ("always vs never",)), pair(A, C, DUPLICATE))
    found = report(store, meaning)
    (conflict,) = of(found, h.CONFLICT)
    assert conflict.paths == (A, B) and conflict.severity is Severity.ERROR
    assert "always vs never" in conflict.message
    assert conflict.fix.action == h.RESOLVE_CONFLICT
    (duplicate,) = of(found, h.DUPLICATE)
    assert set(duplicate.paths) == {A, C} and duplicate.fix.action == h.MERGE
    assert found.semantic.on and found.semantic.pairs == 2 and found.errors == 1
    # A pair naming a file the tree no longer has is left out.
    gone = report(store, (pair(A, f"{ST}/gone.md", CONFLICT),))
    assert of(gone, h.CONFLICT) == []


def test_a_dismissed_pair_is_left_out_until_one_of_its_files_changes(tree) -> None:
    store = tree({A: note(), B: note()})
    curator = ready(store)
    a, b = curator.get(A), curator.get(B)
    assert a is not None and b is not None
    meaning = (pair(A, B, CONFLICT),)
    dismissed = [dismissal(A, a.digest, B, b.digest, CONFLICT)]
    found = health_report(
        curator.tree, TODAY, bootstrap_plan=None, meaning=meaning, dismissed=dismissed
    )
    assert of(found, h.CONFLICT) == [] and found.semantic.dismissed == 1
    # Dismissed as not duplicates: a conflict is still said.
    other = [dismissal(A, a.digest, B, b.digest, DUPLICATE)]
    assert of(report(store, meaning, other), h.CONFLICT) != []
    # Edited since: judged again.
    (store.root / A).write_text(note(body="Now it says something else.\n"))
    store.scan()
    assert len(of(report(store, meaning, dismissed), h.CONFLICT)) == 1


def test_a_merge_copy_found_both_ways_is_one_finding_and_a_conflict_wins(tree) -> None:
    original = f"{ST}/2026-06-10_retry.md"
    copy = f"{ST}/2026-06-10_retry_20260611_020114.md"
    store = tree({original: note(), copy: note()})
    lifecycle_only = of(report(store), h.DUPLICATE)
    assert [f.paths for f in lifecycle_only] == [(original, copy)]
    assert "merge copy" in lifecycle_only[0].message
    both = of(report(store, (pair(original, copy, DUPLICATE),)), h.DUPLICATE)
    assert len(both) == 1 and "merge copy" in both[0].message and "meaning" in both[0].message
    conflicting = report(store, (pair(original, copy, CONFLICT),))
    assert of(conflicting, h.DUPLICATE) == [] and len(of(conflicting, h.CONFLICT)) == 1


def test_index_drift_is_one_finding_per_kind_until_the_indexes_are_in_step(tree) -> None:
    # Critical: the start-up looks for it in the long-term index, which samantha-llm's code
    # never writes (without a critical memory there, a missing one is no finding).
    store = tree({A: note(), f"{LT}/2026-01-01_x.md": note(extra="critical: true\n")})
    drifted = health_report(store.tree, TODAY, bootstrap_plan=None, meaning=OFF, dismissed=())
    paths = {f.paths[0] for f in of(drifted, h.INDEX_DRIFT)}
    assert {f"{ST}/index.json", f"{LT}/index.json"} <= paths
    assert all(f.fix.action == h.INDEX for f in of(drifted, h.INDEX_DRIFT))
    assert of(report(store), h.INDEX_DRIFT) == []


def test_bootstrap_tiers_past_the_budget_are_named(tree) -> None:
    long = "Word " * 400 + "end.\n"
    files = {A: note(extra="critical: true\n", body=long), B: note(extra="reference_count: 7\n")}
    store = tree(files)
    curator = ready(store)
    tight = plan(curator.tree, Signals(), TODAY, budget=50)
    found = report(store, bootstrap=tight)
    tiers = of(found, h.BOOTSTRAP_BUDGET)
    assert [f.paths for f in tiers] == [(A,), (B,)]
    assert "critical" in tiers[0].message and "budget of 50 tokens" in tiers[0].message
    roomy = plan(curator.tree, Signals(), TODAY, budget=100_000)
    assert of(report(store, bootstrap=roomy), h.BOOTSTRAP_BUDGET) == []


def test_more_critical_memories_than_advised(tree) -> None:
    def tree_of(count: int) -> Store:
        return tree({f"{ST}/2026-06-0{n % 9 + 1}_c{n}.md": note(extra="critical: true\n")
                     for n in range(count)})  # fmt: skip

    found = of(report(tree_of(11)), h.CRITICAL_COUNT)
    assert len(found) == 1 and len(found[0].paths) == 11 and "advises 5-10" in found[0].message


def test_ten_critical_memories_are_within_the_advice(tree) -> None:
    files = {
        f"{ST}/2026-06-0{n % 9 + 1}_c{n}.md": note(extra="critical: true\n") for n in range(10)
    }
    assert of(report(tree(files)), h.CRITICAL_COUNT) == []


def test_memories_without_topics_or_summary(tree) -> None:
    no_topics = note().replace("topics: [ci]", "topics: []")
    no_summary = note(body="| a | table |\n|---|---|\n")
    unreadable = "# No frontmatter at all\n\nText.\n"  # check's to report, not health's
    store = tree({A: no_topics, B: no_summary, C: unreadable, f"{ST}/2026-06-13_d.md": note()})
    found = report(store)
    assert [f.paths for f in of(found, h.NO_TOPICS)] == [(A,)]
    assert of(found, h.NO_TOPICS)[0].fix.field == "topics"
    assert [f.paths for f in of(found, h.NO_SUMMARY)] == [(B,)]


def test_dates_in_words_are_found_at_their_line_of_the_file(tree) -> None:
    body = (
        "We moved the cron yesterday.\n"
        "Shipped 2026-06-09 (last week), see `run today`.\n"
        '```\nrelease tomorrow\n```\nNo "great progress today" lines.\n'
        "Tokens expire in 7 days. We look again in two weeks.\n"
    )
    store = tree({A: note(day=dt.date(2026, 6, 10), body=body)})
    found = of(report(store), h.RELATIVE_DATE)
    lines = (store.root / A).read_text().splitlines()
    assert [(f.line, f.message.split('"')[1]) for f in found] == [
        (lines.index("We moved the cron yesterday.") + 1, "yesterday"),
        (len(lines), "in two weeks"),
    ]
    assert "it meant 2026-06-09" in found[0].message


def test_stale_memories_are_the_prune_rules(tree) -> None:
    old = note(day=TODAY - dt.timedelta(days=40)).replace("medium", "low")
    found = of(report(tree({A: old, B: note()})), h.STALE)
    assert [f.paths for f in found] == [(A,)]
    assert found[0].fix.section == "prune" and "40 days old" in found[0].message


def test_the_score_loses_each_checks_weight_per_finding_up_to_its_cap() -> None:
    def finding(check: str) -> h.Finding:
        return h.Finding(check, Severity.WARNING, ("x",), "m", h.Fix(h.EDITOR, "w"))

    assert score([]) == 100
    assert score([finding(h.CONFLICT)]) == 90
    assert score([finding(h.RELATIVE_DATE)] * 3 + [finding(h.DUPLICATE)]) == 100 - 3 - 4
    assert score([finding(h.RELATIVE_DATE)] * 500) == 100 - CAP
    many = [finding(check) for check in h.CHECKS for _ in range(50)]
    assert score(many) == 0


def test_semantic_checks_on_say_how_many_pairs(tree) -> None:
    found = report(tree({A: note(), B: note()}), ())
    assert found.semantic.line() == "semantic checks: on (0 close pairs found, 0 dismissed)"


__all__ = ["Memory", "Tree"]


def test_a_related_pair_is_said_only_with_a_difference_named_or_near_in_meaning(tree) -> None:
    """Memories of one subject are many; two of them read side by side are a finding only
    when something differs in words, or when they are so near in meaning one may do."""
    from samantha_tui.core.views.health_pairs import RELATED_SAID
    from samantha_tui.core.views.meaning import RELATED

    store = tree({A: note(), B: note(body="Another.\n"), C: note(body="A third.\n")})
    below = RELATED_SAID - 0.05
    meaning = (
        SimilarPair(A, B, below, 40.0, RELATED, ()),
        SimilarPair(A, C, below, 40.0, RELATED, ("10 vs 50",)),
        SimilarPair(B, C, RELATED_SAID, 40.0, RELATED, ()),
    )
    found = of(report(store, meaning), h.RELATED)
    assert sorted(f.paths for f in found) == [(A, C), (B, C)]
    named, near = sorted(found, key=lambda f: f.paths)
    assert "10 vs 50" in named.message and "may say the same" in near.message

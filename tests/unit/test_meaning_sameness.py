"""The gate of a merge: what two texts must share to be called one (meaning/sameness.py), and
the verdicts it leads to (pairs.verdict_of)."""

from __future__ import annotations

import pytest

from samantha_tui.core.views.meaning import CONFLICT, DUPLICATE, RELATED, SUPERSESSION
from samantha_tui.core.views.meaning.pairs import verdict_of
from samantha_tui.core.views.meaning.polarity import claims_of
from samantha_tui.core.views.meaning.sameness import differences, said


def apart(one: str, other: str) -> tuple[str, ...]:
    return differences(said(one), said(other)).cues


def test_the_same_claim_in_other_words_differs_in_nothing() -> None:
    assert (
        apart(
            "Run the migrations before deploying the service.",
            "Before the service is deployed, run its migrations.",
        )
        == ()
    )
    assert apart("Retries: at most three, then give up.", "Give up after 3 retries at most.") == ()


def test_numbers_units_and_versions_differ() -> None:
    assert apart("The upload limit is 10 MB.", "The upload limit is 50 MB.") == ("10 vs 50",)
    assert apart("Sessions expire after 30 seconds.", "Sessions expire after 30 minutes.") == (
        "30 s vs 30 min",
    )
    assert apart("Use Node 18 in CI.", "Use Node 20 in CI.") == ("18 vs 20",)
    # A number only one gives is a detail the other leaves out, not a different value.
    assert apart("Pin ruff to 0.6.9 in CI.", "Pin ruff in CI.") == ()


def test_negation_permission_and_order_differ() -> None:
    assert "negation 0 vs 1" in apart("Force-push to feature branches.", "Never force-push.")
    assert "permission in one only" in apart(
        "Squashing is fine for small fixes.", "Squash small fixes."
    )
    # Counted in short texts: both say "no", one says "not" as well.
    assert apart(
        "The API returns 404 for resources the caller has no permission to see.",
        "The API does not return 404 for resources the caller has no permission to see.",
    ) == ("negation 1 vs 2",)
    assert apart("Tag the release before bumping.", "Bump first, then tag the release.") != ()


def test_structured_words_are_not_negations() -> None:
    assert apart("The unit tests run under a minute.", "Unit tests run under one minute.") == ()


def verdict(one: str, other: str, meaning: float, wording: float, ordered: bool = False):
    return verdict_of(
        meaning,
        wording,
        lambda: (claims_of(one), claims_of(other)),
        words=10,
        said_of=lambda: (said(one), said(other)),
        ordered=ordered,
    )


def test_a_merge_only_when_nothing_said_differs() -> None:
    same = ("Deploys happen from main only.", "Only main is deployed.")
    # Alike in meaning, nothing differs, worded apart: related; the same words: a merge.
    assert verdict(*same, meaning=0.9, wording=70) == (RELATED, ())
    assert verdict(*same, meaning=0.9, wording=98) == (DUPLICATE, ())
    limit = ("The upload limit is 10 MB.", "The upload limit is 50 MB.")
    # Dated apart: the newer may supersede; undated and worded alike: a conflict; never a merge.
    assert verdict(*limit, meaning=0.95, wording=95, ordered=True)[0] == SUPERSESSION
    assert verdict(*limit, meaning=0.95, wording=95)[0] == CONFLICT
    # Something differs that says neither a value nor an opposite: read side by side.
    order = ("Run the linter on each commit.", "Run the linter before each commit.")
    assert verdict(*order, meaning=0.9, wording=80)[0] == RELATED
    negated = ("Telemetry is sent in CI.", "Telemetry is not sent in CI.")
    assert verdict(*negated, meaning=0.95, wording=90)[0] in (CONFLICT, RELATED)
    switched = ("We manage packages with pip-tools.", "Switched package management to uv.")
    assert verdict(*switched, meaning=0.8, wording=62, ordered=True)[0] == SUPERSESSION
    assert verdict(*switched, meaning=0.8, wording=62)[0] == RELATED


def test_the_pass_reports_how_far_it_has_got() -> None:
    """The review and the health pass show these counts while they work (work_progress.py)."""
    from samantha_tui.core.basics import progress
    from samantha_tui.core.basics.model import Kind, Memory
    from samantha_tui.core.views.meaning.model import Engine, load_engine
    from samantha_tui.core.views.meaning.pairs import COMPARING, JUDGING, similar_pairs
    from samantha_tui.core.views.meaning.vectors import EMBEDDING, MemoryVectors, vectors_for

    engine = load_engine()
    assert isinstance(engine, Engine)
    memories = [
        Memory(Kind.SHORT_TERM, f"m{i}.md", f"Note {i}", body=f"# Note {i}\n\nThe cache {i}.\n")
        for i in range(12)
    ]
    heard: list[tuple[int, int, str]] = []
    with progress.reporting(lambda done, total, what: heard.append((done, total, what))):
        similar_pairs(memories, vectors_for(memories, engine, MemoryVectors()))
    said = {what for _, _, what in heard}
    assert {EMBEDDING, COMPARING, JUDGING} <= said
    for what in (EMBEDDING, COMPARING, JUDGING):
        reports = [(done, total) for done, total, w in heard if w == what]
        assert reports[-1][0] == reports[-1][1], f"{what} ends at its total"
        assert [done for done, _ in reports] == sorted(done for done, _ in reports)


def test_accounts_of_two_sessions_are_not_rules_that_conflict() -> None:
    """The worker's session analyses tell what happened: opposed words in two of them are a
    conflict only when they are as alike as a duplicate, and their numbers never supersede."""
    kept = "Agreed to keep tombstone retention at 7 days before touching clock drift."
    dropped = "Agreed not to keep tombstone retention; 9 days of clock drift data first."

    def judged(meaning: float, accounts: bool):
        return verdict_of(
            meaning,
            50.0,
            lambda: (claims_of(kept), claims_of(dropped)),
            words=10,
            said_of=lambda: (said(kept), said(dropped)),
            ordered=True,
            accounts=accounts,
        )

    assert judged(0.72, accounts=False)[0] == CONFLICT
    assert judged(0.72, accounts=True) is None  # under a duplicate's cosine: no pair
    assert judged(0.9, accounts=True)[0] == CONFLICT  # as alike as a duplicate: still opposed
    numbers = ("Added 10 tests for the sync queue.", "Added 2 tests for the sync queue.")
    assert verdict(*numbers, meaning=0.95, wording=90, ordered=True)[0] == SUPERSESSION
    assert (
        verdict_of(
            0.95,
            90.0,
            lambda: (claims_of(numbers[0]), claims_of(numbers[1])),
            words=10,
            said_of=lambda: (said(numbers[0]), said(numbers[1])),
            ordered=True,
            accounts=True,
        )[0]
        == RELATED
    )


def test_memories_of_two_projects_are_at_most_related() -> None:
    """A rule in one project and its opposite in another both stand, as do two values of one
    setting: the pair is read side by side, never a conflict or a supersession."""
    kept, dropped = "Always squash pull requests.", "Never squash pull requests."
    for projects, expected in ((False, CONFLICT), (True, RELATED)):
        found = verdict_of(
            0.9,
            90.0,
            lambda: (claims_of(kept), claims_of(dropped)),
            words=10,
            said_of=lambda: (said(kept), said(dropped)),
            ordered=True,
            projects=projects,
        )
        assert found is not None and found[0] == expected


def test_unnamed_numbers_in_long_memories_supersede_nothing() -> None:
    """Two long memories alike in meaning give many numbers each (tests added, requests
    served): different ones make them related, not the newer a replacement of the older."""
    filler = " ".join(["The queue drained without errors during the migration window."] * 6)
    one = f"{filler} Added 10 tests and served 3000 requests."
    other = f"{filler} Added 4 tests and served 120 requests."
    for words, expected in ((10, SUPERSESSION), (60, RELATED)):
        found = verdict_of(
            0.95,
            99.0,
            lambda: (claims_of(one), claims_of(other)),
            words=words,
            said_of=lambda: (said(one), said(other)),
            ordered=True,
        )
        assert found is not None and found[0] == expected, (words, found)
    # Worded apart, a long pair is related without its texts read again.
    assert verdict_of(
        0.95,
        60.0,
        lambda: ((claims_of(one), claims_of(other))),
        words=60,
        said_of=lambda: pytest.fail("not read"),
        ordered=True,
    ) == (RELATED, ())


def test_an_account_of_a_session_beside_a_rule_conflicts_only_when_alike() -> None:
    """A session's account tells what was done that day; a rule it seems to oppose is a
    conflict only when the two are as alike as a duplicate. Two files of one session (a merge
    copy) are one account, judged as any pair."""
    import datetime as dt

    from samantha_tui.core.basics.model import Kind, Memory
    from samantha_tui.core.views.meaning.pairs import judge

    def memory(path: str, text: str, kind: str, session: str = "") -> Memory:
        front = {"type": kind, **({"session_id": session} if session else {})}
        return Memory(
            Kind.SHORT_TERM,
            path,
            "T",
            body=f"# T\n\n{text}\n",
            frontmatter=front,
            type=kind,
            date=dt.date(2026, 6, 1),
        )

    account = memory("a.md", "Agreed to keep the redis cache in tests.", "session-analysis", "1")
    rule = memory("b.md", "Never keep the redis cache in tests.", "decision")
    opposed = judge(account, rule, "x", "y", 0.72, wording=50.0)
    assert opposed is None  # in the conflict band, under a duplicate's cosine
    copy = memory("c.md", "Never keep the redis cache in tests.", "session-analysis", "1")
    found = judge(account, copy, "x", "y", 0.72, wording=50.0)
    assert found is not None and found.verdict == CONFLICT

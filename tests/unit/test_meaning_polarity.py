"""Conflict cues: opposite polarity or different values on the same subject, in words."""

from __future__ import annotations

import pytest

from samantha_tui.core.views.meaning.polarity import conflict_cues


@pytest.mark.parametrize(
    ("first", "second", "cue"),
    [
        ("Always use pnpm, never npm.", "Never use pnpm; this repo uses npm.", "(pnpm)"),
        ("Always squash pull requests.", "Never squash pull requests.", "always vs never"),
        ("Use the Redis cache in tests.", "Don't use the Redis cache in tests.", "use vs not"),
        ("Do rebase feature branches.", "Do not rebase feature branches.", "rebase"),
        ("Enable telemetry in CI.", "Disable telemetry in CI.", "enable vs disable ("),
        ("Keep secrets in git.", "Keep secrets out of git.", "(git)"),
        (
            "The upstream timeout: 30 seconds.",
            "The upstream timeout: 60 seconds.",
            "timeout: 30 vs 60",
        ),
        ("Set timeout = 30 for the gateway.", "The gateway timeout is 60.", "timeout: 30 vs 60"),
        ("CI runs on Node 18.", "CI runs on Node 20.", "node: 18 vs 20"),
        (
            "The service targets python 3.11.",
            "The service needs Python 3.12.",
            "python: 3.11 vs 3.12",
        ),
    ],
)
def test_each_kind_of_opposition_gives_a_cue_in_words(first: str, second: str, cue: str) -> None:
    cues = conflict_cues(first, second)
    assert any(cue in found for found in cues), cues
    assert conflict_cues(second, first), "the cue does not depend on the order"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Never commit secrets to the repo.", "Do not commit secrets to the repo, ever."),
        ("Don't use npm here.", "npm is not allowed in this repo."),
        ("Use pnpm instead of npm.", "Do not use npm; pnpm only."),
        ("Avoid force pushes to main.", "Never force-push to main."),
        ("Telemetry is disabled in CI.", "Disable telemetry in CI builds."),
        ("CI runs on Node 20.", "Node 20 in CI, and Node 20 locally."),
        ("Python code is formatted with ruff.", "CI fails when a file is not formatted."),
        ("Run the tests before pushing.", "Before pushing, run all the tests."),
        ("Released on 2026-01-28.", "Released on 2026-02-15."),
    ],
)
def test_a_shared_negation_or_value_is_no_cue(first: str, second: str) -> None:
    assert conflict_cues(first, second) == ()


def test_cues_are_sorted_without_repeats_and_odd_text_is_no_crash() -> None:
    cues = conflict_cues(
        "Always use pnpm. timeout: 30. Node 18.", "Never use pnpm. timeout: 60. Node 20."
    )
    assert list(cues) == sorted(set(cues)) and len(cues) == 3
    assert conflict_cues("", "") == ()
    assert conflict_cues("\x1b[31m never \x00", "always ’’ don’t ;;; ,,,") == ()


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A merge copy's reworded sentence: "no" speaks of `5xx`, not of "because" or "posts".
        (
            "retry_on: connect-failure; no 5xx, because non-idempotent POSTs to shipments-svc "
            "were retried and created duplicate bookings in staging.",
            "retry_on: connect-failure; 5xx is left out because POSTs to shipments-svc are not "
            "idempotent and got booked twice in staging.",
        ),
        # Function and very common words are never what a rule is about.
        ("After a rebase, push with the lease.", "Never after lunch."),
        ("Two reviewers approve each change.", "No two deploys at once."),
        # A negation speaks of the words just after it, not of the end of a long sentence.
        (
            "Keep the staging database small.",
            "Never run the migration by hand on a laptop, whatever the staging database says.",
        ),
        # "instead of 9" is about a number, not about the minutes before it.
        ("Builds went from 9 minutes to under 2.", "A build takes 2 minutes instead of 9."),
    ],
)
def test_no_cue_without_an_explicit_marker_on_the_same_term(first: str, second: str) -> None:
    assert conflict_cues(first, second) == ()


FILLER = (
    " The GitLab mirror copies every branch each hour, reviewers read the diff in the web view,"
    " stacked branches are rebased by their author, and the reflog on each laptop keeps lost"
    " commits for ninety days before git collects them."
)


def test_a_bare_claim_opposes_a_negation_in_a_short_memory_only() -> None:
    bare = "The main and release branches are protected on GitHub."
    negated = "Never push to main or release branches."
    assert any("(main" in cue for cue in conflict_cues(bare, negated))
    # The same sentences inside long memories: an account, not a rule, and no cue.
    assert conflict_cues(bare + FILLER, negated + FILLER) == ()
    # An explicit marker still opposes the negation in a long memory.
    cues = conflict_cues("Always push to main after review." + FILLER, negated + FILLER)
    assert any(cue.startswith("always vs never (main") for cue in cues), cues


def test_a_setting_named_with_underscores_is_one_name() -> None:
    assert conflict_cues("clock_skew_seconds: 30 is set.", "clock_skew_seconds: 60 is set.") == (
        "clock_skew_seconds: 30 vs 60",
    )
    assert conflict_cues("Base image python:3.11-slim.", "Base image python:3.12-slim.") == (
        "python: 3.11 vs 3.12",
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A count after a verb, or before a unit or a plural noun, is no version of a tool.
        ("Opensearch showed 406 ms spent per request.", "Opensearch showed 80 ms spent."),
        ("The indexer client retries 12 times by default.", "The client retries 3 times."),
        ("Found 12 call sites that used it.", "Found 4 call sites that used it."),
        ("The load test reached 713 requests.", "The load test reached 210 requests."),
        # A name with underscores is its own term: "retry backoff" is not `backoff_seconds`.
        (
            "The root cause was sync queue, not retry backoff.",
            "The user decided to keep backoff_seconds at 10.",
        ),
        # "X was A, not B" says what X was; it does not rule B out.
        (
            "The root cause was late events, not nightly load as first assumed.",
            "Always check nightly load before touching the scheduler.",
        ),
    ],
)
def test_accounts_of_counts_and_causes_are_no_cue(first: str, second: str) -> None:
    assert conflict_cues(first, second) == ()


def test_a_version_after_a_bare_name_is_still_one() -> None:
    assert conflict_cues("CI runs on Node 18 today.", "CI runs on Node 20 today.") != ()
    assert conflict_cues("Deploy with helm 3 only.", "Deploy with helm 2 only.") != ()


def test_each_list_item_is_a_clause_of_its_own() -> None:
    """A bullet without a stop does not run on into the next: "not on taste" ends its item."""
    from samantha_tui.core.basics.model import Kind, Memory
    from samantha_tui.core.views.meaning.polarity import claims_of, cues_between
    from samantha_tui.core.views.meaning.text import embedding_text, texts_of

    body = (
        "# Sizing\n\n- The right value depends on traffic, not on taste\n"
        "- `shard_count: 4` held under load\n"
    )
    listed = Memory(Kind.SHORT_TERM, "a.md", "Sizing", body=body)
    kept = "The user decided to keep shard_count at 4."
    assert cues_between(claims_of(texts_of(listed)[1]), claims_of(kept)) == ()
    # What the model is given is unchanged: the items' words, single-spaced.
    assert embedding_text(listed) == texts_of(listed)[0]
    assert "\ue000" not in embedding_text(listed) and ";" not in embedding_text(listed)

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

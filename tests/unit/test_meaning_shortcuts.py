"""The pass's shortcuts give what the plain way gives: each is held to a reference here.

The duplicate and conflict pass over 10,000 memories must take at most two seconds, so it reads
back from a number by matching the text reversed, cuts clauses in two stages, passes over a long
memory's bare sentences, and sets aside by length what no verdict could keep before any text is
made. Each of those is a claim of sameness, tested against the straightforward code it replaced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from samantha_tui.core.views.meaning import polarity
from samantha_tui.core.views.meaning.pairs import lowest_thresholds, thresholds
from samantha_tui.core.views.meaning.polarity import (
    KEY_BEFORE,
    KEY_WINDOW,
    Claims,
    claims_of,
    cues_between,
    key_before,
)

from ..tiers import examples
from .meaning_labelled import CONTRADICTIONS, PARAPHRASES, UNRELATED
from .meaning_labelled_long import GROUPS as LONG_GROUPS

SEARCH_BACK = re.compile(KEY_BEFORE)


@settings(max_examples=examples(3000), deadline=None)
@given(st.text(alphabet="ab_.-9 \t\n:=isoftx", max_size=60))
def test_reading_back_from_a_number_finds_what_a_search_back_finds(text: str) -> None:
    found = SEARCH_BACK.search(text, max(0, len(text) - KEY_WINDOW), len(text))
    assert key_before(text, len(text)) == (None if found is None else found.groups())


ONE_CUT = re.compile(
    r"[.;!?\n()]+(?:\s|$)|\s[-\u2013\u2014]+\s|\b(?:but|however|whereas|while|although)\b"
)


def clauses_in_one_cut(text: str) -> list[list[str]]:
    """The clauses as one regex and a split per comma give them."""
    found = []
    for sentence in ONE_CUT.split(text):
        current: list[str] = []
        for piece in re.split(r",\s*", sentence):
            words = [w.strip(".-_") for w in re.findall(r"[a-z0-9][a-z0-9+#_.-]*", piece)]
            words = [w for w in words if w]
            if current and words and words[0] in polarity.MARKERS:
                found.append(current)
                current = []
            current += words
        if current:
            found.append(current)
    return found


CLAUSE_PIECES = (
    *("but", "however", "while", "never", "use", "npm", "a.b", "c++", "x_", "9.", "-"),
    *(" ", ", ", ". ", ".", "; ", "\n", " - ", "(", ")", "butter", "nor", ",never"),
)


@settings(max_examples=examples(3000), deadline=None)
@given(
    st.lists(
        st.sampled_from(CLAUSE_PIECES),
        max_size=30,
    )
)
def test_clauses_are_cut_where_one_regex_cuts_them(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert list(polarity._clauses(text)) == clauses_in_one_cut(text)


def every_text() -> Iterable[str]:
    for group in (PARAPHRASES, CONTRADICTIONS, UNRELATED):
        for pair in group:
            yield from pair
    for _, group in LONG_GROUPS:
        for pair in group:
            yield from pair


def with_bare_claims(text: str) -> Claims:
    """claims_of as it is for a short text, whatever the text's length: every bare claim and
    every clause noted."""
    normalised = polarity._normalised(text)
    words = normalised.count(" ") + 1
    return Claims(polarity._terms(normalised, True), polarity._settings(normalised), words)


def test_a_long_memorys_bare_sentences_change_no_cue() -> None:
    texts = list(every_text())
    long_ones = [t for t in texts if t.count(" ") + 1 > polarity.BARE_WORDS]
    assert len(long_ones) >= 20
    quick = [claims_of(t) for t in texts]
    full = [with_bare_claims(t) for t in texts]
    with_cues = 0
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            cues = cues_between(full[i], full[j])
            with_cues += bool(cues)
            assert cues_between(quick[i], quick[j]) == cues, (texts[i], texts[j])
    assert with_cues >= 30  # the comparison covered pairs that have cues


def test_the_lowest_threshold_of_a_length_is_the_least_of_its_three() -> None:
    words = np.arange(0, 120)
    expected = [min(thresholds(int(w))) for w in words]
    assert lowest_thresholds(words).tolist() == expected

"""What opposes two memories alike in meaning: the cues of a possible conflict.

Embeddings place "Always use pnpm, never npm" and "Never use pnpm; this repo uses npm" closer
than two true paraphrases: they share every word that matters. What tells them apart is small
and lexical, so it is found with rules, in two kinds:

- polarity: a term said with opposite polarity in the two (kept in one, ruled out in the other):
  always/never, do/don't, use X/don't use X, enable/disable. Each text is cut into clauses; in a
  clause the words after a negation are ruled out, and the words before it too when nothing of
  substance follows it ("npm is not allowed"), else they are kept ("use pnpm instead of npm"),
  but for the subject of a copula ("telemetry is disabled in ci"). What follows "if" or "when"
  is a condition and says nothing. A term counts only when each text says it one way: a
  negation both share is no cue. Terms meet by a stem of six letters.
- values: the same setting or tool with different numbers: `timeout: 30` vs `timeout: 60`,
  `Node 18` vs `Node 20`, `python 3.11` vs `3.12`. A value both mention is no cue.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})
_CONTRACTIONS = re.compile(r"\b(\w+)n't\b")
_CLAUSE = re.compile(
    r"[.;!?\n()]+(?:\s|$)|\s[-\u2013\u2014]+\s|\b(?:but|however|whereas|while|although)\b"
)
_COMMA = re.compile(r",\s*")
_WORD = re.compile(r"[a-z0-9][a-z0-9+#_.-]*")

NEGATIONS = {
    "never": "never",
    "not": "not",
    "no": "no",
    "cannot": "not",
    "avoid": "avoid",
    "avoided": "avoid",
    "avoiding": "avoid",
    "disable": "disable",
    "disabled": "disable",
    "disabling": "disable",
    "without": "without",
    "stop": "stop",
    "off": "off",
    "instead": "instead of",
    "rather": "rather than",
    "forbid": "forbid",
    "forbidden": "forbid",
    "prohibited": "forbid",
    "nor": "not",
    "little": "little",
}
"""A word that rules out what it speaks of, and how a cue names it."""
_PHRASES = {"can't": "cannot", "won't": "will not", "no longer": "no", "out of": "without"}
"""Spelled as one word, so a clause finds them ("keep secrets out of git": git ruled out)."""
COPULAS = frozenset({"is", "are", "was", "were", "be", "been", "being", "stays", "remains"})
CONDITIONS = frozenset({"if", "when", "whenever", "unless", "once", "until"})
"""What follows one of these is a condition, not a claim: "fails when coverage drops" says
nothing for or against dropping."""
AFFIRMATIONS = {
    "always": "always",
    "must": "must",
    "enable": "enable",
    "enabled": "enable",
    "enabling": "enable",
    "on": "on",
    "use": "use",
    "uses": "use",
    "using": "use",
    "prefer": "prefer",
    "required": "require",
    "require": "require",
    "requires": "require",
    "do": "do",
    "keep": "keep",
}
"""How a cue names the kept side, from the first of these in its clause (else "do")."""
_OPPOSITE = {"never": "always", "disable": "enable", "off": "on"}
"""Negations with a natural counterpart named on the other side when that side has no word."""
LIGHT = frozenset(
    """a an the this that these those it its is are was were be been being am do does did doing
    done to of in on at by for with from as into onto and or so if then than there here we you
    i they he she our your their my me us them will would should shall can could may might must
    have has had having use uses used using run runs ran running always never not no also just
    only any all some each every more most less very too again ever one when what which who how
    why where allowed needed required recommended supported wanted necessary ok okay fine good
    safe anymore longer prefer preferred rule repo repository project instead rather set sets
    make makes made get gets got keep kept now new please via per like same other
    """.split()  # noqa: SIM905 (a list of 160 quoted words would hide them)
)
"""Words that carry no term of their own: a term is what a rule is about (npm, telemetry)."""
_NUMBER = re.compile(r"(?<![\w.-])v?(\d+(?:\.\d+){0,3})(?![\w-]|\.\d)")
_KEY_BEFORE = re.compile(
    # `timeout: 30`, `pool_size = 10`, `the timeout is 60`, `set it to 30`: any number;
    # `Node 18`, `python 3.11`, `Go 1.21`: a version (see _VERSION_DIGITS).
    r"([a-z][a-z0-9_.-]*)(\s*[:=]\s*|\s+(?:is|of|to|at)\s+|\s+)$"
)
_VERSION_DIGITS = 3
"""A number after a bare name is a version only with at most this many digits before any dot:
`Note 2106` and `since 2024` are an id and a year."""
_NOT_KEYS = LIGHT | {"step", "phase", "item", "part", "page", "line", "section", "since", "until"}


def conflict_cues(first_text: str, second_text: str) -> tuple[str, ...]:
    """What opposes the two texts, each in words ("always vs never (pnpm)", "timeout: 30 vs
    60", "node: 18 vs 20"); empty when nothing does. Sorted, without repeats."""
    return cues_between(claims_of(first_text), claims_of(second_text))


@dataclass(frozen=True)
class Claims:
    """What one text says, read once: a memory met in many pairs is not read again for each."""

    terms: Said
    settings: dict[str, set[str]]


def claims_of(text: str) -> Claims:
    normalised = _normalised(text)
    return Claims(_terms(normalised), _settings(normalised))


def cues_between(first: Claims, second: Claims) -> tuple[str, ...]:
    """conflict_cues of two texts' claims."""
    cues = _polarity_cues(first.terms, second.terms)
    cues += _value_cues(first.settings, second.settings)
    return tuple(sorted(dict.fromkeys(cues)))


# --- polarity ------------------------------------------------------------------------------------

Said = dict[str, dict[bool, tuple[str, str]]]
"""term's stem -> {kept (True) or ruled out (False): (the marker that said so, the word)}."""


def _normalised(text: str) -> str:
    text = text.translate(_APOSTROPHES).lower()
    for phrase, word in _PHRASES.items():
        text = text.replace(phrase, word)
    return _CONTRACTIONS.sub(r"\1 not", text)


def _clauses(text: str) -> Iterable[list[str]]:
    """The clauses of a normalised text, each as its words."""
    for sentence in _CLAUSE.split(text):
        if not sentence:
            continue
        # A comma starts a clause of its own only where what follows says its own polarity
        # ("use pnpm, never npm"); elsewhere it lists ("don't use npm, yarn or bun").
        pieces = _COMMA.split(sentence)
        current: list[str] = []
        for piece in pieces:
            words = [w.strip(".-") for w in _WORD.findall(piece)]
            words = [w for w in words if w]
            if current and words and (words[0] in NEGATIONS or words[0] in AFFIRMATIONS):
                yield current
                current = []
            current += words
        if current:
            yield current


def _terms(text: str) -> Said:
    """What a normalised text keeps and rules out."""
    if len(_STEMS) > STEMS_KEPT:
        _STEMS.clear()
    said: Said = {}
    for words in _clauses(text):
        cut = next((i for i, word in enumerate(words) if word in CONDITIONS), None)
        words = words if cut is None else words[:cut]
        at = next((i for i, word in enumerate(words) if word in NEGATIONS), None)
        if at is None:
            _note(said, words, True, _affirmation(words))
            continue
        negation = NEGATIONS[words[at]]
        before, after = words[:at], words[at + 1 :]
        if any(_is_term(word) for word in after):
            # "telemetry is disabled in ci": a negation after a copula rules out its subject
            # (the words just before it), not the whole clause ("ship behind a flag that is off").
            subject = _subject(before) if before and before[-1] in COPULAS else 0
            _note(said, before[: len(before) - subject], True, _affirmation(before))
            _note(said, before[len(before) - subject :], False, negation)
            _note(said, after, False, negation)
        else:  # "npm is not allowed": the negation is the clause's predicate
            _note(said, before, False, negation)
    return said


SUBJECT = 3
"""Words before a copula taken as its subject: "the redis cache is", "a feature flag that is"."""


def _subject(before: list[str]) -> int:
    """How many of the words ending at a copula are its subject (up to SUBJECT, stopping at a
    relative word: in "flags that is", the subject is only what "that" stands for)."""
    count = 0
    for word in reversed(before[-SUBJECT:]):
        if word in ("that", "which", "who"):
            break
        count += 1
    return count


def _affirmation(words: list[str]) -> str:
    return next((AFFIRMATIONS[word] for word in words if word in AFFIRMATIONS), "do")


def _is_term(word: str) -> bool:
    return word not in LIGHT and word not in NEGATIONS and not word[0].isdigit() and len(word) > 1


def _note(said: Said, words: list[str], kept: bool, marker: str) -> None:
    for word in words:
        stem = _STEMS.get(word)
        if stem is None:
            stem = _STEMS[word] = _stem(word) if _is_term(word) else ""
        if not stem:
            continue
        said.setdefault(stem, {}).setdefault(kept, (marker, word))
        if word.startswith("un") and len(word) >= 7:  # "unformatted" rules out "formatted"
            said.setdefault(_stem(word[2:]), {}).setdefault(not kept, (marker, word[2:]))


_STEMS: dict[str, str] = {}
"""word -> its stem, or "" for a word that is no term: a tree says the same words again and
again. Only ever grows by what is read; cleared past STEMS_KEPT."""
STEMS_KEPT = 200_000


STEM = 6
"""Letters of a stem: "config" and "configuration", "commit" and "committing" meet."""


def _stem(word: str) -> str:
    for ending in ("ing", "es", "s", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    return word[:STEM]


def _polarity_cues(first: Said, second: Said) -> list[str]:
    grouped: dict[str, list[str]] = {}
    for term in sorted(first.keys() & second.keys()):
        one, other = first[term], second[term]
        if len(one) != 1 or len(other) != 1 or one.keys() == other.keys():
            continue  # said both ways in one text, or the same way in both
        kept, word = one.get(True) or other[True]
        ruled_out, _ = one.get(False) or other[False]
        if kept == "do" and ruled_out in _OPPOSITE:
            kept = _OPPOSITE[ruled_out]
        grouped.setdefault(f"{kept} vs {ruled_out}", []).append(word)
    return [f"{pair} ({', '.join(terms)})" for pair, terms in grouped.items()]


# --- values ------------------------------------------------------------------------------------


def _settings(text: str) -> dict[str, set[str]]:
    """setting or tool -> the numbers said for it ("timeout" -> {"30"}, "node" -> {"18"}), from
    a normalised text: each number, and what stands just before it."""
    found: dict[str, set[str]] = {}
    for number in _NUMBER.finditer(text):
        start = number.start()
        before = _KEY_BEFORE.search(text, max(0, start - 40), start)
        if before is None:
            continue
        key, joint = before.group(1).strip(".-_"), before.group(2)
        value = number.group(1)
        if not joint.strip() and len(value.split(".")[0]) > _VERSION_DIGITS:
            continue
        if key and key not in _NOT_KEYS and not key[0].isdigit():
            found.setdefault(key, set()).add(value)
    return found


def _value_cues(first: dict[str, set[str]], second: dict[str, set[str]]) -> list[str]:
    cues = []
    for key in sorted(first.keys() & second.keys()):
        one, other = first[key], second[key]
        if one & other:
            continue  # a value both mention: not a disagreement
        cues.append(f"{key}: {', '.join(sorted(one))} vs {', '.join(sorted(other))}")
    return cues

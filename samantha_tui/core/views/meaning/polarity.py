"""What opposes two memories alike in meaning: the cues of a possible conflict.

Embeddings place "Always use pnpm, never npm" and "Never use pnpm; this repo uses npm" closer
than two true paraphrases: they share every word that matters. What tells them apart is small
and lexical, so it is found with rules, in two kinds:

- polarity: a term said with opposite polarity in the two (kept in one, ruled out in the other):
  always/never, do/don't, use X/don't use X, enable/disable, prefer X/avoid X. Each text is cut
  into clauses; a marker (a run of them: "do not use the") speaks of the SCOPE terms just after
  it, no further: in a long sentence a "no" at its start says nothing of its end. A negation
  with nothing after it ("npm is not allowed"), or after a copula ("telemetry is disabled in
  ci"), rules out the subject before it. A clause with no marker at all is a bare claim of its
  first terms ("Rebase feature branches"): it opposes a negation only in short texts
  (BARE_WORDS) and only a clause that mirrors it (MIRROR); in a long memory a bare sentence is
  an account, not a rule, and a marked claim about a term replaces a bare one (a title
  "Emojis in commits" names what "No emojis in commit messages" rules out). Function words and
  very common words (LIGHT, COMMON: after, else, because, two, feature) are never a term. What
  follows "if" or "when" is a condition and says nothing. A term counts only when each text
  says it one way: a claim both share is no cue. Terms meet by a stem of six letters.
- values: the same setting or tool with different numbers: `timeout: 30` vs `timeout: 60`,
  `Node 18` vs `Node 20`, `python 3.11` vs `3.12`. A value both mention is no cue. Claims are
  read from a text that keeps names with underscores whole (`clock_skew_seconds: 30`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .sameness import UNITS

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})
_CONTRACTIONS = re.compile(r"\b(\w+)n't\b")
_CLAUSE_MARKS = re.compile(r"[.;!?\n()]+(?:\s|$)|\s[-\u2013\u2014]+\s")
_CLAUSE_WORDS = re.compile(r"\b(?:but|however|whereas|while|although)\b")
"""A clause ends at a stop, a dash between spaces, or one of these words. The words are split
on apart from the marks (the two never overlap, so it is the same cut) and only in a text that
holds one: a search for them at every letter is most of the split's time."""
_CLAUSE_WORD_HINTS = ("but", "however", "whereas", "while", "although")
_WORD = re.compile(r"[a-z0-9](?:[a-z0-9+#_.-]*[a-z0-9+#])?")
"""A word, without the dots, dashes and underscores that end it ("npm." is "npm")."""

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
"""Markers of the kept side, and how a cue names it (the first of a run: "always use" is
"always")."""
MARKERS = frozenset(NEGATIONS) | frozenset(AFFIRMATIONS)
_ANY_MARKER = re.compile(r"\b(?:" + "|".join(sorted(MARKERS, key=len, reverse=True)) + r")\b")
"""Finds every marker _WORD would read as a word of its own, and some it would not ("not" in
"not-yet"): a sentence it finds nothing in has no marked clause."""
NO_CLAUSE: frozenset[str] = frozenset()
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
COMMON = frozenset(
    """about above across after afterwards against ago ahead almost along already although
    among another around away back because before behind below between beyond both case cases
    else elsewhere enough even first last next later earlier once twice two three four five six
    seven eight nine ten half much many few own such way ways thing things time times see says
    say said take takes took goes went come comes came give gives gave know knows think look
    looks need needs needed want wants wanted try tries tried put puts seem seems left right
    part parts lot lots kind sort still yet well better best worse worst able unable often
    usually sometimes anything everything nothing something anyone everyone nobody someone
    whatever whole feature features thing day days week weeks today yesterday tomorrow far near
    out up down over under off through during while since until till upon within without
    """.split()  # noqa: SIM905
)
"""Very common words, never a term: "after a rebase" and "no `5xx`, because" are about nothing
a memory could hold both ways."""
_NUMBER = re.compile(r"(?<![\w.-])v?(\d+(?:\.\d+){0,3})(?!\w|-\d|\.\d)")
KEY_BEFORE = r"([a-z][a-z0-9_.-]*)(\s*[:=]\s*|\s+(?:is|of|to|at)\s+|\s+)$"
"""What stands before a number that names what it is the value of, read back from the number:
`timeout: 30`, `pool_size = 10`, `the timeout is 60`, `set it to 30`: any number; `Node 18`,
`python 3.11`, `Go 1.21`: a version (see _VERSION_DIGITS)."""
_KEY_BEFORE_REVERSED = re.compile(r"(\s*[:=]\s*|\s+(?:si|fo|ot|ta)\s+|\s+)([a-z0-9_.-]*[a-z])")
"""KEY_BEFORE spelled backwards, matched at the number on the text reversed: one attempt where
a search back tries every start in the window (a test holds the two to the same answers)."""
KEY_WINDOW = 40
"""Characters before a number in which its key is looked for."""
_VERSION_DIGITS = 3
"""A number after a bare name is a version only with at most this many digits before any dot:
`Note 2106` and `since 2024` are an id and a year."""
_NOT_KEYS = (
    LIGHT | COMMON | {"step", "phase", "item", "part", "page", "line", "section", "since", "until"}
)


def conflict_cues(first_text: str, second_text: str) -> tuple[str, ...]:
    """What opposes the two texts, each in words ("always vs never (pnpm)", "timeout: 30 vs
    60", "node: 18 vs 20"); empty when nothing does. Sorted, without repeats."""
    return cues_between(claims_of(first_text), claims_of(second_text))


@dataclass(frozen=True)
class Claims:
    """What one text says, read once: a memory met in many pairs is not read again for each."""

    terms: Said
    settings: dict[str, set[str]]
    words: int = 0
    """How many words the text has: a bare claim opposes a negation only in short texts."""


def claims_of(text: str) -> Claims:
    normalised = _normalised(text)
    words = normalised.count(" ") + 1
    return Claims(_terms(normalised, words <= BARE_WORDS), _settings(normalised), words)


def cues_between(first: Claims, second: Claims) -> tuple[str, ...]:
    """conflict_cues of two texts' claims."""
    polarity, values = opposition(first, second)
    return tuple(sorted(dict.fromkeys(polarity + values)))


def opposition(first: Claims, second: Claims) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(polarity cues, value cues) of two texts' claims: a term said both ways, and a setting
    given different values (which a later memory may have changed: see pairs.py)."""
    bare = max(first.words, second.words) <= BARE_WORDS
    polarity = _polarity_cues(first.terms, second.terms, bare)
    values = _value_cues(first.settings, second.settings)
    return tuple(dict.fromkeys(polarity)), tuple(dict.fromkeys(values))


# --- polarity ------------------------------------------------------------------------------------

Said = dict[str, dict[bool, tuple[str, str, frozenset[str]]]]
"""term's stem -> {kept (True) or ruled out (False): (the marker that said so, the word, the
stems of its clause)}."""


def _normalised(text: str) -> str:
    text = text.translate(_APOSTROPHES).lower()
    for phrase, word in _PHRASES.items():
        text = text.replace(phrase, word)
    return _CONTRACTIONS.sub(r"\1 not", text) if "n't" in text else text


def _clauses(text: str, marked_only: bool = False) -> Iterable[list[str]]:
    """The clauses of a normalised text, each as its words; with `marked_only`, not those of a
    sentence no marker word is in (all a long text's bare clauses are passed over: see _terms).
    """
    sentences = _CLAUSE_MARKS.split(text)
    if any(word in text for word in _CLAUSE_WORD_HINTS):
        sentences = [part for sentence in sentences for part in _CLAUSE_WORDS.split(sentence)]
    for sentence in sentences:
        if marked_only and _ANY_MARKER.search(sentence) is None:
            continue  # one search in C, where splitting its words would be a list in Python
        if "," not in sentence:
            words = _WORD.findall(sentence)
            if words:
                yield words
            continue
        # A comma starts a clause of its own only where what follows says its own polarity
        # ("use pnpm, never npm"); elsewhere it lists ("don't use npm, yarn or bun").
        current: list[str] = []
        contrast = False
        for piece in sentence.split(","):
            words = _WORD.findall(piece)
            if current and words and words[0] in MARKERS:
                if not contrast:
                    yield current
                # "The cause was X, not Y": Y is not what the cause was; Y itself is not ruled
                # out, so the contrast is read as no claim.
                contrast = words[0] == "not" and not COPULAS.isdisjoint(current)
                current = []
            current += words
        if current and not contrast:
            yield current


def _terms(text: str, short: bool = True) -> Said:
    """What a normalised text keeps and rules out, each claim with the terms of its clause.
    `short`: the text has at most BARE_WORDS words. A longer one's bare claims oppose nothing,
    and the terms of a clause are compared only between bare claims and the negations they
    mirror (cues_between), so for it neither is noted: its clauses without a marker are passed
    over unread (most of a long memory), and its claims carry no clause."""
    if len(_STEMS) > STEMS_KEPT:
        _STEMS.clear()
    said: Said = {}
    for words in _clauses(text, marked_only=not short):
        if not CONDITIONS.isdisjoint(words):
            words = words[: next(i for i, word in enumerate(words) if word in CONDITIONS)]
        if not words or not (short or not MARKERS.isdisjoint(words)):
            continue
        stems = [_stem_of(word) for word in words]
        clause = frozenset(stem for stem in stems if stem) if short else NO_CLAUSE
        if short and not clause:
            continue
        marked = False
        at = 0
        while at < len(words):
            if words[at] not in NEGATIONS and words[at] not in AFFIRMATIONS:
                at += 1
                continue
            marked = True
            # A run of markers and light words is one marker: "do not use the", "always use".
            first, negation = at, None
            while at < len(words) and (
                words[at] in NEGATIONS
                or words[at] in AFFIRMATIONS
                or not (stems[at] or words[at][0].isdigit())
            ):
                if words[at] in NEGATIONS and negation is None:
                    negation = NEGATIONS[words[at]]
                at += 1
            governed: list[int] = []
            run_end = at
            while at < len(words) and len(governed) < SCOPE:
                if words[at] in NEGATIONS or words[at] in AFFIRMATIONS:
                    break
                if stems[at]:
                    governed.append(at)
                at += 1
            if negation is None:
                _note(said, words, stems, governed, True, _affirmation(words[first:at]), clause)
                continue
            predicate = not governed and not any(word[0].isdigit() for word in words[run_end:at])
            if predicate or (first and words[first - 1] in COPULAS):
                # "npm is not allowed", "telemetry is disabled in ci": the subject is ruled out.
                subject = _subject(words, stems, first)
                _note(said, words, stems, subject, False, negation, clause)
            _note(said, words, stems, governed, False, negation, clause)
        if not marked:  # a bare claim: its head, kept without a marker
            head = [i for i, stem in enumerate(stems) if stem][:SCOPE]
            _note(said, words, stems, head, True, BARE, clause)
    return said


SCOPE = 2
"""Terms a marker speaks of: those just after it ("never force-push", "use the redis cache"),
so a negation far from a word in a long sentence says nothing of it."""
SUBJECT = 3
"""Words before a copula taken as its subject: "the redis cache is", "a feature flag that is"."""
BARE = ""
"""The marker of a claim said with none ("Rebase feature branches"): it opposes a negation only
in a clause that mirrors it (MIRROR), never on its own."""
MIRROR = 0.4
"""Share of the two clauses' terms in common (of the longer) for a bare claim to oppose a
negation: "Rebase feature branches on main before a PR" / "Do not rebase feature branches"."""
BARE_WORDS = 40
"""Bare claims oppose negations only between texts of at most this many words. A memory of a
sentence or two is its rule, said bare ("Commit the lockfile"); in a long one, a bare sentence
is an account ("`main` and `release/*` are protected on GitHub") that a negation elsewhere
("never on `main`, `release/*`") does not contradict."""


def _subject(words: list[str], stems: list[str], at: int) -> list[int]:
    """The terms ending at a copula or a negation at `at` taken as its subject (up to SUBJECT
    words, stopping at a relative word: in "flags that is", the subject is only what "that"
    stands for)."""
    found = []
    for i in range(at - 1, max(-1, at - 1 - SUBJECT - 1), -1):
        if words[i] in ("that", "which", "who"):
            break
        if stems[i] and words[i] not in COPULAS:
            found.append(i)
        if len(found) == SUBJECT:
            break
    return found


def _affirmation(words: list[str]) -> str:
    return next((AFFIRMATIONS[word] for word in words if word in AFFIRMATIONS), "do")


def _is_term(word: str) -> bool:
    return (
        word not in LIGHT
        and word not in COMMON
        and word not in NEGATIONS
        and word not in AFFIRMATIONS
        and not word[0].isdigit()
        and len(word) > 1
    )


def _stem_of(word: str) -> str:
    stem = _STEMS.get(word)
    if stem is None:
        stem = _STEMS[word] = _stem(word) if _is_term(word) else ""
    return stem


def _note(
    said: Said,
    words: list[str],
    stems: list[str],
    at: list[int],
    kept: bool,
    marker: str,
    clause: frozenset[str],
) -> None:
    for i in at:
        word = words[i]
        _say(said, stems[i], kept, (marker, word, clause))
        if word.startswith("un") and len(word) >= 7:  # "unformatted" rules out "formatted"
            _say(said, _stem(word[2:]), not kept, (marker, word[2:], clause))


def _say(said: Said, stem: str, kept: bool, claim: tuple[str, str, frozenset[str]]) -> None:
    """A bare claim is noted only for a term nothing else says; a marked one replaces it (a
    title "Emojis in commits" names what "No emojis in commit messages" rules out)."""
    entry = said.get(stem)
    if entry is None:
        said[stem] = {kept: claim}
    elif claim[0] != BARE:
        if any(marker == BARE for marker, _, _ in entry.values()):
            entry.clear()
        entry.setdefault(kept, claim)


_STEMS: dict[str, str] = {}
"""word -> its stem, or "" for a word that is no term: a tree says the same words again and
again. Only ever grows by what is read; cleared past STEMS_KEPT."""
STEMS_KEPT = 200_000


STEM = 6
"""Letters of a stem: "config" and "configuration", "commit" and "committing" meet."""


def _stem(word: str) -> str:
    if "_" in word:
        return word  # a name (`backoff_seconds`) is a term of its own, not "backoff" in words
    for ending in ("ing", "es", "s", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    return word[:STEM]


def _polarity_cues(first: Said, second: Said, bare: bool) -> list[str]:
    grouped: dict[str, list[str]] = {}
    for term in sorted(first.keys() & second.keys()):
        one, other = first[term], second[term]
        if len(one) != 1 or len(other) != 1 or one.keys() == other.keys():
            continue  # said both ways in one text, or the same way in both
        kept, word, kept_clause = one.get(True) or other[True]
        ruled_out, _, ruled_clause = one.get(False) or other[False]
        if kept == BARE:
            if not bare:
                continue
            common = len(kept_clause & ruled_clause)
            if common < MIRROR * max(len(kept_clause), len(ruled_clause)):
                continue
            kept = _OPPOSITE.get(ruled_out, "do")
        grouped.setdefault(f"{kept} vs {ruled_out}", []).append(word)
    return [f"{pair} ({', '.join(terms)})" for pair, terms in grouped.items()]


# --- values ------------------------------------------------------------------------------------


def _settings(text: str) -> dict[str, set[str]]:
    """setting or tool -> the numbers said for it ("timeout" -> {"30"}, "node" -> {"18"}), from
    a normalised text: each number, and what stands just before it."""
    found: dict[str, set[str]] = {}
    for number in _NUMBER.finditer(text):
        before = key_before(text, number.start())
        if before is None:
            continue
        key, joint = before[0].strip(".-_"), before[1]
        value = number.group(1)
        if not joint.strip() and not _version(key, value, text, number.end()):
            continue
        if key and key not in _NOT_KEYS and not key[0].isdigit():
            found.setdefault(key, set()).add(value)
    return found


def _version(key: str, value: str, text: str, end: int) -> bool:
    """Whether a number after a bare name is the name's version (`Node 18`, `Go 1.21`) rather
    than a count an account gives (`showed 406 ms`, `retries 12 times`, `found 12 call sites`):
    not after a verb, not before a unit or a plural noun, not longer than a version is."""
    if len(value.split(".")[0]) > _VERSION_DIGITS:
        return False
    if key.endswith(("ed", "ing")) or key in _VERBS:
        return False
    after = _NEXT_WORD.match(text, end)
    if after is None:
        return True
    word = after.group(1)
    return word not in UNITS and not (word.endswith("s") and word not in LIGHT | COMMON)


_NEXT_WORD = re.compile(r"[ \t]*([a-z%]+)")
_VERBS = frozenset(
    """found ran saw cut hit held lost spent sent built wrote read paid grew rose fell took gave
    has had was were is are takes costs cost hits reads""".split()  # noqa: SIM905
)
"""Verbs whose forms do not end in -ed or -ing, seen before a count."""


def key_before(text: str, end: int) -> tuple[str, str] | None:
    """(key, joint) of KEY_BEFORE ending at `end`, within KEY_WINDOW characters, or None."""
    found = _KEY_BEFORE_REVERSED.match(text[max(0, end - KEY_WINDOW) : end][::-1])
    return None if found is None else (found.group(2)[::-1], found.group(1)[::-1])


def _value_cues(first: dict[str, set[str]], second: dict[str, set[str]]) -> list[str]:
    cues = []
    for key in sorted(first.keys() & second.keys()):
        one, other = first[key], second[key]
        if one & other:
            continue  # a value both mention: not a disagreement
        cues.append(f"{key}: {', '.join(sorted(one))} vs {', '.join(sorted(other))}")
    return cues

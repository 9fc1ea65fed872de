"""What two memories alike in meaning must share before they are called one: the gate of a merge.

An embedding hears two sentences that differ in one word as the same sentence: "the limit is
10 MB" and "the limit is 50 MB", "run migrations before deploying" and "after deploying",
"force-pushing is fine" and "never force-push". Merging such a pair drops one side of a
difference unread. So a pair is a duplicate only when nothing that changes what it says differs
between the two texts, read as words rather than meaning:

- values: the numbers said (with their unit when one follows: `30 s` is not `30 min`; number
  words count as their digits), versions among them;
- markers of polarity and order, each a class a text has or has not: a negation (not, never,
  no, avoid, disable, forbid, unsafe...), permission (may, can, fine, allowed), before and
  after, more and less.

A text "has" a class when any of its words is of it; the two must have the same classes. That
costs some true paraphrases ("run the tests before you push" and "never push untested code"
differ in negation) the merge offer: they are then shown as related, to read side by side,
which a wrong merge never is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+(?:[.,:]\d+)*(?:[a-z%]+)?|%")

CLASSES: dict[str, tuple[str, ...]] = {}
"""word -> its classes ("raised" says a change and a direction)."""


def _words(name: str, words: str) -> None:
    for word in words.split():
        CLASSES[word] = (*CLASSES.get(word, ()), name)


NEGATION = "negation"
PERMISSION = "permission"
BEFORE = "before"
AFTER = "after"
MORE = "more"
LESS = "less"
_words(
    NEGATION,
    "not no never none nothing nobody neither nor cannot can't don't doesn't didn't won't "
    "isn't aren't wasn't weren't shouldn't mustn't needn't without avoid avoided avoiding "
    "disable disabled disabling forbid forbids forbidden prohibit prohibited disallow "
    "disallowed off unsafe insecure dangerous stop stopped refuse refused reject rejected "
    "ban banned deprecated instead rather except unless",
)
_words(PERMISSION, "may fine allowed allow allows permitted permit okay ok optional")
_words(BEFORE, "before prior beforehand earlier first")
_words(AFTER, "after afterwards afterward later then")
CHANGE = "change"
_words(
    CHANGE,
    "switched replaced replaces moved migrated changed raised lowered increased decreased "
    "reordered bumped upgraded downgraded renamed deprecated anymore",
)
_words(
    MORE,
    "more increase increased increasing raise raised raising higher above larger bigger greater "
    "exceed exceeds maximum max longer",
)
_words(
    LESS,
    "less fewer decrease decreased decreasing lower lowered reduce reduced smaller below "
    "minimum shorter",
)

NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate(
        (
            *("zero", "one", "two", "three", "four", "five", "six"),
            *("seven", "eight", "nine", "ten", "eleven", "twelve"),
        )
    )
}
NUMBER_WORDS.update({"twenty": "20", "thirty": "30", "fifty": "50", "hundred": "100"})
NUMBER_WORDS.update({"twice": "2", "once": "1", "half": "0.5", "double": "2x"})
# "once" is more often "when" than "one time", and "one" a pronoun ("the old one"): neither is
# read as a number, so a paraphrase that says "once the build passes" keeps its merge.
del NUMBER_WORDS["once"], NUMBER_WORDS["one"]

UNITS = {
    "ms": "ms",
    "millisecond": "ms",
    "milliseconds": "ms",
    "s": "s",
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "m": "min",
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "d": "d",
    "day": "d",
    "days": "d",
    "week": "w",
    "weeks": "w",
    "month": "mo",
    "months": "mo",
    "year": "y",
    "years": "y",
    "b": "b",
    "byte": "b",
    "bytes": "b",
    "kb": "kb",
    "k": "k",
    "mb": "mb",
    "gb": "gb",
    "tb": "tb",
    "%": "%",
    "percent": "%",
    "x": "x",
    "times": "x",
    "px": "px",
    "rows": "rows",
    "items": "items",
    "retries": "retries",
    "workers": "workers",
    "threads": "threads",
    "connections": "connections",
    "replicas": "replicas",
    "nodes": "nodes",
    "requests": "requests",
}


@dataclass(frozen=True)
class Differences:
    values: tuple[str, ...] = ()
    """Values the two give differently, each "10 vs 50" or "30 s vs 30 min"."""
    markers: tuple[str, ...] = ()
    """Markers one text has and the other not: "negation in one only", "before vs after"."""

    def __bool__(self) -> bool:
        return bool(self.values or self.markers)

    @property
    def changed(self) -> bool:
        """One says a change ("switched to", "raised", "now") the other does not."""
        return CHANGED in self.markers

    @property
    def cues(self) -> tuple[str, ...]:
        return self.values + self.markers


@dataclass(frozen=True)
class Said:
    """What of one text the gate compares."""

    numbers: frozenset[str]
    units: frozenset[tuple[str, str]]
    """(number, unit) for each number said with a unit."""
    classes: frozenset[str]
    counts: tuple[tuple[str, int], ...] = ()
    """How many words of each COUNTED class the text has."""
    words: int = 0

    def count(self, name: str) -> int:
        return dict(self.counts).get(name, 0)


_UN_WORDS = re.compile(r"un(?!der|it|iq|ivers|til|ion|ified|ify)[a-z]{4,}")
"""A word negated by its prefix ("unformatted", "unsupported"), not "under", "unit", "unique"."""


def said(text: str) -> Said:
    """The numbers, units and marker classes of `text` (any case, Markdown or not)."""
    words = _WORD.findall(text.translate(_APOSTROPHES).lower())
    numbers: set[str] = set()
    units: set[tuple[str, str]] = set()
    counts: dict[str, int] = {}
    for at, word in enumerate(words):
        kinds = CLASSES.get(word)
        if kinds is None and (word.endswith("n't") or _UN_WORDS.fullmatch(word)):
            kinds = (NEGATION,)
        for kind in kinds or ():
            counts[kind] = counts.get(kind, 0) + 1
        number = _number(word)
        if number is None:
            continue
        value, unit = number
        if not unit and at + 1 < len(words):
            unit = UNITS.get(words[at + 1], "")
        numbers.add(value)
        if unit:
            units.add((value, unit))
    counted = tuple(sorted((k, n) for k, n in counts.items() if k in COUNTED))
    return Said(frozenset(numbers), frozenset(units), frozenset(counts), counted, len(words))


_NUMERIC = re.compile(r"(\d+(?:[.,:]\d+)*)([a-z%]*)")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")


def _number(word: str) -> tuple[str, str] | None:
    """(value, unit) of a number word or token, None for any other word."""
    if word in NUMBER_WORDS:
        return NUMBER_WORDS[word], ""
    match = _NUMERIC.fullmatch(word)
    if match is None:
        return None
    value = match[1].replace(",", "") if _THOUSANDS.fullmatch(match[1]) else match[1]
    suffix = match[2]
    # A suffix that is a unit is read as one ("30s", "512mb"); another ("v2", "3rd", "x86") is
    # part of the value.
    if suffix and suffix in UNITS:
        return value, UNITS[suffix]
    return value + suffix, ""


COUNTED = frozenset({NEGATION, BEFORE, AFTER})
"""In short texts, classes whose words are counted, not only seen: "does not return 404 ... no
permission" against "returns 404 ... no permission" both say a negation; only the count tells
them apart. In long ones a paraphrase says its negations and its order in its own way, and
these are compared as the others are (NEGATION seen or not, BEFORE and AFTER reversed)."""
SHORT_WORDS = 30
"""Words of the longer text up to which COUNTED classes are counted."""
OPPOSITES = ((MORE, LESS),)
"""Markers that differ only when reversed: "more" in one text alone is an account of a size,
"more" in one where the other says "less" turns it around."""
LONG_OPPOSITES = ((BEFORE, AFTER), (MORE, LESS))
CHANGED = "a change said in one only"


def differences(first: Said, second: Said) -> Differences:
    """What `first` and `second` say differently: empty when a merge of the two drops nothing
    said. A number only one of them gives is a detail the other leaves out, not a difference;
    a number each gives that the other does not is ("10 MB" and "50 MB")."""
    values: list[str] = []
    only_first = sorted(first.numbers - second.numbers)
    only_second = sorted(second.numbers - first.numbers)
    if only_first and only_second:
        values.append(f"{', '.join(only_first)} vs {', '.join(only_second)}")
    for number in sorted(first.numbers & second.numbers):
        said_first = {unit for value, unit in first.units if value == number}
        said_second = {unit for value, unit in second.units if value == number}
        if said_first and said_second and not said_first & said_second:
            one_unit, other_unit = "/".join(sorted(said_first)), "/".join(sorted(said_second))
            values.append(f"{number} {one_unit} vs {number} {other_unit}")
    markers: list[str] = []
    mismatched = set(first.classes ^ second.classes)
    short = max(first.words, second.words) <= SHORT_WORDS
    for one, other in OPPOSITES if short else LONG_OPPOSITES:
        if (
            one in mismatched
            and other in mismatched
            and (one in first.classes) != (other in first.classes)
        ):
            markers.append(f"{one} vs {other}")
        mismatched -= {one, other}
    if short:
        for name in sorted(COUNTED):
            if first.count(name) != second.count(name):
                markers.append(f"{name} {first.count(name)} vs {second.count(name)}")
            mismatched.discard(name)
    changed = CHANGE in mismatched
    mismatched.discard(CHANGE)
    markers += [f"{name} in one only" for name in sorted(mismatched)]
    if changed:
        markers.append(CHANGED)
    return Differences(tuple(values), tuple(markers))

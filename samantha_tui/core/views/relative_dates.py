"""Dates in words that rot: "yesterday", "next Thursday", "in two weeks" mean another day every
day the memory is read again. Found in a body's prose, with the line, and what the day was when
it can be told from the memory's own date.

Left alone, because they are not the memory's own claim about a day:
- code: fenced blocks (``` or ~~~) and `inline code`;
- quotations: text between double quotes on the line ("no 'great progress today'" quotes words);
- a phrase with an absolute date beside it (`yesterday (2026-06-01)`, `2026-06-01, last week`):
  the date is already written, the words only say how it felt;
- a duration or a frequency rather than a day: "expires in 7 days", "every 2 weeks", "within 3
  months", "for a day", "a day later", "per day", "takes a day";
- "in two days" unless what comes before it says a moment is meant ("we revisit in two weeks",
  "due in 3 days"): "done in a day", "ships in a day or two once it is reviewed", "the job runs
  in two days" can all be how long something takes, and a finding that may be a duration is
  not said;
- `the last/next <unit>` of or after something ("the last week of June", "the next sprint
  after the freeze"): counted from that, not from the day of writing.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass

_WEEKDAY = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_UNIT = r"days?|weeks?|months?|years?|fortnights?"
_COUNT = (
    r"\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|a few|a couple of|several"
)
_PHRASE = re.compile(
    rf"""\b(?:
        (?:the\ day\ (?:before|after)\ )?(?:yesterday|today|tonight|tomorrow)
      | this\ (?:morning|afternoon|evening|week|weekend|month|quarter|year|sprint|{_WEEKDAY})
      | (?:last|next)\ (?:night|week|weekend|month|quarter|year|sprint|{_WEEKDAY})
      | (?P<ahead>in)\ (?:{_COUNT})\ (?:{_UNIT})
      | (?:{_COUNT})\ (?:{_UNIT})\ (?:ago|from\ now|from\ today)
      | the\ other\ day
    )\b""",
    re.IGNORECASE | re.VERBOSE,
)
_DURATION_BEFORE = re.compile(
    r"\b(?:expires?|expired|expiring|every|after|within|valid|lasts?|retained|kept|ttl|for)\s*$",
    re.IGNORECASE,
)
_MOMENT_CUE = re.compile(
    r"\b(?:revisit|again|check\s+back|follow[\s-]up|due|deadline|remind(?:er)?|reminds)\b",
    re.IGNORECASE,
)
"""Words before "in two days", in its clause, that make it a day to come rather than how long
something takes: a revisit, a follow-up, a due date, a reminder."""
_CLAUSE_END = re.compile(r"[.!?;:,()]\s|\s[-\u2013\u2014]\s")
_ORDINAL_AFTER = re.compile(r"^\s+(?:of|after|before|following)\b", re.IGNORECASE)
"""After `the last week`, `the next sprint`: counted from what follows, not from today."""
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_ABSOLUTE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_SENTENCE_END = re.compile(r"[.!?;]\s")
NEAR = 30
"""Characters either side of a phrase in which an absolute date makes it harmless."""
_INLINE_CODE = re.compile(r"(`+)(.+?)\1")
_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”')
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_NUMBERS = {"one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_SHIFTS = {
    "the day before yesterday": -2,
    "yesterday": -1,
    "today": 0,
    "tonight": 0,
    "this morning": 0,
    "this afternoon": 0,
    "this evening": 0,
    "last night": -1,
    "tomorrow": 1,
    "the day after tomorrow": 2,
}


@dataclass(frozen=True)
class RelativeDate:
    """One phrase that will rot, where it is."""

    line: int
    """0-based line of the body."""
    phrase: str
    """As written."""
    meant: dt.date | None = None
    """The day it meant, counted from the memory's date, when the phrase tells it exactly."""


def _blanked(text: str, pattern: re.Pattern[str]) -> str:
    """`text` with every match of `pattern` turned into spaces, so columns stay where they were."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def prose_lines(body: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of each body line outside fenced code, inline code and quotes blanked."""
    fence: str | None = None
    for number, line in enumerate(body.splitlines()):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1) == fence:
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        yield number, _blanked(_blanked(line, _INLINE_CODE), _QUOTED)


def meant_day(phrase: str, written: dt.date | None) -> dt.date | None:
    """The day a phrase meant when the memory was written on `written`, if it says one exactly."""
    if written is None:
        return None
    words = " ".join(phrase.lower().split())
    if words in _SHIFTS:
        return written + dt.timedelta(days=_SHIFTS[words])
    match = re.fullmatch(r"(\d+|one|a|an|two|three|four|five|six) days? ago", words)
    if match:
        count = match.group(1)
        return written - dt.timedelta(days=int(count) if count.isdigit() else _NUMBERS[count])
    return None


def _dated_beside(text: str, start: int, end: int) -> bool:
    """True when an absolute date is written within NEAR characters of text[start:end], in the
    same sentence."""
    before = _SENTENCE_END.split(text[max(0, start - NEAR) : start])[-1]
    after = _SENTENCE_END.split(text[end : end + NEAR])[0]
    return bool(_ABSOLUTE.search(before) or _ABSOLUTE.search(after))


def _a_moment_ahead(before: str) -> bool:
    """Whether "in <count> <unit>" after `before` names a day to come: only when its clause says
    so (see _MOMENT_CUE), and never right after a word of duration ("expires in 7 days")."""
    if _DURATION_BEFORE.search(before):
        return False
    clause = _CLAUSE_END.split(before)[-1]
    return bool(_MOMENT_CUE.search(clause))


def _counted_from_else(text: str, start: int, end: int) -> bool:
    """`the last week of June`, `the next sprint after the freeze`: an ordinal, not today's."""
    phrase = text[start:end].lower()
    if not phrase.startswith(("last ", "next ")):
        return False
    return bool(_THE_BEFORE.search(text[:start]) and _ORDINAL_AFTER.match(text[end:]))


def relative_dates(body: str, written: dt.date | None = None) -> list[RelativeDate]:
    """Every phrase of `body` that names a day relative to when it was written (see the module's
    docstring for what is left alone), in order."""
    found: list[RelativeDate] = []
    for number, text in prose_lines(body):
        for match in _PHRASE.finditer(text):
            start, end = match.span()
            if match.group("ahead") and not _a_moment_ahead(text[:start]):
                continue
            if _counted_from_else(text, start, end):
                continue
            if _dated_beside(text, start, end):
                continue
            phrase = match.group(0)
            found.append(RelativeDate(number, phrase, meant_day(phrase, written)))
    return found

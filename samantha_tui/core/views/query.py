"""The search query language: free words, quoted phrases and `field:value` filters, `-` negates.

    gateway config          both words must match (fuzzily) somewhere
    "config loader"         a phrase: the exact characters, contiguous
    importance:high -type:decision topic:ci tag:ci project:atlas kind:short critical -critical
    refs:>=5  age:<30d  age:>=3m  date:2026-01  date:>=2026-01-15

`critical` on its own is a filter; to search for the word, quote it. Any other `name:value` whose
name is not a field is an error, so a typo in a field name never silently searches for text.

`importance:` takes any value, so a memory holding one the format refuses (`importance: urgent`)
can be found by it; a value outside low, medium and high that no memory holds is an error, said
with the values there are (`check_held`, once the tree's values are known).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..basics.model import Kind


class QueryError(ValueError):
    """A query that cannot be read; the message says what was expected."""


@dataclass(frozen=True)
class Term:
    """A free word or a quoted phrase, casefolded; `negated` terms exclude what they match."""

    text: str
    phrase: bool = False
    negated: bool = False


Value = str | int | bool | Kind | None


@dataclass(frozen=True)
class Filter:
    """`field op value`; `negated` keeps exactly the memories the filter would drop."""

    field: str
    value: Value
    op: str = "="
    negated: bool = False

    def accepts(self, value: Value) -> bool:
        """Whether one memory's value of this field passes (before negation).

        Values are as the search index keeps them: casefolded strings, the Kind, an int for refs
        and age (days), the ISO date string for date, None when the memory has no value.
        """
        if value is None:
            return False
        if self.field == "date":
            assert isinstance(value, str) and isinstance(self.value, str)
            value = value[: len(self.value)]  # the month or year the memory falls in
        return _COMPARE[self.op](value, self.value)


@dataclass(frozen=True)
class Query:
    """A parsed query: the terms in the order typed, then the filters."""

    terms: tuple[Term, ...] = ()
    filters: tuple[Filter, ...] = ()

    @property
    def wanted(self) -> tuple[Term, ...]:
        """Terms every result must match."""
        return tuple(t for t in self.terms if not t.negated)

    @property
    def excluded(self) -> tuple[Term, ...]:
        """Terms no result may match."""
        return tuple(t for t in self.terms if t.negated)

    @property
    def text(self) -> str:
        """The wanted terms as one string, to compare with a title."""
        return " ".join(t.text for t in self.wanted)


_COMPARE = {
    "=": lambda a, b: a == b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}

KIND_NAMES: dict[str, Kind] = {
    "short": Kind.SHORT_TERM,
    "long": Kind.LONG_TERM,
    "task": Kind.CURRENT_TASKS,
    "tasks": Kind.CURRENT_TASKS,
    "work": Kind.WORK_EXPERIENCE,
    "proc": Kind.PROCEDURAL,
    **{kind.slug: kind for kind in Kind},
    **{kind.folder_name: kind for kind in Kind},
}
IMPORTANCE = ("low", "medium", "high")
ALIASES = {"tag": "topic"}
EXAMPLES = {
    "importance": "importance:high",
    "type": "type:decision",
    "topic": "topic:ci",
    "project": "project:atlas",
    "kind": "kind:short",
    "critical": "critical:true",
    "refs": "refs:>=5",
    "age": "age:<30d",
    "date": "date:2026-01",
}
KNOWN_FIELDS = "importance, type, topic (or tag), project, kind, critical, refs, age, date"

# Days per unit: a month is 30 days and a year 365, the same rough arithmetic the lifecycle rules
# ("older than 30 days", "90 days") use; no unit means days.
AGE_UNITS = {"": 1, "d": 1, "w": 7, "m": 30, "y": 365}

_FIELD = re.compile(r"([A-Za-z_]+):(.*)", re.DOTALL)
_OP = r"(>=|<=|>|<|=)?"
_REFS = re.compile(_OP + r"(\d+)")
_AGE = re.compile(_OP + r"(\d+)([a-zA-Z]?)")
_DATE = re.compile(_OP + r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")


def parse(text: str) -> Query:
    """Read a query string; raises QueryError with an actionable message when it is malformed."""
    terms: list[Term] = []
    filters: list[Filter] = []
    for negated, token, quoted in _tokens(text):
        if quoted:
            phrase = _normalise(token)
            if phrase:
                terms.append(Term(phrase, phrase=True, negated=negated))
            continue
        match = _FIELD.fullmatch(token)
        if match:
            filters.append(_filter(match.group(1), match.group(2), negated, token))
        elif token.casefold() == "critical":
            filters.append(Filter("critical", True, negated=negated))
        else:
            terms.append(Term(token.casefold(), negated=negated))
    return Query(tuple(terms), tuple(filters))


def _normalise(text: str) -> str:
    return " ".join(text.casefold().split())


def _tokens(text: str) -> Iterator[tuple[bool, str, bool]]:
    """(negated, text, quoted) per token; `field:"a b"` comes back unquoted as `field:a b`."""
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        negated = text[i] == "-"
        start = i + 1 if negated else i
        if start < n and text[start] == '"':
            end = _closing_quote(text, start)
            yield negated, text[start + 1 : end], True
            i = end + 1
            continue
        j = start
        while j < n and not text[j].isspace() and text[j] != '"':
            j += 1
        word = text[start:j]
        if j < n and text[j] == '"' and _FIELD.fullmatch(word):
            end = _closing_quote(text, j)
            yield negated, word + text[j + 1 : end], False
            i = end + 1
            continue
        # A lone `-` is what a person has typed so far, not a mistake: it means nothing yet.
        if word:
            yield negated, word, False
        i = j


def _closing_quote(text: str, opening: int) -> int:
    end = text.find('"', opening + 1)
    if end < 0:
        raise QueryError(f'unbalanced quote in {text[opening:]!r}: add the closing "')
    return end


def _filter(name: str, raw_value: str, negated: bool, token: str) -> Filter:
    field = ALIASES.get(name.lower(), name.lower())
    if field not in EXAMPLES:
        raise QueryError(
            f"unknown field {name!r} in {token!r}: use one of {KNOWN_FIELDS}"
            f' (or put "{token}" in quotes to search for the text)'
        )
    value = raw_value.strip()
    if not value:
        raise QueryError(f"{token!r} needs a value after the colon, like {EXAMPLES[field]}")
    op, parsed = _PARSERS.get(field, _text)(value, token)
    return Filter(field, parsed, op, negated)


def _text(value: str, token: str) -> tuple[str, Value]:
    return "=", _normalise(value)


def _importance(value: str, token: str) -> tuple[str, Value]:
    # Any value, exactly as the search index folds a memory's: the format's three, or one a
    # memory holds though the format refuses it (check_held says when none does).
    return "=", value.casefold()


def check_held(query: Query, held: Callable[[str], Iterable[Value]]) -> None:
    """Raise QueryError for an importance filter on a value outside low, medium and high that
    no memory holds (`held(field)`: the values the memories hold), naming those held."""
    for item in query.filters:
        if item.field != "importance" or item.value in IMPORTANCE:
            continue
        values = set(held("importance"))
        if item.value in values:
            continue
        odd = sorted(str(v) for v in values if v is not None and v not in IMPORTANCE)
        token = f"importance:{item.value}"
        also = f" (or one the memories hold: {', '.join(odd)})" if odd else ""
        raise QueryError(
            f"{token!r}: no memory has that importance; it is low, medium or high,"
            f" like importance:high{also}"
        )


def _kind(value: str, token: str) -> tuple[str, Value]:
    kind = KIND_NAMES.get(value.lower())
    if kind is None:
        raise QueryError(f"{token!r}: kind is short, long, task, work or proc, like kind:short")
    return "=", kind


def _critical(value: str, token: str) -> tuple[str, Value]:
    if value.lower() not in ("true", "false"):
        raise QueryError(f"{token!r}: critical is true or false, like critical:false")
    return "=", value.lower() == "true"


def _refs(value: str, token: str) -> tuple[str, Value]:
    match = _REFS.fullmatch(value)
    if not match:
        raise QueryError(
            f"{token!r}: refs takes a whole number, optionally after >, >=, <, <= or =,"
            " like refs:>=5"
        )
    return match.group(1) or "=", int(match.group(2))


def _age(value: str, token: str) -> tuple[str, Value]:
    match = _AGE.fullmatch(value)
    if not match or match.group(3).lower() not in AGE_UNITS:
        raise QueryError(
            f"{token!r}: age takes a number of days, or weeks, months (30 days) or years with"
            " w, m or y, optionally after >, >=, <, <= or =, like age:<30d or age:>=3m"
        )
    return match.group(1) or "=", int(match.group(2)) * AGE_UNITS[match.group(3).lower()]


def _date(value: str, token: str) -> tuple[str, Value]:
    match = _DATE.fullmatch(value)
    expected = "like date:2026, date:2026-01 or date:2026-01-28 (optionally after >, >=, <, <=)"
    if not match:
        raise QueryError(f"{token!r}: expected a year, month or day, {expected}")
    op, year, month, day = match.groups()
    if month is None:
        return op or "=", year
    if not 1 <= int(month) <= 12:
        raise QueryError(f"{token!r}: {month} is not a month (01-12), {expected}")
    if day is None:
        return op or "=", f"{year}-{int(month):02d}"
    try:
        return op or "=", dt.date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        raise QueryError(f"{token!r}: {year}-{month}-{day} is not a day, {expected}") from None


_PARSERS = {
    "importance": _importance,
    "kind": _kind,
    "critical": _critical,
    "refs": _refs,
    "age": _age,
    "date": _date,
}

"""Field rules of the samantha-llm format, as messages a person can act on."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Any

from .model import Kind
from .wording import described, quoted

IMPORTANCE = ("low", "medium", "high")
TASK_STATUS = ("active", "blocked", "completed")
CONFIDENCE = ("low", "medium", "high")
KNOWN_TYPES = (
    "interaction",
    "learning",
    "decision",
    "technical",
    "quick-reference",
    "session-analysis",
    "foundational-knowledge",
    "runbook",
)
SESSION_ANALYSIS = "session-analysis"
"""The type samantha-llm's worker gives its account of a session (`# Session Analysis - DATE`)."""
DATE_KEYS = ("date", "updated", "completed")
REQUIRED = ("date", "topics")
SIGNAL_KEYS = ("repo_signals", "path_signals", "keyword_signals", "domain_signals")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_NAME_DATE = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})_")
FUTURE_DATE = "is in the future"
"""Words of the future-date warning, the one problem that depends on today."""


def quoted_date(value: Any) -> dt.date | None:
    """The date a quoted `"2026-11-28"` names, or None for anything else."""
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _is_date(value: Any) -> bool:
    return isinstance(value, dt.date) and not isinstance(value, dt.datetime)


def _is_topics(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(t, str) and t.strip() for t in value)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


# key -> (accepts the value?, what is expected, in words)
RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{key: (_is_date, "a date as YYYY-MM-DD") for key in DATE_KEYS},
    "topics": (_is_topics, "a list of words such as [testing, ci]"),
    "importance": (lambda v: v in IMPORTANCE, "low, medium or high"),
    "reference_count": (_is_count, "a whole number, 0 or more"),
    "critical": (lambda v: isinstance(v, bool), "true or false"),
    "status": (lambda v: v in TASK_STATUS, "active, blocked or completed"),
    "confidence": (lambda v: v in CONFIDENCE, "low, medium or high"),
    **{key: (_is_name, "a short name") for key in ("project", "type", "domain")},
}


def value_error(key: str, value: Any) -> str | None:
    """Why `value` is not acceptable for `key`, or None when it is (unknown keys take anything)."""
    rule = RULES.get(key)
    if rule is None or rule[0](value):
        return None
    return f"`{key}` is {described(value)}; expected {rule[1]}"


def type_warning(value: Any) -> str | None:
    """Unknown types are allowed by the format; say so softly."""
    if isinstance(value, str) and value not in KNOWN_TYPES:
        known = ", ".join(KNOWN_TYPES)
        return f"`type` {quoted(value)} is not one the format names ({known})"
    return None


def check(mapping: Mapping[str, Any], kind: Kind) -> list[tuple[str, str, bool]]:
    """Every rule the mapping breaks: (key, message, is_error) in key order."""
    found: list[tuple[str, str, bool]] = []
    for key in REQUIRED:
        if key not in mapping:
            example = "2026-01-28" if key == "date" else "[testing, ci]"
            found.append((key, f"missing `{key}`; add a line `{key}: {example}`", True))
    for key, value in mapping.items():
        message = value_error(key, value)
        if message and key in DATE_KEYS and quoted_date(value):
            found.append((key, _quoted_date_warning(key, value), False))
        elif message:
            found.append((key, message, True))
        elif key == "type":
            warning = type_warning(value)
            if warning:
                found.append((key, warning, False))
    if kind.is_project_kind and "status" not in mapping:
        found.append(("status", "missing `status`; add `status: active`", False))
    found.extend((key, message, True) for key, message in trigger_errors(mapping.get("triggers")))
    return found


def _quoted_date_warning(key: str, value: str) -> str:
    return (
        f"`{key}` is quoted ({quoted(value)}): samantha-tui reads the date, samantha-llm keeps the "
        f"quotes as part of it; write it bare: `{key}: {value}`"
    )


def trigger_errors(triggers: Any) -> list[tuple[str, str]]:
    """(dotted key, message) for each trigger signal that must be a list and is not: samantha-llm's
    merge appends to them, and stops with a traceback on anything else."""
    if not isinstance(triggers, dict):
        return []
    found: list[tuple[str, str]] = []
    positive = triggers.get("positive")
    if isinstance(positive, dict):
        for key in SIGNAL_KEYS:
            if key in positive and not isinstance(positive[key], list):
                found.append((f"triggers.positive.{key}", _signal_error(key, positive[key])))
    negative = triggers.get("negative")
    if negative is not None and not isinstance(negative, list):
        found.append(("triggers.negative", _signal_error("negative", negative)))
    return found


def _signal_error(key: str, value: Any) -> str:
    scalar = isinstance(value, str | int) and not isinstance(value, bool)
    example = f"[{value}]" if scalar else "[]"
    return (
        f"`{key}` is {described(value)}; expected a list such as `{key}: {example}` "
        "(samantha-llm's merge stops on anything else)"
    )


def future_date_error(value: Any, today: dt.date) -> str | None:
    """Why `value` cannot become a memory's `date`: a day later than today (a quoted one too),
    or None. `check` warns of such a file, which exists and cannot be refused; samantha-llm's
    validate_dates.sh calls it an error. A day being typed is refused before it is written."""
    day = value if _is_date(value) else quoted_date(value)
    if day is None or day <= today:
        return None
    return (
        f"`date` {day.isoformat()} {FUTURE_DATE} (today is {today.isoformat()}); "
        "a memory's date is the day it was written"
    )


def date_warnings(date: dt.date | None, name: str, today: dt.date) -> list[tuple[str, str]]:
    """The checks of samantha-llm's validate_dates.sh: a `date` in the future, and a file name's
    date (`YYYY-MM-DD_...md`) that differs from `date`. (key, message) for each."""
    if date is None:
        return []
    found: list[tuple[str, str]] = []
    match = _NAME_DATE.match(name)
    if match and match.group(1) != date.isoformat():
        found.append(
            (
                "date",
                f"the file name says {match.group(1)}, `date` says {date.isoformat()}; "
                "rename the file or fix `date` so they agree",
            )
        )
    if date > today:
        found.append(
            ("date", f"`date` {date.isoformat()} {FUTURE_DATE}; fix it to the day it was written")
        )
    return found

"""Field rules of the samantha-llm format, as messages a person can act on."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from .model import Kind

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
DATE_KEYS = ("date", "updated", "completed")
REQUIRED = ("date", "topics")


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "an empty value"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a nested mapping"
    return f"{value!r} ({type(value).__name__})"


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
    return f"`{key}` is {_describe(value)}; expected {rule[1]}"


def type_warning(value: Any) -> str | None:
    """Unknown types are allowed by the format; say so softly."""
    if isinstance(value, str) and value not in KNOWN_TYPES:
        known = ", ".join(KNOWN_TYPES)
        return f"`type` {value!r} is not one the format names ({known})"
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
        if message:
            found.append((key, message, True))
        elif key == "type":
            warning = type_warning(value)
            if warning:
                found.append((key, warning, False))
    if kind.is_project_kind and "status" not in mapping:
        found.append(("status", "missing `status`; add `status: active`", False))
    return found

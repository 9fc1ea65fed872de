"""Field rules of the samantha-llm format, as messages a person can act on."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
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


def value_error(key: str, value: Any) -> str | None:
    """Why `value` is not acceptable for `key`, or None when it is."""
    if key in DATE_KEYS:
        if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
            return f"`{key}` is {_describe(value)}; expected a date as YYYY-MM-DD"
    elif key == "topics":
        if not isinstance(value, list):
            return f"`topics` is {_describe(value)}; expected a list such as [testing, ci]"
        if any(not isinstance(t, str) or not t.strip() for t in value):
            return "`topics` has an entry that is not a word; expected a list such as [testing, ci]"
    elif key == "importance":
        if value not in IMPORTANCE:
            return f"`importance` is {_describe(value)}; expected low, medium or high"
    elif key == "reference_count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return f"`reference_count` is {_describe(value)}; expected a whole number, 0 or more"
    elif key == "critical":
        if not isinstance(value, bool):
            return f"`critical` is {_describe(value)}; expected true or false"
    elif key == "status":
        if value not in TASK_STATUS:
            return f"`status` is {_describe(value)}; expected active, blocked or completed"
    elif key == "confidence":
        if value not in CONFIDENCE:
            return f"`confidence` is {_describe(value)}; expected low, medium or high"
    elif key in ("project", "type", "domain"):
        if not isinstance(value, str) or not value.strip():
            return f"`{key}` is {_describe(value)}; expected a short name"
    return None


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

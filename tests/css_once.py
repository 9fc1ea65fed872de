"""Textual CSS parsed once per test process rather than once per app.

Every app's Stylesheet parses the same sources (Textual's widgets' DEFAULT_CSS, the app's CSS)
with the same theme variables; Textual caches the parsed rules per Stylesheet only, so each of a
few hundred apps parsed them all again. The rule sets are read, never changed, once parsed, so
one cache for the process, keyed on the source and the variables, gives every app the same rules.
"""

from __future__ import annotations

from typing import Any

from textual.css.stylesheet import Stylesheet

_parse_rules = Stylesheet._parse_rules
_parsed: dict[tuple[Any, ...], Any] = {}


def _parse_rules_once(self: Stylesheet, css: str, read_from: Any, *args: Any, **kwargs: Any) -> Any:
    key = (
        css,
        read_from,
        args,
        tuple(sorted(kwargs.items())),
        tuple(sorted(self._variables.items())),
    )
    try:
        return _parsed[key]
    except KeyError:
        rules = _parsed[key] = _parse_rules(self, css, read_from, *args, **kwargs)
        return rules


def install() -> None:
    Stylesheet._parse_rules = _parse_rules_once  # type: ignore[method-assign]

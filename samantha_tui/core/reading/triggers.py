"""Runbook triggers: read them from frontmatter; decide whether a session's signals load a runbook.

The real tool leaves matching to the assistant's judgement; these rules make it reproducible:
- repo: case-insensitive equality with a given repo, or with its last `/` part (`infra` and
  `tidewater/infra` match each other).
- path: a signal ending in `/` names a folder and matches any path that runs through it; any other
  signal is a glob (`*.tf`) or a file (`tests/conftest.py`) matched against the path's tail.
- keyword and domain: the signal appears in a keyword as whole words, ignoring case (`state lock`
  matches "state lock stuck", `plan` does not match "planning"); domain signals also match the
  current project's name.
- negative: the signal is tried as a repo, a path and a phrase against every input; one hit vetoes.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..basics.json_read import loads, read_regular
from ..basics.model import Kind

CATEGORIES = ("repo", "path", "keyword", "domain")
"""The four positive categories, in the order the real tool names them."""

DEFAULT_MINIMUM_CATEGORIES = 2


class MalformedTriggers(ValueError):
    """A runbook's `triggers` value has a shape no rule can read; the message says where."""


@dataclass(frozen=True)
class Signals:
    """What is known about the session: the current project and the runbook signals seen."""

    project: str | None = None
    repos: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class NegativeSignal:
    signal: str
    reason: str


@dataclass(frozen=True)
class Triggers:
    """A runbook's triggers: positive signals per category, and the vetoes."""

    positive: Mapping[str, tuple[str, ...]]
    negative: tuple[NegativeSignal, ...] = ()


@dataclass(frozen=True)
class LoadingStrategy:
    """How many positive categories must match, and whether a negative signal vetoes."""

    minimum_positive_categories: int = DEFAULT_MINIMUM_CATEGORIES
    negative_signals_are_veto: bool = True
    source: str = "default"
    """Where the values came from: `default`, or the index file (with why it was not used)."""


@dataclass(frozen=True)
class Verdict:
    """The outcome of matching one runbook against the signals."""

    matched: tuple[str, ...]
    """Positive categories with at least one hit, in CATEGORIES order."""
    veto: NegativeSignal | None
    veto_input: str | None
    loads: bool


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise MalformedTriggers(f"`{where}` is not a list")
    if not all(isinstance(item, str) for item in value):
        raise MalformedTriggers(f"`{where}` holds something other than text")
    return tuple(item.strip() for item in value if item.strip())


def _negatives(value: Any) -> tuple[NegativeSignal, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise MalformedTriggers("`triggers.negative` is not a list")
    found = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, Mapping) or not isinstance(item.get("signal"), str):
            raise MalformedTriggers(f"`triggers.negative` entry {number} has no text `signal`")
        found.append(NegativeSignal(item["signal"].strip(), str(item.get("reason") or "").strip()))
    return tuple(found)


def read_triggers(value: Any) -> Triggers:
    """The `triggers` frontmatter value as Triggers; raises MalformedTriggers for a bad shape."""
    if value is None:
        raise MalformedTriggers("no `triggers`, so it never loads at start")
    if not isinstance(value, Mapping):
        raise MalformedTriggers("`triggers` is not a mapping of `positive` and `negative`")
    positive = value.get("positive")
    if positive is not None and not isinstance(positive, Mapping):
        raise MalformedTriggers("`triggers.positive` is not a mapping of signal lists")
    positive = positive or {}
    signals = {
        category: _strings(positive.get(f"{category}_signals"), f"{category}_signals")
        for category in CATEGORIES
    }
    return Triggers(signals, _negatives(value.get("negative")))


STRATEGY_INDEX = f"{Kind.PROCEDURAL.folder}/index.json"
"""Where `loading_strategy` is read from, relative to the cerebrum root."""


def read_strategy(root: Path) -> LoadingStrategy:
    """`loading_strategy` from the procedural index.json; the documented defaults otherwise."""
    path = root / STRATEGY_INDEX
    if not path.is_file():
        return LoadingStrategy()
    try:
        raw = read_regular(path)
    except OSError:
        return LoadingStrategy(source=f"default ({STRATEGY_INDEX} is not readable JSON)")
    return strategy_from_bytes(raw)


def strategy_from_bytes(raw: bytes | None) -> LoadingStrategy:
    """`loading_strategy` from the procedural index.json's bytes (None: no file), read as
    `read_strategy` reads the file."""
    if raw is None:
        return LoadingStrategy()
    rel = STRATEGY_INDEX
    try:
        data = loads(raw.decode("utf-8"))
    except ValueError:
        return LoadingStrategy(source=f"default ({rel} is not readable JSON)")
    strategy = data.get("loading_strategy") if isinstance(data, dict) else None
    if not isinstance(strategy, dict):
        return LoadingStrategy()
    minimum = strategy.get("minimum_positive_categories", DEFAULT_MINIMUM_CATEGORIES)
    veto = strategy.get("negative_signals_are_veto", True)
    if isinstance(minimum, bool) or not isinstance(minimum, int) or minimum < 1:
        return LoadingStrategy(source=f"default ({rel}: minimum_positive_categories is not >= 1)")
    return LoadingStrategy(minimum, veto is not False, rel)


def _norm(text: str) -> str:
    return text.strip().lower()


def _norm_path(text: str) -> str:
    text = _norm(text).replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return text


def repo_matches(signal: str, repo: str) -> bool:
    """Equal ignoring case, whole or by the last `/` part of either side."""
    a, b = _norm(signal).rstrip("/"), _norm(repo).rstrip("/")
    return bool(a) and (a == b or a == b.rsplit("/", 1)[-1] or b == a.rsplit("/", 1)[-1])


def path_matches(signal: str, path: str) -> bool:
    """A folder signal (`tests/`) anywhere along the path; else a glob over the path's tail."""
    pattern, parts = _norm_path(signal), [p for p in _norm_path(path).split("/") if p]
    if not pattern.strip("/") or not parts:
        return False
    if pattern.endswith("/"):
        folder = [p for p in pattern.split("/") if p]
        return any(parts[i : i + len(folder)] == folder for i in range(len(parts)))
    tails = ("/".join(parts[i:]) for i in range(len(parts)))
    return any(fnmatch.fnmatchcase(tail, pattern.lstrip("/")) for tail in tails)


def phrase_matches(signal: str, text: str) -> bool:
    """The signal appears in the text as whole words, ignoring case."""
    phrase = _norm(signal)
    if not phrase:
        return False
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text.lower()) is not None


def _category_hit(category: str, signal: str, signals: Signals) -> bool:
    if category == "repo":
        return any(repo_matches(signal, repo) for repo in signals.repos)
    if category == "path":
        return any(path_matches(signal, path) for path in signals.paths)
    texts = signals.keywords
    if category == "domain" and signals.project:
        texts = (*texts, signals.project)
    return any(phrase_matches(signal, text) for text in texts)


def matching_signals(triggers: Triggers, signals: Signals) -> dict[str, tuple[str, ...]]:
    """The positive signals that hit, per category (categories without a hit left out)."""
    found = {
        category: tuple(
            s for s in triggers.positive.get(category, ()) if _category_hit(category, s, signals)
        )
        for category in CATEGORIES
    }
    return {category: hits for category, hits in found.items() if hits}


def _veto_input(negative: NegativeSignal, signals: Signals) -> str | None:
    for repo in signals.repos:
        if repo_matches(negative.signal, repo):
            return f"repo {repo}"
    for path in signals.paths:
        if path_matches(negative.signal, path):
            return f"path {path}"
    for keyword in signals.keywords:
        if phrase_matches(negative.signal, keyword):
            return f"keyword {keyword}"
    if signals.project and phrase_matches(negative.signal, signals.project):
        return f"project {signals.project}"
    return None


def evaluate(triggers: Triggers, signals: Signals, strategy: LoadingStrategy) -> Verdict:
    """Which categories matched, which negative signal (if any) vetoes, and whether it loads."""
    matched = tuple(
        category
        for category in CATEGORIES
        if any(_category_hit(category, s, signals) for s in triggers.positive.get(category, ()))
    )
    veto, veto_input = None, None
    for negative in triggers.negative:
        veto_input = _veto_input(negative, signals)
        if veto_input is not None:
            veto = negative
            break
    enough = len(matched) >= strategy.minimum_positive_categories
    vetoed = veto is not None and strategy.negative_signals_are_veto
    return Verdict(matched, veto, veto_input, enough and not vetoed)

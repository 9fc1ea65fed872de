"""The settings file: theme, automatic index regeneration, the watcher, the bootstrap budget,
comparing by meaning, and key overrides."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .core.basics.xdg import xdg_home

CONFIG_ENV = "SAMANTHA_TUI_CONFIG"
"""Names the settings file directly (tests use it)."""


@dataclass(frozen=True)
class Settings:
    """What the settings file asks for; defaults for anything it does not say or gets wrong."""

    theme: str | None = None
    """A Textual theme name; None keeps the app's own."""
    auto_index: bool = True
    """Regenerate the indexes after every change; off, `r` regenerates on demand."""
    watch: bool = True
    """Watch the tree for changes other programs make."""
    bootstrap_budget: int = 8000
    """Tokens the bootstrap preview measures the plan against."""
    meaning: bool = True
    """Compare memories by meaning (near-duplicates, possible conflicts, related memories) with
    the embedding model; off, the health report says the semantic checks are off."""
    keys: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Binding id -> keys ("memory.toggle_critical" -> "c"); the app checks the ids."""
    path: Path = field(default_factory=lambda: settings_path())
    """The file read, or that would be read if it existed."""


# (table, key) -> the Settings field it sets and the type it must have; table "" is the top level.
_FIELDS: dict[tuple[str, str], tuple[str, type[Any]]] = {
    ("", "theme"): ("theme", str),
    ("index", "auto_regenerate"): ("auto_index", bool),
    ("watch", "enabled"): ("watch", bool),
    ("bootstrap", "budget"): ("bootstrap_budget", int),
    ("meaning", "enabled"): ("meaning", bool),
}
KEYS_TABLE = "keys"
"""Binding id -> keys; read apart from `_FIELDS` since any id may be a key of it."""
_TABLES = (*dict.fromkeys(table for table, _ in _FIELDS if table), KEYS_TABLE)
_TYPE_NAMES = {
    str: "a non-empty string",
    bool: "true or false",
    int: "a whole number above 0",
    dict: "a table",
}
_DEFAULTS = "using the default settings"


def settings_path(environ: Mapping[str, str] = os.environ) -> Path:
    """`$SAMANTHA_TUI_CONFIG`, else `$XDG_CONFIG_HOME/samantha-tui/config.toml` (~/.config)."""
    if environ.get(CONFIG_ENV):
        return Path(environ[CONFIG_ENV]).expanduser()
    return xdg_home("XDG_CONFIG_HOME", ".config", environ) / "samantha-tui" / "config.toml"


def load_settings(environ: Mapping[str, str] = os.environ) -> tuple[Settings, list[str]]:
    """Read the settings file; every fault in it is a message and a default, never an exception.

    A missing file gives the defaults and no message.
    """
    path = settings_path(environ)
    messages: list[str] = []
    try:
        text = path.read_bytes().decode("utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        return Settings(path=path), messages
    except OSError as error:
        messages.append(f"{path}: cannot read it ({error.strerror or error}); {_DEFAULTS}")
        return Settings(path=path), messages
    except UnicodeDecodeError:
        messages.append(f"{path}: not UTF-8 text (save it as UTF-8); {_DEFAULTS}")
        return Settings(path=path), messages
    except tomllib.TOMLDecodeError as error:
        messages.append(f"{path}: not valid TOML: {error}; {_DEFAULTS}")
        return Settings(path=path), messages
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in _TABLES:
            if not isinstance(value, dict):
                messages.append(_wrong_type(path, key, dict, value, "its defaults"))
            elif key == KEYS_TABLE:
                values["keys"] = MappingProxyType(_key_overrides(path, value, messages))
            else:
                _read_table(path, key, value, values, messages)
        elif ("", key) in _FIELDS:
            _read_value(path, "", key, value, values, messages)
        else:
            messages.append(_unknown(path, key))
    return Settings(path=path, **values), messages


def _read_table(
    path: Path, table: str, data: dict[str, Any], values: dict[str, Any], messages: list[str]
) -> None:
    for key, value in data.items():
        if (table, key) in _FIELDS:
            _read_value(path, table, key, value, values, messages)
        else:
            messages.append(_unknown(path, f"{table}.{key}"))


def _read_value(
    path: Path, table: str, key: str, value: Any, values: dict[str, Any], messages: list[str]
) -> None:
    name, expected = _FIELDS[(table, key)]
    dotted = f"{table}.{key}" if table else key
    wrong = (
        not isinstance(value, expected)
        or (expected is str and not value.strip())
        or (expected is int and (isinstance(value, bool) or value <= 0))
    )
    if wrong:
        default = getattr(Settings(path=path), name)
        fallback = "the app's default" if default is None else f"the default ({_describe(default)})"
        messages.append(_wrong_type(path, dotted, expected, value, fallback))
        return
    values[name] = value


def _key_overrides(path: Path, data: dict[str, Any], messages: list[str]) -> dict[str, str]:
    """Binding id -> keys; `memory.toggle_critical = "c"` unquoted is a nested table in TOML."""
    overrides: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            nested = _key_overrides(path, {f"{key}.{k}": v for k, v in value.items()}, messages)
            overrides.update(nested)
        elif isinstance(value, str) and value.strip():
            overrides[key] = value.strip()
        else:
            messages.append(_wrong_type(path, f"keys.{key}", str, value, "its usual key"))
    return dict(sorted(overrides.items()))


def _wrong_type(path: Path, key: str, expected: type, value: Any, fallback: str) -> str:
    wanted = _TYPE_NAMES[expected]
    return f"{path}: `{key}` should be {wanted}, not {_describe(value)}; using {fallback}"


def _describe(value: Any) -> str:
    """A TOML value as its writer would recognise it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"' if value.strip() else "an empty string"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int | float):
        return f"the number {value}"
    return f"the date {value.isoformat()}"


def known_settings() -> list[str]:
    """Every setting the file may hold, dotted as written (`index.auto_regenerate`)."""
    dotted = [f"{table}.{key}" if table else key for table, key in _FIELDS]
    return [*dotted, f"{KEYS_TABLE}.<binding id>"]


def _unknown(path: Path, key: str) -> str:
    known = ", ".join(known_settings())
    return f"{path}: unknown setting `{key}` is ignored (known: {known})"

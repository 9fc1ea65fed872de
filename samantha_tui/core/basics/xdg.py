"""Where the XDG base folders are: our settings, state and cache (samantha-llm's own config is
not among them: it reads ~/.config whatever the variables say, see locate.config_path)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def xdg_home(variable: str, default: str, environ: Mapping[str, str] = os.environ) -> Path:
    """`$XDG_CONFIG_HOME`-style base folder: the variable when absolute, else `~/<default>`.

    Raises RuntimeError when neither `$HOME` nor the user database knows the home folder.
    """
    base = environ.get(variable, "")
    # The XDG spec says to ignore a relative value.
    if not base or not Path(base).is_absolute():
        home = Path(environ["HOME"]) if environ.get("HOME") else Path.home()
        return home / default
    return Path(base)


STATE_ENV = "SAMANTHA_TUI_STATE"
"""Names the app's state file directly (tests use it); the app's other state sits beside it."""


def state_file(environ: Mapping[str, str] = os.environ) -> Path:
    """`$SAMANTHA_TUI_STATE`, else `$XDG_STATE_HOME/samantha-tui/state.json` (~/.local/state)."""
    if environ.get(STATE_ENV):
        return Path(environ[STATE_ENV]).expanduser()
    return xdg_home("XDG_STATE_HOME", ".local/state", environ) / "samantha-tui" / "state.json"


def state_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """The folder of the app's own state: the state file's, never inside a memory tree."""
    return state_file(environ).parent

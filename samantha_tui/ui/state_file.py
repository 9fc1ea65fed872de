"""What the app remembers between runs: each tree's last tab, a theme picked in the app, each
tab's sort.

Not the settings file, which is the person's to write: this one is the app's, in
`$XDG_STATE_HOME/samantha-tui/state.json` (usually `~/.local/state/samantha-tui/state.json`;
`$SAMANTHA_TUI_STATE` names another file). How a person likes a list sorted, and which theme they
picked, are theirs whatever tree they open; the tab they were on belongs to the tree, keyed by its
resolved path (the newest MAX_TREES trees are kept). A file from before tabs were kept per tree
holds one `last_tab`: it is the tab of a tree with none of its own, until any tree has one.

Read tolerantly (a missing file is the defaults; a damaged or odd one is the defaults and one
message, never an exception) and never through a link or a pipe put in its place: those are
neither read nor written over.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..core.basics.json_read import kind_of, loads, read_regular
from ..core.basics.sorting import FIELDS_BY_ID, SortOrder
from ..core.basics.xdg import state_file
from ..core.writing.own_files import replace_own_file

VERSION = 2
LIMIT = 1 << 16
"""Bytes read at most: the app writes a few hundred; anything bigger is not its file."""
MAX_TREES = 32
"""Trees whose last tab is kept; the one shown longest ago goes first."""
WRITTEN_MAX = LIMIT // 2
"""Bytes the app writes at most: older trees' tabs go first (their paths may be long)."""


@dataclass(frozen=True)
class AppState:
    last_tab: str | None = None
    """The one tab of a file written before tabs were kept per tree (see the module's doc)."""
    theme: str | None = None
    """The theme last picked in the app."""
    theme_setting: str | None = None
    """The settings file's theme when that pick was made: once the settings file names another,
    the settings file wins again."""
    sorts: Mapping[str, SortOrder] = field(default_factory=lambda: MappingProxyType({}))
    """Tab id -> the order a person chose for it."""
    last_tabs: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """A tree's resolved path -> the tab last shown on it, the tree shown longest ago first."""

    def tab_of(self, tree: str) -> str | None:
        """The tab last shown on `tree`; None when it has none (the default tab)."""
        if tree in self.last_tabs:
            return self.last_tabs[tree]
        return None if self.last_tabs else self.last_tab

    def with_tab(self, tree: str, tab: str) -> AppState:
        """This state with `tab` as `tree`'s, `tree` the newest; an old file's one tab goes."""
        tabs = [(path, shown) for path, shown in self.last_tabs.items() if path != tree]
        tabs = [*tabs, (tree, tab)][-MAX_TREES:]
        return dataclasses.replace(self, last_tab=None, last_tabs=MappingProxyType(dict(tabs)))


def state_path(environ: Mapping[str, str] = os.environ) -> Path:
    """`$SAMANTHA_TUI_STATE`, else `$XDG_STATE_HOME/samantha-tui/state.json` (~/.local/state)."""
    return state_file(environ)


@dataclass(frozen=True)
class Loaded:
    state: AppState
    message: str | None
    """One warning for the person, or None."""
    writable: bool
    """False when something other than a plain file is in the state file's place."""


def load_state(path: Path) -> Loaded:
    """The state in `path`; every fault is the defaults (or the readable part) and one message."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return Loaded(AppState(), None, True)
    except OSError as error:
        return Loaded(AppState(), _cannot(path, error.strerror or str(error)), False)
    if not stat.S_ISREG(info.st_mode):
        reason = f"it is {kind_of(info.st_mode)}, not a plain file; it is neither read nor written"
        return Loaded(AppState(), _cannot(path, reason), False)
    try:
        data = loads(read_regular(path, LIMIT + 1).decode("utf-8"))
    except OSError as error:  # NotRegular too: a pipe swapped in after the lstat
        return Loaded(AppState(), _cannot(path, error.strerror or str(error)), False)
    except UnicodeDecodeError:
        return Loaded(AppState(), _cannot(path, "it is not UTF-8 text"), True)
    except ValueError:  # not JSON, or nested too deep
        return Loaded(AppState(), _cannot(path, "it is not valid JSON"), True)
    if not isinstance(data, dict):
        return Loaded(AppState(), _cannot(path, "it is not a JSON object"), True)
    odd: list[str] = []
    state = AppState(
        last_tab=_text(data, "last_tab", odd),
        theme=_text(data, "theme", odd),
        theme_setting=_text(data, "theme_setting", odd),
        sorts=MappingProxyType(_sorts(data.get("sort", {}), odd)),
        last_tabs=MappingProxyType(_tabs(data.get("last_tabs", []), odd)),
    )
    message = None
    if odd:
        message = f"{path}: ignored {', '.join(odd)} (the app rewrites the file as it goes)"
    return Loaded(state, message, True)


def _cannot(path: Path, reason: str) -> str:
    return f"{path}: cannot use it ({reason}); starting with the default tab, theme and sorting"


def _text(data: dict[str, Any], key: str, odd: list[str]) -> str | None:
    value = data.get(key)
    if value is None or (isinstance(value, str) and value.strip()):
        return value
    odd.append(f"`{key}`")
    return None


def _sorts(value: Any, odd: list[str]) -> dict[str, SortOrder]:
    if not isinstance(value, dict):
        odd.append("`sort`")
        return {}
    sorts: dict[str, SortOrder] = {}
    for tab, order in value.items():
        field_id = order.get("field") if isinstance(order, dict) else None
        descending = order.get("descending") if isinstance(order, dict) else None
        # Text first: a list or an object there cannot be looked up, and must not raise.
        if isinstance(field_id, str) and field_id in FIELDS_BY_ID and isinstance(descending, bool):
            sorts[tab] = SortOrder(FIELDS_BY_ID[field_id], descending)
        else:
            odd.append(f"the sort of `{tab}`")
    return sorts


def _tabs(value: Any, odd: list[str]) -> dict[str, str]:
    if not isinstance(value, list):
        odd.append("`last_tabs`")
        return {}
    tabs: dict[str, str] = {}
    for item in value:
        tree = item.get("tree") if isinstance(item, dict) else None
        tab = item.get("tab") if isinstance(item, dict) else None
        if isinstance(tree, str) and tree and isinstance(tab, str) and tab.strip():
            tabs.pop(tree, None)  # the later one is the newer
            tabs[tree] = tab
        elif "`last_tabs`" not in odd:
            odd.append("`last_tabs`")
    return tabs


def state_json(state: AppState) -> bytes:
    """The file's bytes: keys sorted, so an unchanged state writes the same bytes; the trees'
    tabs oldest first, as many of the newest as fit in WRITTEN_MAX bytes."""
    tabs = list(state.last_tabs.items())
    while True:
        data: dict[str, Any] = {
            "version": VERSION,
            "theme": state.theme,
            "theme_setting": state.theme_setting,
            "sort": {
                tab: {"field": order.field.id, "descending": order.descending}
                for tab, order in sorted(state.sorts.items())
            },
            "last_tabs": [{"tree": tree, "tab": tab} for tree, tab in tabs],
        }
        if state.last_tab is not None:
            data["last_tab"] = state.last_tab
        text = (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8")
        if len(text) <= WRITTEN_MAX or not tabs:
            return text
        tabs = tabs[1:]


def save_state(path: Path, state: AppState) -> str | None:
    """Replace the file with `state` atomically; the reason when it could not (None when it did).

    Never over a link, pipe or folder in its place. No fsync: the file is a convenience, and a
    torn one after a crash only means the defaults and one message at the next start.
    """
    reason = replace_own_file(path, state_json(state), sync=False)
    return None if reason is None else _not_saved(path, reason)


def _not_saved(path: Path, reason: str) -> str:
    return f"{path}: not saved ({reason}); the tab, theme and sorting are kept for this run only"

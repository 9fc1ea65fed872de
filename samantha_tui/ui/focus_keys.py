"""Which of the app's own actions a key may run, given what holds the focus.

The app's one-letter keys are for the list. While a memory form is open its fields own the
keyboard: none of the app's actions runs from there (an undo would rewrite the file being
edited, and a screen or the palette opened over the form would leave its input waiting under
it), except quitting, which asks first when the form holds unsaved input. While a dropdown has
focus, the app's actions bound to a typed character (`p`, `u`, `?`) do nothing: an Input takes
such keys as text already. An action that is off is hidden from the footer too, so the footer
offers only keys that act where the person is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from textual.keys import key_to_character
from textual.widget import Widget
from textual.widgets import Select

from . import keys

ALWAYS = "quit"
"""Never off: quitting with unsaved input asks instead (see Editing.action_quit)."""
PALETTE = "command_palette"


def action_name(action: str) -> str:
    """`open_screen('bootstrap')` -> `open_screen`: the name check_action is given."""
    return action.split("(", 1)[0]


APP_ACTIONS = frozenset({*(action_name(key.action) for key in keys.APP_KEYS), PALETTE}) - {ALWAYS}
"""Every action of the app's own keys, and the command palette's."""


# Textual 8.2.8 names these keys but cannot turn the names back into their characters.
_UNMAPPED = {"plus": "+", "minus": "-", "slash": "/"}


def is_typed(key: str) -> bool:
    """Whether pressing `key` types a character (`u`, `question_mark`, `plus`), as in an Input."""
    character = _UNMAPPED.get(key) or key_to_character(key)
    return character is not None and character.isprintable()


def typed_actions(overrides: Mapping[str, str]) -> frozenset[str]:
    """The actions of the app's keys bound to a typed character, with the settings' overrides."""
    # Asked for every action of every binding on each key press (Textual's check_action): worked
    # out afresh it cost several milliseconds a key, most of a held key's frame.
    return _typed_actions(tuple(sorted(overrides.items())))


@lru_cache(maxsize=8)
def _typed_actions(pairs: tuple[tuple[str, str], ...]) -> frozenset[str]:
    overrides = dict(pairs)
    return frozenset(
        action_name(key.action)
        for key in keys.APP_KEYS
        if action_name(key.action) != ALWAYS
        and any(is_typed(k.strip()) for k in overrides.get(key.id, key.keys).split(","))
    )


def in_dropdown(focused: Widget | None) -> bool:
    """Whether the focus is on a Select or inside it (its open list)."""
    return focused is not None and any(
        isinstance(node, Select) for node in focused.ancestors_with_self
    )


def app_action_allowed(
    action: str, form_open: bool, focused: Widget | None, typed: Iterable[str]
) -> bool:
    """Whether the app's `action` may run: False keeps the key from acting and the footer from
    offering it (Textual's check_action)."""
    if action not in APP_ACTIONS:
        return True
    if form_open:
        return False
    return not (in_dropdown(focused) and action in typed)

"""Keys that arrive together, as part of the app: those after a key that moves focus wait for it.

Textual forwards each key to the focused widget the moment it arrives, but an app binding runs only
once the key has bubbled back up to the app, several message hops later. Keys that arrive together
(a paste, `tmux send-keys`, typing into an app busy reading a big tree) are therefore all forwarded
to the list before `/` has moved focus to the search box, and their one-letter bindings (`c`, `r`,
`t`) run on the list: `/critical` marked a memory critical and opened the trash.

So when a key's binding moves focus (`/`, `Esc` and `Enter` of the search box), or is one of the
search box's own editing keys (`backspace` must delete before the letters after it are typed), the
app holds the keys that arrive after it, and replays them in order, through the usual dispatch,
once that key's action has run and focus is where it sent it: every key lands where it would have
had it been typed slowly. An action may keep them held a little longer (`Enter` until its query's
results are listed, so the key after it acts on the best match).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.timer import Timer
from textual.widgets import Input

from .widgets.search_bar import SearchBar

if TYPE_CHECKING:
    from .host import Host
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

FOCUS_MOVES = frozenset({"search", "clear_search", "escape_list", "focus_list", "submit"})
"""Actions whose key the keys after it must wait for: each moves focus when it runs."""

FIELD_MOVES = frozenset({"focus_next", "focus_previous"})
"""Tab and shift+tab, bound on every screen: on any of them the keys after wait for the move
(`abc`, Tab, `def` typed at once into a form's Title put all six letters there)."""

HOLD_LIMIT = 5.0
"""Seconds after which held keys are replayed anyway: a key stopped or dropped on its way back to
the app (its widget removed) must not keep the rest from ever arriving."""


class KeyBurst(Host):
    """Mixed into SamanthaApp before App, so its `on_event` sees every key first."""

    def init_key_burst(self) -> None:
        self._held: list[events.Key] | None = None
        """Keys that arrived while a focus-moving key was on its way; None when nothing waits."""
        self._holding_for: events.Key | None = None
        self._kept = False
        self._hold_timer: Timer | None = None

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            if not event.is_forwarded:
                if self._held is not None:
                    self._held.append(event)
                    return
                if self._moves_focus(event.key, event.character):
                    self._start_holding(event)
            elif event is self._holding_for:
                # Back at the app: the bindings run now, and the action moves focus at once.
                await super().on_event(event)
                self._holding_for = None
                if not self._kept:
                    await self.release_keys()
                return
        await super().on_event(event)

    def _moves_focus(self, key: str, character: str | None) -> bool:
        """Whether the binding this key would run, where focus is now, moves focus."""
        if not self.screen_stack:
            return False  # before the first screen, or while the app closes
        focused = self.focused
        if focused is not None and focused.check_consume_key(key, character):
            # Typed into the focused box (`/` in a query): no binding runs and nothing comes
            # back to release the keys behind it.
            return False
        active = self.screen.active_bindings.get(key)
        if active is None or not active.enabled or active.binding.priority:
            # A priority binding runs before the key is forwarded: nothing overtakes it.
            return False
        action = active.binding.action.split("(", 1)[0].rsplit(".", 1)[-1]
        if action in FIELD_MOVES:
            # Tab in a form: the letters after it belong in the next field, not this one.
            return True
        own = (self, self.screen_stack[0])  # the app's keys, bound on it or its main screen
        if isinstance(active.node, Input):
            # A box's own editing keys (backspace, delete, End, the arrows) act only once back
            # at the app, while a letter is inserted the moment it arrives: the letters after
            # `backspace` would be typed before it deletes (`/rety`, 4 backspaces, `gatway`
            # left `ga`), in the search box as in any form's field.
            return True
        if active.node not in own and not isinstance(active.node, SearchBar):
            # Only the app's own keys and the search box's release what they hold; Enter in
            # another screen's field moves nothing the keys after it could overtake.
            return False
        return action in FOCUS_MOVES

    def _start_holding(self, event: events.Key) -> None:
        self._held = []
        self._holding_for = event
        self._kept = False
        self._hold_timer = self.set_timer(HOLD_LIMIT, self.release_keys)

    def keep_keys_held(self) -> None:
        """Called by a focus-moving action: keep the keys after its key held until
        `release_keys`, instead of replaying them as soon as the action returns."""
        if self._held is not None:
            self._kept = True

    @property
    def holding_keys(self) -> bool:
        return self._held is not None

    async def release_keys(self) -> None:
        """Replay the held keys in order, each as if it had just arrived (one of them may start
        holding again, and the rest then wait behind it)."""
        held, self._held = self._held, None
        self._holding_for = None
        self._kept = False
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        for event in held or ():
            await self.on_event(event)

"""A footer that fits its terminal: compact when the keys do not fit, then only the keys that do.

Textual's Footer lays every shown key out in one row and cuts the row at the edge, so on an 80
column terminal `? Keys` and `q Quit` (the ways to every other key, and out) were the ones lost.
Here the keys that close, cancel, save, help or quit always stay; the others go from the end.

Textual rebuilds its footer (every key a widget, mounted anew) whenever a screen's bindings may
have changed: each focus move, each screen opened or closed. Most of those change nothing the
footer shows, so this one rebuilds only when what it would show differs from what it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

KEPT_ACTIONS = frozenset({"help", "quit", "close", "cancel", "dismiss", "save"})
"""The keys that stay however narrow the terminal: help shows every other key."""
PALETTE_EXTRA = 2
"""The palette key's border and padding, on top of a key's own cells."""


@dataclass(frozen=True)
class FooterItem:
    key: str
    description: str
    kept: bool = False

    def cells(self, compact: bool) -> int:
        """Cells it takes in the footer: `" k Desc "`, or `"k Desc "` when compact."""
        return cell_len(self.key) + cell_len(self.description) + (2 if compact else 3)


def fit_items(items: Sequence[FooterItem], width: int) -> tuple[list[int], bool]:
    """Which items show (their indexes) in `width` cells, and whether compact: all at full size
    if they fit, else compact, dropping the last items not kept until the rest fit."""
    shown = list(range(len(items)))
    if sum(item.cells(False) for item in items) <= width:
        return shown, False
    while sum(items[i].cells(True) for i in shown) > width:
        droppable = [i for i in shown if not items[i].kept]
        if not droppable:
            break
        shown.remove(droppable[-1])
    return shown, True


class FittedFooter(Footer):
    """Textual's Footer, with only the keys that fit its width."""

    def __init__(self) -> None:
        super().__init__()
        self._composed_for = 0
        self._shown: tuple[object, ...] | None = None
        """What the footer was last composed from (see _showing)."""

    def _showing(self) -> tuple[object, ...]:
        """Everything compose reads: the width, whether the palette key shows, and each active
        binding's key, its display, description, action, group, whether enabled and tooltip."""
        width = self.size.width or self.app.size.width
        bindings = tuple(
            (
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                binding.show,
                id(binding.group) if binding.group is not None else None,
                enabled,
                tooltip,
                binding.tooltip,
            )
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
        )
        return (width, self.show_command_palette, self.app.ENABLE_COMMAND_PALETTE, bindings)

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        if not self.is_attached or self._showing() == self._shown:
            return
        await self.recompose()

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._shown = self._showing()
        widgets = list(super().compose())
        width = self.size.width or self.app.size.width
        self._composed_for = width
        keys = [w for w in widgets if isinstance(w, FooterKey) and not _is_palette(w)]
        room = width - sum(
            FooterItem(w.key_display, w.description).cells(False) + PALETTE_EXTRA
            for w in widgets
            if isinstance(w, FooterKey) and _is_palette(w)
        )
        items = [FooterItem(w.key_display, w.description, w.action in KEPT_ACTIONS) for w in keys]
        shown, compact = fit_items(items, room)
        self.compact = compact
        chosen = {id(keys[i]) for i in shown}
        for widget in widgets:
            if not isinstance(widget, FooterKey) or _is_palette(widget) or id(widget) in chosen:
                if isinstance(widget, FooterKey) and not _is_palette(widget):
                    _born_compact(widget, compact)
                yield widget

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._composed_for and self._bindings_ready:
            self.refresh(recompose=True)


def _born_compact(key: FooterKey, compact: bool) -> None:
    """Give a key, before it is mounted, the compactness its footer binds to it (the palette's
    key is bound to nothing: it stays as Textual makes it).

    A key is made compact (its `-compact` class on) and its binding to the footer's `compact` sets
    it again once mounted, which runs its watcher: each key of a compact footer, after being styled
    at its mount, was styled again for the class it gained. Set before the mount, the class is
    there when it is styled first, and the watcher finds nothing to change."""
    key.set_reactive(FooterKey.compact, compact)
    key.set_class(compact, "-compact", update=False)


def _is_palette(widget: Widget) -> bool:
    return widget.has_class("-command-palette")

"""Tabs whose labels carry counts that change after mount."""

from __future__ import annotations

from collections.abc import Mapping

from textual import events
from textual.widgets import Tab, Tabs


class CountedTab(Tab):
    """Textual moves the underline when a tab is relabelled, which can happen before the new
    label is laid out; announcing the relabel again once the tab has its new size keeps the
    underline under the whole label."""

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Relabelled(self))


class CountedTabs(Tabs):
    _labelled: dict[str, str] | None = None
    """The label last set on each tab, by id."""

    def set_labels(self, labels: Mapping[str, str]) -> None:
        # The labels are asked for after every change and many moves, and mostly say what they
        # said: setting a label lays the screen out again and moves the underline, so only the
        # labels that differ are set.
        if self._labelled is None:
            self._labelled = {}
        for tab_id, label in labels.items():
            if self._labelled.get(tab_id) != label:
                self.query_one(f"#{tab_id}", Tab).label = label
                self._labelled[tab_id] = label

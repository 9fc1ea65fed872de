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
    def set_labels(self, labels: Mapping[str, str]) -> None:
        for tab_id, label in labels.items():
            self.query_one(f"#{tab_id}", Tab).label = label

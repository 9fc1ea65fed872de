"""Every key a dialog takes, shown on it: `[y] Move to trash`, `[Esc/n] Cancel`.

One style for every dialog and panel: the keys in square brackets before what they do, as the
settings file's keymap leaves them (a remapped key shows its new name, a key taken away shows
no more), so no dialog answers a key it does not show.
"""

from __future__ import annotations

from rich.text import Text
from textual.dom import DOMNode

from .. import keys


def keys_of(node: DOMNode, binding_id: str) -> str:
    """`Esc/n`: the keys that run binding `binding_id` of `node` now; empty when none do."""
    for found in keys.bound(node):
        if found.id == binding_id:
            return "/".join(keys.display(key) for key in found.keys)
    return ""


def keyed(node: DOMNode, binding_id: str, label: str) -> Text:
    """`[y] Move to trash`: a label (plain text, never markup) after the keys that do it."""
    shown = keys_of(node, binding_id)
    if not shown:
        return Text(label)
    return Text.assemble((f"[{shown}]", "bold"), " ", label)


def hint(node: DOMNode, *parts: tuple[str, str] | str) -> Text:
    """A dim line of `[key] what it does` parts joined by ` · ` (a part may be plain words)."""
    line = Text(style="dim")
    for number, part in enumerate(parts):
        if number:
            line.append(" · ")
        if isinstance(part, str):
            line.append(part)
        else:
            line.append_text(keyed(node, *part))
    return line

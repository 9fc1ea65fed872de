"""Every app action once: its key, stable id, description and command-palette name.

The app's bindings and the palette are built from this table. Every other screen and widget
declares its own `BINDINGS`, each with a stable id too (`reader.next`, `list.mark`). The
settings file's `[keys]` table remaps any of those ids; Textual applies it (`App.set_keymap`),
and the help screen reads the keys back from Textual's binding tables (`bound`), so a key shown
on `?` is always the key that works.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingsMap, BindingType

from .tabs import TABS

if TYPE_CHECKING:
    from textual.dom import DOMNode


@dataclass(frozen=True)
class Key:
    id: str
    keys: str
    action: str
    description: str
    palette: str | None = None
    """The command palette's name for it, namespaced ("memory: ..."); None keeps it off."""
    help: str = ""
    show: bool = False
    """Shown in the footer."""
    key_display: str | None = None
    priority: bool = False
    """Before the focused widget: ctrl+k must jump even from the search box (where Input would
    delete to the end of the line)."""
    aliases: tuple[str, ...] = ()
    """Other words a person may type in the palette for it ("exit" for quit)."""

    def binding(self, namespace: str = "") -> Binding:
        """The Textual binding; `namespace` (`app`) runs the action there from another node."""
        return Binding(
            self.keys,
            f"{namespace}.{self.action}" if namespace else self.action,
            self.description,
            show=self.show,
            key_display=self.key_display,
            priority=self.priority,
            id=self.id,
        )


APP_KEYS: tuple[Key, ...] = (
    Key(
        id="search.focus",
        keys="slash",
        action="search",
        description="Search",
        palette="view: search this tab",
        help="Filter the list as you type; field filters such as importance:high work",
        show=True,
        key_display="/",
        aliases=("filter", "find", "look up"),
    ),
    Key(
        # Esc, on (and in the footer) only while it is what Esc does (App.check_action): the
        # list focused, no search, this tab's rows marked. Before search.clear, which has Esc
        # otherwise: of a key's bindings, the first that is on runs and shows.
        id="search.unmark",
        keys="escape",
        action="clear_marks",
        description="Unmark",
        help="Clear this tab's marks (with a search on, the Esc before clears the search)",
        show=True,
        key_display="Esc",
    ),
    Key(
        id="search.clear",
        keys="escape",
        action="escape_list",
        description="Clear the search, or back to the list",
        help="Clear the search and go back to where you were; from the preview, back to the list",
    ),
    Key(
        id="memory.jump",
        keys="ctrl+k",
        action="jump",
        description="Jump to a memory",
        palette="view: jump to a memory",
        help="Find any memory of any kind by name and open it",
        priority=True,
        aliases=("go to", "open memory", "find memory"),
    ),
    Key(
        id="memory.edit",
        keys="e",
        action="edit",
        description="Edit fields",
        palette="memory: edit fields",
        help="Open the frontmatter form of the selected memory",
        show=True,
        aliases=("change", "modify", "frontmatter", "fields"),
    ),
    Key(
        id="memory.read",
        keys="enter",
        action="read",
        description="Read",
        palette="memory: read full-screen",
        help="Read the selected memory full-screen; in Problems, go to the file and field at fault",
        key_display="Enter",
    ),
    Key(
        id="memory.copy_path",
        keys="y",
        action="copy_path",
        description="Copy path",
        palette="memory: copy path",
        help="Copy the selected memory's absolute path to the clipboard",
    ),
    Key(
        id="memory.open_folder",
        keys="O",
        action="open_folder",
        description="Open folder",
        palette="memory: open folder",
        help="Open the memory's folder with $SAMANTHA_TUI_OPEN, xdg-open or open",
    ),
    Key(
        id="memory.origin",
        keys="w",
        action="origin",
        description="Where it came from",
        palette="view: where the memory came from",
        help="To the original of a merge copy, or pick among the other memories its session wrote",
        aliases=("origin", "session", "merge copy", "source", "provenance"),
    ),
    Key(
        id="memory.related",
        keys="m",
        action="related",
        description="Related",
        palette="view: memories related in meaning",
        help="The five memories closest in meaning, best first: pick one to go to it",
        aliases=("related", "similar", "like this", "closest", "meaning"),
    ),
    Key(
        id="memory.toggle_critical",
        keys="c",
        action="toggle_critical",
        description="Critical",
        palette="memory: toggle critical",
        help="Mark or unmark the selected memory as read every session",
        show=True,
        aliases=("star", "pin", "must read", "important"),
    ),
    Key(
        id="memory.raise_importance",
        keys="plus,equals_sign",
        action="step_importance(1)",
        description="Raise importance",
        palette="memory: raise importance",
        help="low -> medium -> high",
        key_display="+",
        aliases=("increase", "priority", "more important"),
    ),
    Key(
        id="memory.lower_importance",
        keys="minus",
        action="step_importance(-1)",
        description="Lower importance",
        palette="memory: lower importance",
        help="high -> medium -> low",
        key_display="-",
        aliases=("decrease", "less important"),
    ),
    Key(
        id="memory.open_editor",
        keys="o",
        action="open_editor",
        description="Open in $EDITOR",
        palette="memory: open in editor",
        help="Edit the file in $VISUAL or $EDITOR, then take the change in",
        aliases=("vim", "external editor", "edit file"),
    ),
    Key(
        id="memory.new",
        keys="n",
        action="new_memory",
        description="New memory",
        palette="memory: new",
        help="Create a memory of the current kind from the template",
        aliases=("create", "add", "write"),
    ),
    Key(
        id="memory.delete",
        keys="d,delete",
        action="delete",
        description="Delete",
        palette="memory: delete",
        help="Move the selected (or marked) memories to the trash, after asking",
        show=True,
        aliases=("remove", "trash", "discard"),
    ),
    Key(
        id="memory.undo",
        keys="u",
        action="undo",
        description="Undo",
        palette="memory: undo",
        help="Undo the last change of this session; again to go further back",
        show=True,
        aliases=("revert", "go back", "rollback"),
    ),
    Key(
        id="memory.redo",
        keys="ctrl+y,U",
        action="redo",
        description="Redo",
        palette="memory: redo",
        help="Make the last undone change again (refused if its file changed since the undo)",
    ),
    Key(
        id="memory.fix_problem",
        keys="f",
        action="fix_problem",
        description="Fix problem",
        palette="memory: fix the selected problem",
        help="In Problems: show the fix of the selected problem, line before and after, then "
        "write it on confirm (u undoes it); a problem with no fix opens the form",
    ),
    Key(
        id="index.regenerate",
        keys="r",
        action="regenerate_indexes",
        description="Regenerate indexes",
        palette="index: regenerate",
        help="Show what bringing the indexes in step with the files would write, then write it",
        aliases=("rebuild", "sync", "refresh index", "update index"),
    ),
    Key(
        id="index.remove_stale",
        keys="R",
        action="remove_stale_entries",
        description="Remove entries known only to the index",
        palette="index: remove entries known only to the index",
        help=(
            "List the index entries no memory file holds (kept until you ask) and what depends on"
            " them; the dialog's Remove button removes them, and the assistant forgets them"
        ),
        aliases=("clean", "prune entries", "orphans"),
    ),
    Key(
        id="index.drift",
        keys="i",
        action="show_drift",
        description="Index drift",
        palette="index: show drift",
        help="List how the index files differ from the memory files",
        aliases=("diff", "check", "compare", "out of date"),
    ),
    Key(
        id="view.bootstrap",
        keys="b",
        action="open_screen('bootstrap')",
        description="Bootstrap preview",
        palette="view: bootstrap preview",
        help="What the assistant loads at start-up, in order, against the token budget",
        show=True,
        aliases=("startup", "load plan", "session start", "budget"),
    ),
    Key(
        id="view.review",
        keys="p",
        action="open_screen('review')",
        description="Review",
        palette="view: review curation",
        help="Prune, promote, escalate, duplicates, tasks, pending updates: pick, then apply",
        show=True,
        aliases=("curate", "prune", "promote", "duplicates", "dedupe"),
    ),
    Key(
        id="view.health",
        keys="H",
        action="open_health",
        description="Health",
        palette="view: memory health report",
        help="Duplicates, conflicts, drift, budget, missing fields, dates that rot; each fix",
        aliases=("health", "score", "report", "problems", "conflicts", "duplicates"),
    ),
    Key(
        id="view.trash",
        keys="t",
        action="open_screen('trash')",
        description="Trash",
        palette="view: trash",
        help="What is in .ai/.trash/, where it came from; restore",
        aliases=("deleted", "restore", "bin", "recycle"),
    ),
    Key(
        id="view.stats",
        keys="s",
        action="open_screen('stats')",
        description="Stats",
        palette="view: stats",
        help="Memories per kind, importance and month; topics, critical, candidates, drift",
        aliases=("statistics", "counts", "chart", "numbers"),
    ),
    Key(
        id="view.notices",
        keys="N",
        action="open_notices",
        description="Notices",
        palette="view: notices",
        help="Every notice of this session, newest first, to read again after its toast went",
        aliases=("log", "messages", "history"),
    ),
    Key(
        id="view.reload",
        keys="ctrl+r",
        action="reload",
        description="Reload from disk",
        palette="view: reload the tree",
        help="Read every file again from disk",
        aliases=("refresh", "rescan", "read again"),
    ),
    Key(
        id="view.sort",
        keys="S",
        action="sort_menu",
        description="Sort",
        palette="view: sort the list",
        help="Sort this tab by date, updated, title, importance, references or path; "
        "the current one again flips the direction (a column header click does the same)",
    ),
    *(
        Key(
            id=f"tab.{tab.id}",
            keys=str(number),
            action=f"show_tab('{tab.id}')",
            description=f"{tab.words().capitalize()} tab",
            palette=f"view: {tab.words()}",
            help=f"Show the {tab.words()} tab (key {number})",
        )
        for number, tab in enumerate(TABS, start=1)
    ),
    Key(
        id="app.help",
        keys="question_mark,f1",
        action="help",
        description="Keys",
        palette="view: keys",
        help="The keys of the screen you are on, and what it is for",
        show=True,
        key_display="?",
        aliases=("help", "shortcuts", "bindings", "what can i do"),
    ),
    Key(
        id="app.quit",
        keys="q",
        action="quit",
        description="Quit",
        palette="app: quit",
        help="Quit samantha-tui (asking first if a form holds unsaved input)",
        show=True,
        aliases=("exit", "close", "leave", "bye"),
    ),
)


SECTIONS = {
    "search": "Find",
    "memory.jump": "Find",
    "memory.origin": "Find",
    "memory": "Change",
    "index": "Indexes",
    "tab": "Tabs",
    "view": "View",
    "app": "View",
}


def section(binding_id: str) -> str:
    """The help screen's heading for one of the app's keys: what it acts on."""
    return SECTIONS.get(binding_id, SECTIONS[binding_id.split(".", 1)[0]])


MAIN_SCREEN_ACTIONS = frozenset(
    {
        "search",
        "clear_search",
        "escape_list",
        "clear_marks",
        "jump",
        "edit",
        "toggle_critical",
        "step_importance",
        "open_editor",
        "new_memory",
        "delete",
        "show_tab",
        "reload",
        "read",
        "copy_path",
        "open_folder",
        "origin",
        "related",
    }
)
"""The app's actions on the main list's selection, its tabs or its search: they mean something
else, or nothing, on the screens above it (the bootstrap preview has its own `c`)."""


def on_main_screen(key: Key) -> bool:
    """Whether the key is bound on the main screen (its action is one of MAIN_SCREEN_ACTIONS)."""
    return key.action.split("(", 1)[0] in MAIN_SCREEN_ACTIONS


def bindings() -> list[BindingType]:
    """The app's own bindings: the keys that act wherever the person is."""
    return [key.binding() for key in APP_KEYS if not on_main_screen(key)]


def main_screen_bindings() -> list[BindingType]:
    """The main screen's bindings: the app's actions on the list, run in the app's namespace
    (the app keeps the session they act on). Above the main screen they are in no binding chain."""
    return [key.binding(namespace="app") for key in APP_KEYS if on_main_screen(key)]


def known_ids() -> set[str]:
    """The ids of the app's own keys (the table above)."""
    return {key.id for key in APP_KEYS}


UI_PACKAGE = "samantha_tui.ui"


def every_binding_id() -> frozenset[str]:
    """The id of every binding that a screen, widget or the app of this package declares.

    Imports every module of the UI (the screens are otherwise loaded on first use), so it is
    asked only when the settings name an id that the app itself does not bind.
    """
    import importlib
    import inspect
    import pkgutil

    from textual.dom import DOMNode

    package = importlib.import_module(UI_PACKAGE)
    found: set[str] = set()
    for module_info in pkgutil.walk_packages(package.__path__, f"{UI_PACKAGE}."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, DOMNode):
                found.update(binding_id for binding_id, _ in declared(value))
    return frozenset(found)


def declared(cls: type[DOMNode]) -> Iterator[tuple[str, Binding]]:
    """(id, binding) of every binding with an id that `cls` and its bases declare, in the order
    written, a subclass's first (Textual's own bindings carry no id)."""
    seen: set[str] = set()
    for base in cls.__mro__:
        for binding in vars(base).get("BINDINGS", ()):
            if isinstance(binding, Binding) and binding.id and binding.id not in seen:
                seen.add(binding.id)
                yield binding.id, binding


@dataclass(frozen=True)
class Bound:
    """A declared binding and the keys Textual runs it on now."""

    id: str
    binding: Binding
    keys: tuple[str, ...]

    @property
    def shown(self) -> str:
        """The keys as a person types them (`?  F1`); empty when a remap took them all."""
        return display(",".join(self.keys))


def bound(node: DOMNode) -> list[Bound]:
    """Every binding with an id that `node` declares, in the order written, with the keys from
    Textual's own binding table as the settings file's keymap leaves it.

    The same table Textual dispatches keys from: a remapped key shows here, and a key another
    remap took away shows no more.
    """
    table = node._bindings.copy()
    keymap = node.app._keymap
    if keymap:
        table.apply_keymap(keymap)
    keys_of: dict[str, list[str]] = {}
    for key, bindings in table.key_to_bindings.items():
        # A binding written with two keys and remapped to one is two entries on that key.
        for binding_id in dict.fromkeys(binding.id for binding in bindings if binding.id):
            keys_of.setdefault(binding_id, []).append(key)
    found = []
    for binding_id, binding in declared(type(node)):
        # In the order written: the table orders keys by where each was first bound.
        written = keymap.get(binding_id) or _normalized(binding.key)
        order = [key.strip() for key in written.split(",")]
        now = keys_of.get(binding_id, [])
        now.sort(key=lambda key: order.index(key) if key in order else len(order))
        found.append(Bound(binding_id, binding, tuple(now)))
    return found


def app_keys_bound(*nodes: DOMNode) -> list[Bound]:
    """The app's keys (APP_KEYS) that `nodes` bind (the main screen and the app), in the
    order of the table, as `bound` reads them."""
    order = {key.id: number for number, key in enumerate(APP_KEYS)}
    found = [each for node in nodes for each in bound(node) if each.id in order]
    return sorted(found, key=lambda each: order[each.id])


FOLLOWS: Mapping[str, str] = MappingProxyType(
    {
        "bootstrap.toggle_critical": "memory.toggle_critical",
        "bootstrap.raise_importance": "memory.raise_importance",
        "bootstrap.lower_importance": "memory.lower_importance",
    }
)
"""A screen's binding -> the app's key it does the same as: a remap of the app's key moves it
too (Critical is one key everywhere), unless the settings file remaps it by its own id."""


@dataclass(frozen=True)
class Clash:
    """A key the settings file gives to two bindings that both act on a screen: it does what
    `by` does there, and `lost` does not answer to it there."""

    key: str
    lost: str
    by: str


@dataclass(frozen=True)
class ScreenKeys:
    """The keys each binding of a screen answers to under the settings file's keymap, and the
    clashes that resolving it found."""

    keys: dict[str, tuple[str, ...]]
    """Binding id -> keys, for every binding with an id that the screen declares."""
    clashes: tuple[Clash, ...]


def _split(keys: str) -> tuple[str, ...]:
    return tuple(key.strip() for key in _normalized(keys).split(",") if key.strip())


def screen_keys(cls: type[DOMNode], keymap: Mapping[str, str]) -> ScreenKeys:
    """The keys of a screen over the main list, where the app's own keys act too, as the
    person's keymap has them: what the settings file names wins over any default.

    A binding the keymap names (by its id, or by the app key it FOLLOWS) answers to those keys.
    Any other keeps the default keys the keymap gives to nothing else that acts on this screen
    (its bindings, the app's keys); one that FOLLOWS an app key also gives up the keys the keymap
    gives to another of the app's keys, as that key does on the list. Where the keymap gives one
    key to two bindings that act here, the screen's wins (Textual looks for a key among the
    screen's bindings before the app's), and the clash is said.
    """
    user = {binding_id: _split(keys) for binding_id, keys in keymap.items() if _split(keys)}
    here = list(declared(cls))
    wanted: dict[str, tuple[str, ...]] = {}
    named: list[str] = []
    for binding_id, binding in here:
        follows = FOLLOWS.get(binding_id, "")
        chosen = user.get(binding_id) or user.get(follows)
        if chosen:
            named.append(binding_id)
        wanted[binding_id] = chosen or _split(binding.key)
    clashes: list[Clash] = []
    # Who the keymap gives each key to among what acts here: the screen's bindings first.
    owner: dict[str, str] = {}
    for binding_id in named:
        for key in wanted[binding_id]:
            if owner.setdefault(key, binding_id) != binding_id:
                clashes.append(Clash(key, binding_id, owner[key]))
    ours = set(wanted)
    for app_key in APP_KEYS:
        if on_main_screen(app_key):
            continue  # not bound over the list
        for key in user.get(app_key.id) or ():
            if owner.get(key) in ours:
                clashes.append(Clash(key, app_key.id, owner[key]))
            else:
                owner.setdefault(key, app_key.id)
        if app_key.id not in user:
            clashes.extend(
                Clash(key, app_key.id, owner[key])
                for key in _split(app_key.keys)
                if owner.get(key) in named
            )
    on_the_list = {key: i for i in known_ids() if i in user for key in user[i]}
    found: dict[str, tuple[str, ...]] = {}
    for binding_id, _binding in here:
        if binding_id in named:
            found[binding_id] = tuple(k for k in wanted[binding_id] if owner[k] == binding_id)
            continue
        leader = FOLLOWS.get(binding_id)
        kept = []
        for key in wanted[binding_id]:
            taker = owner.get(key)
            if taker is None and leader and on_the_list.get(key, leader) != leader:
                taker = on_the_list[key]
            if taker is None:
                kept.append(key)
            else:
                clashes.append(Clash(key, binding_id, taker))
        found[binding_id] = tuple(kept)
    return ScreenKeys(found, tuple(clashes))


def clash_lines(cls: type[DOMNode], found: ScreenKeys, keymap: Mapping[str, str]) -> list[str]:
    """Each clash in words: the key, what it does on the screen, and what lost it there."""
    descriptions = {key.id: key.description for key in APP_KEYS}
    descriptions.update((binding_id, b.description) for binding_id, b in declared(cls))
    app_keys = {key.id: key for key in APP_KEYS}
    lines = []
    for clash in found.clashes:
        by = clash.by
        named = by if by in keymap or by not in FOLLOWS else FOLLOWS[by]
        if clash.lost in found.keys:
            left = found.keys[clash.lost]
        else:
            spec = keymap.get(clash.lost) or app_keys[clash.lost].keys
            lost_keys = {c.key for c in found.clashes if c.lost == clash.lost}
            left = tuple(key for key in _split(spec) if key not in lost_keys)
        app_key = app_keys.get(by)
        where = " on the list" if app_key is not None and on_main_screen(app_key) else ""
        line = (
            f"{display(clash.key)} is {descriptions[by]}{where} ({named}), so "
            f"{descriptions[clash.lost]} ({clash.lost}) "
        )
        if left:
            line += f"answers to {display(','.join(left))} there, not {display(clash.key)}"
        else:
            line += "has no key there: give it one under [keys]"
        lines.append(line)
    return lines


def rebind(node: DOMNode, keys_of: Mapping[str, tuple[str, ...]]) -> None:
    """Bind `node`'s bindings with an id to these keys (its own binding table: Textual lays the
    app's keymap over it as it looks for a key, which leaves these as they are)."""
    table = node._bindings
    now: dict[str, list[str]] = {}
    for key, bindings in table.key_to_bindings.items():
        for binding in bindings:
            if binding.id:
                now.setdefault(binding.id, []).append(key)
    moved = {
        binding_id
        for binding_id, keys in keys_of.items()
        if sorted(keys) != sorted(now.get(binding_id, []))
    }
    if not moved:
        return
    rebound: dict[str, list[Binding]] = {}
    for key, bindings in table.key_to_bindings.items():
        kept = [binding for binding in bindings if binding.id not in moved]
        if kept:
            rebound[key] = kept
    for binding_id, binding in declared(type(node)):
        if binding_id in moved:
            for key in keys_of[binding_id]:
                rebound.setdefault(key, []).append(binding.with_key(key=key, key_display=None))
    node._bindings = BindingsMap.from_keys(rebound)


def _normalized(keys: str) -> str:
    """`?,f1` -> `question_mark,f1`: keys named as Textual's tables name them."""
    return ",".join(binding.key for binding in Binding.make_bindings([Binding(keys, "", id="")]))


_NAMES = {
    "question_mark": "?",
    "slash": "/",
    "plus": "+",
    "minus": "-",
    "equals_sign": "=",
    "space": "Space",
    "escape": "Esc",
    "delete": "Del",
    "enter": "Enter",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "home": "Home",
    "end": "End",
    "tab": "Tab",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "less_than_sign": "<",
    "greater_than_sign": ">",
}


def display(keys: str) -> str:
    """`question_mark,f1` -> `?  F1`: keys as a person types them."""
    shown = []
    for key in keys.split(","):
        key = key.strip()
        if key in _NAMES:
            shown.append(_NAMES[key])
        elif key.startswith("shift+"):
            shown.append("Shift+" + display(key.removeprefix("shift+")).capitalize())
        elif key.startswith("ctrl+"):
            shown.append("Ctrl+" + key.removeprefix("ctrl+").upper())
        elif key.startswith("f") and key[1:].isdigit():
            shown.append(key.upper())
        else:
            shown.append(key)
    return "  ".join(shown)

"""The YAML loaders samantha-tui reads frontmatter with: safe, and with samantha-llm's meanings.

samantha-llm reads frontmatter without a YAML library: a value of digits only is a number, and
the items of `[a, b]` are text. YAML 1.1 disagrees on a few spellings its own generator writes:
`session_id: 20261128_140000` would be the number 20261128140000, `017` octal 15, `1:30` the
number 90, and the topic words `yes`, `null` or `42` a bool, nothing or a number. These loaders
read integers as plain decimal digits only (with an optional sign; anything else is text), and
the caller turns the items of a text list (`topics`, a runbook's trigger signals) into text
(see `text_items`). A name field (TEXT_SCALARS) YAML 1.1 reads as a bool, nothing, a float or a
date is then made its text again (see name_fields).
"""

from __future__ import annotations

import re
from typing import TypeAlias, cast

import yaml

# The lists under a runbook's `triggers.positive`: signals are text to samantha-llm's merge (it
# writes them as JSON strings and compares them as text), so `[yes, 42]` is two words.
from ..basics.schema import SIGNAL_KEYS

INT_TAG = "tag:yaml.org,2002:int"
STR_TAG = "tag:yaml.org,2002:str"
TEXT_LISTS = frozenset({"topics"})
"""Top-level keys whose list items are always text, as samantha-llm reads every `[a, b]`."""
TEXT_SCALARS = frozenset({"project", "type", "domain", "confidence", "status"})
"""Top-level keys whose one-line value is text, never a YAML 1.1 word's bool or nothing:
`domain: yes` names the runbook `yes.md` samantha-llm's merge looks for (see name_fields)."""

DECIMAL = re.compile(r"[-+]?[0-9]+\Z")
_INT_RESOLVER = re.compile(r"^[-+]?[0-9]+$")

# A string: PyYAML built without libyaml has no CSafeLoader to name at run time.
LoaderClass: TypeAlias = "type[yaml.SafeLoader] | type[yaml.CSafeLoader]"
"""PyYAML's safe loader, pure Python or libyaml's: the two share no base class but their parts."""


def _resolvers(base: LoaderClass) -> dict[str | None, list[tuple[str, re.Pattern[str]]]]:
    table = {
        first: [(tag, regexp) for tag, regexp in entries if tag != INT_TAG]
        for first, entries in base.yaml_implicit_resolvers.items()
    }
    for first in "-+0123456789":
        # Before float and timestamp: neither matches digits alone, so order only saves time.
        table.setdefault(first, []).insert(0, (INT_TAG, _INT_RESOLVER))
    return table


def _decimal_int(loader: yaml.SafeLoader | yaml.CSafeLoader, node: yaml.ScalarNode) -> int:
    value = loader.construct_scalar(node)
    if DECIMAL.match(value):
        return int(value)  # `017` is 17, as samantha-llm's int() reads it, not octal 15
    # Only an explicit `!!int 0x1F` gets here: YAML's own reading of it.
    return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)


def _meaning_loader(base: LoaderClass) -> LoaderClass:
    # A subclass made at run time, so each base gets its own tables and PyYAML's stay untouched.
    loader = cast("LoaderClass", type(f"Meaning{base.__name__}", (base,), {}))
    loader.yaml_implicit_resolvers = _resolvers(base)
    loader.add_constructor(INT_TAG, _decimal_int)
    return loader


PURE_LOADER: LoaderClass = _meaning_loader(yaml.SafeLoader)
"""The pure-Python loader with samantha-llm's meanings (for marks and tests)."""
LOADER: LoaderClass = _meaning_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))
"""The fastest loader with samantha-llm's meanings: libyaml's when PyYAML has it."""


class NotText(ValueError):
    """An item of a text list is a list or mapping to YAML (`[?x, y]` reads `?x` as a mapping)."""

    def __init__(self, key: str, line: int) -> None:
        super().__init__(
            f"YAML reads an item of `{key}` as a nested list or mapping, samantha-llm as text"
        )
        self.line = line


def text_items(node: yaml.Node, key: str = "topics", strict: bool = True) -> yaml.Node:
    """A sequence node whose scalar items are tagged text (a copy: anchored nodes are shared).

    Raises NotText for an item that is itself a list or mapping; without `strict` such an item
    is kept as YAML reads it (trigger checks name it in their own words).
    """
    if not isinstance(node, yaml.SequenceNode):
        return node
    if all(isinstance(item, yaml.ScalarNode) and item.tag == STR_TAG for item in node.value):
        return node  # already text: an aliased list stays one shared value
    items: list[yaml.Node] = []
    for item in node.value:
        if not isinstance(item, yaml.ScalarNode):
            if strict:
                raise NotText(key, item.start_mark.line)
            items.append(item)
            continue
        items.append(
            yaml.ScalarNode(STR_TAG, item.value, item.start_mark, item.end_mark, item.style)
        )
    return yaml.SequenceNode(node.tag, items, node.start_mark, node.end_mark, node.flow_style)


def apply_text_lists(root: yaml.Node) -> None:
    """Retag the items of every TEXT_LISTS key of a top-level mapping, and of the signal lists
    under `triggers.positive`, as text, in place."""
    if not isinstance(root, yaml.MappingNode):
        return
    for index, (key, value) in enumerate(root.value):
        if isinstance(key, yaml.ScalarNode) and key.value in TEXT_LISTS:
            root.value[index] = (key, text_items(value, key.value))
    positive = _child(_child(root, "triggers"), "positive")
    if positive is not None:
        for index, (key, value) in enumerate(positive.value):
            if isinstance(key, yaml.ScalarNode) and key.value in SIGNAL_KEYS:
                positive.value[index] = (key, text_items(value, key.value, strict=False))


def _child(node: yaml.Node | None, name: str) -> yaml.MappingNode | None:
    """The mapping under `name` in a mapping node (the last one, as YAML keeps), or None."""
    if not isinstance(node, yaml.MappingNode):
        return None
    found = None
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value == name:
            found = value
    return found if isinstance(found, yaml.MappingNode) else None

"""An index.json rewritten in its own layout: only the bytes of what changed change."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from samantha_tui.core.basics.json_spans import elements_at, object_at
from samantha_tui.core.views.indexes.json_text import rewrite_json, same
from samantha_tui.core.views.indexes.jsonfmt import dump_json

from ..tiers import examples

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
)
_KEYS = st.text(max_size=6)
JSON_LIKE = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=4),
    max_leaves=20,
)
TOP = st.dictionaries(_KEYS, JSON_LIKE, min_size=1, max_size=5)


@dataclass(frozen=True)
class Layout:
    """How a person might write an index.json by hand."""

    indent: str
    newline: str
    colon: str
    comma: str
    """After the comma of a container written on one line."""
    flat_from: int | None
    """Containers this deep or deeper are written on one line."""
    ensure_ascii: bool
    final_newline: bool

    def dump(self, value: Any) -> bytes:
        text = self._value(value, 0, "")
        return (text + (self.newline if self.final_newline else "")).encode("utf-8")

    def _value(self, value: Any, depth: int, at: str) -> str:
        if isinstance(value, dict) and value:
            items = [
                json.dumps(k, ensure_ascii=self.ensure_ascii)
                + self.colon
                + self._value(v, depth + 1, at + self.indent)
                for k, v in value.items()
            ]
            return self._container("{", "}", items, depth, at)
        if isinstance(value, list) and value:
            items = [self._value(v, depth + 1, at + self.indent) for v in value]
            return self._container("[", "]", items, depth, at)
        return json.dumps(value, ensure_ascii=self.ensure_ascii)

    def _container(self, opening: str, closing: str, items: list[str], depth: int, at: str) -> str:
        if self.flat_from is not None and depth >= self.flat_from:
            return opening + ("," + self.comma).join(items) + closing
        inner = self.newline + at + self.indent
        return opening + inner + ("," + inner).join(items) + self.newline + at + closing


LAYOUTS = st.builds(
    Layout,
    indent=st.sampled_from(["  ", "    ", "\t"]),
    newline=st.sampled_from(["\n", "\r\n"]),
    colon=st.sampled_from([": ", " : ", ":"]),
    comma=st.sampled_from([" ", ""]),
    flat_from=st.none() | st.integers(min_value=1, max_value=3),
    ensure_ascii=st.booleans(),
    final_newline=st.booleans(),
)


def _containers(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path] if isinstance(value, dict | list) else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _containers(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _containers(item, (*path, index))
    return found


def _at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


@dataclass(frozen=True)
class Edit:
    path: tuple
    """Of the container changed."""
    what: str
    index: int | None = None
    """Of the list item added or removed."""


@st.composite
def edited(draw: st.DrawFn, old: dict[str, Any]) -> tuple[dict[str, Any], Edit]:
    new = copy.deepcopy(old)
    path = draw(st.sampled_from(_containers(new)))
    target = _at(new, path)
    if isinstance(target, dict):
        choices = ["add"] + (["change", "remove"] if target else [])
        what = draw(st.sampled_from(choices))
        if what == "add":
            key = draw(_KEYS.filter(lambda k: k not in target))
            target[key] = draw(JSON_LIKE)
        else:
            key = draw(st.sampled_from(sorted(target)))
            if what == "remove":
                del target[key]
            else:
                value = draw(JSON_LIKE.filter(lambda v: not same(v, target[key])))
                target[key] = value
        return new, Edit(path, what)
    choices = ["add"] + (["change", "remove"] if target else [])
    what = draw(st.sampled_from(choices))
    if what == "add":
        index = draw(st.integers(min_value=0, max_value=len(target)))
        target.insert(index, draw(JSON_LIKE))
        return new, Edit(path, what, index)
    index = draw(st.integers(min_value=0, max_value=len(target) - 1))
    if what == "remove":
        del target[index]
    else:
        target[index] = draw(JSON_LIKE.filter(lambda v: not same(v, target[index])))
    return new, Edit(path, what, index)


def _members(text: bytes) -> dict[str, str]:
    decoded = text.decode("utf-8")
    spans = object_at(decoded, 0)
    return {m.key: decoded[m.value_start : m.value_end] for m in spans.members}


def _items(text: bytes, key: str) -> list[str]:
    decoded = text.decode("utf-8")
    member = object_at(decoded, 0).last(key)
    assert member is not None
    return [decoded[a:b] for a, b in elements_at(decoded, member.value_start)]


@settings(max_examples=examples(300), deadline=None)
@given(st.data(), TOP, LAYOUTS)
def test_an_edit_reads_back_and_keeps_the_bytes_of_what_did_not_change(
    data: st.DataObject, old: dict[str, Any], layout: Layout
) -> None:
    old_text = layout.dump(old)
    assert same(json.loads(old_text), old)
    new, edit = data.draw(edited(old))

    result = rewrite_json(old_text, json.loads(old_text), new)

    assert same(json.loads(result), new)
    before, after = _members(old_text), _members(result)
    for key, value in new.items():
        if key in old and same(old[key], value):
            assert after[key] == before[key], key
    if len(edit.path) == 1 and edit.what in ("add", "remove") and edit.index is not None:
        # A top-level list lost or gained an item: every other item keeps its text.
        (key,) = edit.path
        kept_before, kept_after = _items(old_text, key), _items(result, key)
        if edit.what == "add":
            del kept_after[edit.index]
        else:
            del kept_before[edit.index]
        assert kept_after == kept_before
    if edit.path:
        # Inside one top-level member: the text around that member is exactly the old text.
        decoded_old, decoded_new = old_text.decode(), result.decode()
        member = object_at(decoded_old, 0).last(edit.path[0])
        assert member is not None
        tail = decoded_old[member.value_end :]
        assert decoded_new.startswith(decoded_old[: member.value_start])
        assert decoded_new.endswith(tail)


@given(TOP, st.data())
def test_the_standard_layout_is_simply_dumped(old: dict[str, Any], data: st.DataObject) -> None:
    new, _ = data.draw(edited(old))
    assert rewrite_json(dump_json(old), old, new) == dump_json(new)


@given(TOP, LAYOUTS)
def test_no_change_is_the_same_bytes(old: dict[str, Any], layout: Layout) -> None:
    text = layout.dump(old)
    assert rewrite_json(text, json.loads(text), copy.deepcopy(old)) == text


HAND = (
    '{\r\n    "last_updated": "2026-06-14",\r\n    "active": [\r\n'
    '        {\r\n            "name": "Gateway",\r\n            "status": "Phase 2"\r\n'
    "        }\r\n"
    "    ]\r\n}\r\n"
)


def test_a_member_added_is_written_like_its_neighbours() -> None:
    old = json.loads(HAND)
    new = copy.deepcopy(old)
    new["active"][0]["critical"] = True
    new["blocked"] = [{"name": "Billing"}]
    assert rewrite_json(HAND.encode(), old, new).decode() == (
        '{\r\n    "last_updated": "2026-06-14",\r\n    "active": [\r\n'
        '        {\r\n            "name": "Gateway",\r\n            "status": "Phase 2",\r\n'
        '            "critical": true\r\n        }\r\n    ],\r\n'
        '    "blocked": [\r\n        {\r\n            "name": "Billing"\r\n        }\r\n    ]\r\n'
        "}\r\n"
    )


def test_a_member_removed_takes_its_separator() -> None:
    old = json.loads(HAND)
    new = copy.deepcopy(old)
    del new["active"][0]["status"]
    del new["last_updated"]
    assert rewrite_json(HAND.encode(), old, new).decode() == (
        '{\r\n    "active": [\r\n        {\r\n            "name": "Gateway"\r\n'
        "        }\r\n    ]\r\n}\r\n"
    )


def test_entries_written_one_to_a_line_get_a_new_one_the_same_way() -> None:
    text = '{\n\t"active" : [\n\t\t{"name" : "a", "files" : []},\n\t\t{"name" : "b"}\n\t]\n}'
    old = json.loads(text)
    new = {"active": [{"name": "a", "files": ["x.md"]}, {"name": "b"}, {"name": "c", "n": 1}]}
    assert rewrite_json(text.encode(), old, new).decode() == (
        '{\n\t"active" : [\n\t\t{"name" : "a", "files" : ["x.md"]},\n\t\t{"name" : "b"},\n'
        '\t\t{"name" : "c", "n" : 1}\n\t]\n}'
    )


def test_non_ascii_is_written_as_the_file_writes_it() -> None:
    raw = '{\n    "a": "caf\u00e9"\n}'
    escaped = '{\n    "a": "caf\\u00e9"\n}'
    new = {"a": "caf\u00e9", "b": "na\u00efve"}
    assert rewrite_json(raw.encode(), json.loads(raw), new).decode() == (
        '{\n    "a": "caf\u00e9",\n    "b": "na\u00efve"\n}'
    )
    assert rewrite_json(escaped.encode(), json.loads(escaped), new).decode() == (
        '{\n    "a": "caf\\u00e9",\n    "b": "na\\u00efve"\n}'
    )


def test_a_value_of_another_json_type_is_written_anew() -> None:
    text = '{\n    "a": 1,\n    "b": 1.0\n}'
    new = {"a": True, "b": 1}
    result = rewrite_json(text.encode(), json.loads(text), new)
    assert result == b'{\n    "a": true,\n    "b": 1\n}'
    assert same(json.loads(result), new)


def test_a_lone_surrogate_is_escaped_in_the_files_own_layout() -> None:
    text = '{\n    "a": "caf\u00e9"\n}'
    new = {"a": "\ud800"}  # a lone surrogate (a file name's byte): UTF-8 cannot hold it raw
    result = rewrite_json(text.encode(), json.loads(text), new)
    assert result == b'{\n    "a": "\\ud800"\n}' and json.loads(result) == new


def test_text_that_would_not_read_back_falls_back_to_the_standard_layout() -> None:
    new = {"a": "\ud800"}
    assert rewrite_json(b"{not json", {}, new) == dump_json(new)


def test_a_long_list_keeps_every_other_item_when_one_is_inserted() -> None:
    entries = [{"file": f"m{i}.md", "n": i} for i in range(3000)]
    text = json.dumps({"recent": entries}, indent=4).encode()
    new_entries = [*entries[:1500], {"file": "new.md", "n": -1}, *entries[1500:]]
    result = rewrite_json(text, json.loads(text), {"recent": new_entries})
    assert result == json.dumps({"recent": new_entries}, indent=4).encode()

"""Index JSON is written byte for byte as `json.dumps(data, indent=2)` writes it."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from samantha_tui.core.views.indexes.jsonfmt import SharedEntry, dump_json

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_KEYS = st.text() | st.integers() | st.booleans() | st.none()


def _tree(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    mappings = st.dictionaries(_KEYS, children, max_size=4)
    return (
        st.lists(children, max_size=4)
        | st.lists(children, max_size=3).map(tuple)
        | mappings
        | st.dictionaries(st.text(), children, max_size=4).map(SharedEntry)
    )


JSON_LIKE = st.recursive(_SCALARS, _tree, max_leaves=30)


def _expected(data: Any) -> bytes:
    return json.dumps(data, indent=2).encode("ascii")


@given(JSON_LIKE)
def test_the_text_is_json_dumps_with_an_indent_of_two(data: Any) -> None:
    assert dump_json(data) == _expected(data)


@given(JSON_LIKE)
def test_a_second_dump_reusing_kept_entry_text_is_the_same(data: Any) -> None:
    first = dump_json(data)
    assert dump_json(data) == first == _expected(data)


def test_one_shared_entry_at_two_depths_is_indented_for_each() -> None:
    entry = SharedEntry({"file": "a.md", "topics": ["ci", "testing"]})
    data = {"critical": [entry], "recent": {"high_importance": [entry]}}
    assert dump_json(data) == _expected(data)
    assert dump_json(data) == _expected(data)
    assert len(entry.rendered) == 2

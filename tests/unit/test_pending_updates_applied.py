"""Pending project updates applied as samantha-llm's `projects review` applies them: every non-empty
proposed key on the entry found by name, nothing else of the index touched, undone exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samantha_tui.cli import main
from samantha_tui.core.basics import json_spans
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import impact
from samantha_tui.core.writing.atomic import StoreError
from samantha_tui.core.writing.door import apply
from samantha_tui.core.writing.project_index import set_project_fields

from ..conftest import TODAY
from ..pending_updates import INDEX, PENDING, index_data, samantha_llm_index, store_with, update
from ..tiers import examples


def as_the_real_tool(data: dict[str, Any], project: str, changes: dict[str, Any]) -> str:
    """What samantha-llm's review leaves in index.json, worked out here from its documented rule:
    the first entry named so in active then recently_completed gets every truthy proposed value."""
    data = json.loads(json.dumps(data))
    entry = next(
        e for section in ("active", "recently_completed") for e in data[section]
        if e["name"] == project
    )  # fmt: skip
    entry.update({key: value for key, value in changes.items() if value})
    data["last_updated"] = TODAY.isoformat()
    return json.dumps(data, indent=2)


def test_every_non_empty_key_is_set_and_the_file_matches_the_real_tool_byte_for_byte(
    tmp_path: Path,
) -> None:
    changes = {
        "status": "Phase 3 - rate limiting ✅",
        "recent_progress": "Sliding-window script written",
        "summary": "Route table v2 and rate limits",
        "owner": "dana",
        "topics": ["api", "ratelimit"],
        "started": None,
        "completed": "",
    }
    store = store_with(
        tmp_path,
        samantha_llm_index(index_data()),
        {"20260614_165930_gateway.json": update("gateway", changes)},
    )
    proposal = lifecycle.pending_updates(store.tree)
    [candidate] = proposal.candidates
    assert "started left as it is (null)" in candidate.reason
    assert 'completed left as it is ("")' in candidate.reason
    assert candidate.operations[0].values == {key: value for key, value in changes.items() if value}
    apply(store, proposal.plan(), reindex=False)
    written = (store.root / INDEX).read_text(encoding="ascii")
    assert written == as_the_real_tool(index_data(), "gateway", changes)
    entry = json.loads(written)["active"][0]
    assert entry["summary"] == "Route table v2 and rate limits"
    assert entry["started"] == "2026-05-01", "a null proposal leaves the key as it is"
    assert "completed" not in entry, "an empty proposal adds nothing"
    assert not (store.root / PENDING / "20260614_165930_gateway.json").exists()


def test_an_index_only_project_gets_its_update(tmp_path: Path) -> None:
    original = samantha_llm_index(index_data())
    store = store_with(
        tmp_path,
        original,
        {"20260614_165930_Billing Export.json": update("Billing Export", {"status": "Sent"})},
    )
    apply(store, lifecycle.pending_updates(store.tree).plan(), reindex=False)
    data = json.loads((store.root / INDEX).read_text())
    assert data["active"][1]["status"] == "Sent"
    assert data["active"][1]["note"] is None
    assert data["active"][0] == index_data()["active"][0]


def test_a_project_only_in_blocked_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    original = samantha_llm_index(index_data())
    store = store_with(
        tmp_path, original, {"20260614_165930_blocked-one.json": update("blocked-one", {"a": "b"})}
    )
    with pytest.raises(StoreError, match="active or recently_completed"):
        apply(store, lifecycle.pending_updates(store.tree).plan(), reindex=False)
    assert (store.root / INDEX).read_text() == original
    assert (store.root / PENDING / "20260614_165930_blocked-one.json").exists()


def test_undo_puts_back_every_value_and_removes_the_keys_it_added(tmp_path: Path) -> None:
    data = index_data()
    data["last_updated"] = TODAY.isoformat()  # so that undo can give back the very same bytes
    original = samantha_llm_index(data)
    changes = {"status": "Sent", "note": "was null", "summary": "New", "owner": "dana"}
    store = store_with(
        tmp_path,
        original,
        {"20260614_165930_Billing Export.json": update("Billing Export", changes)},
    )
    applied = apply(store, lifecycle.pending_updates(store.tree).plan(), reindex=False)
    entry = json.loads((store.root / INDEX).read_text())["active"][1]
    assert {key: entry[key] for key in changes} == changes
    [undo_fields, _restore] = reversed(applied.inverse.operations)
    assert undo_fields.values == {
        "status": "Waiting for finance",
        "note": None,
        "summary": "Only in the index: no folder",
    }
    assert undo_fields.unset == ("owner",)
    apply(store, applied.inverse, reindex=False)
    assert (store.root / INDEX).read_text() == original
    assert (store.root / PENDING / "20260614_165930_Billing Export.json").exists()


HAND_WRITTEN = (
    '{\r\n'
    '    "last_updated" : "2026-06-01",\r\n'
    '    "active": [\r\n'
    '        {"name": "gateway", "status": "Phase 2", "files": ["gateway/status.md"]},\r\n'
    '        {\r\n'
    '            "name": "Billing Export",\r\n'
    '            "status" : "Waiting",\r\n'
    '            "summary": "Caf\u00e9 notes, by hand"\r\n'
    '        }\r\n'
    '    ],\r\n'
    '    "recently_completed": [ {"name": "done-one", "status": "completed"} ],\r\n'
    '    "mine": {"kept":   true}\r\n'
    '}\r\n'
)  # fmt: skip


def test_a_hand_written_index_changes_only_at_the_keys_set(tmp_path: Path) -> None:
    updates = {
        "20260614_165930_gateway.json": update("gateway", {"status": "Phase 3", "summary": "S"}),
        "20260614_170000_Billing Export.json": update(
            "Billing Export", {"status": "Sent", "topics": ["billing", "csv"]}
        ),
    }
    store = store_with(tmp_path, HAND_WRITTEN, updates)
    apply(store, lifecycle.pending_updates(store.tree).plan(), reindex=False)
    assert (store.root / INDEX).read_bytes().decode("utf-8") == (
        '{\r\n'
        '    "last_updated" : "2026-06-15",\r\n'
        '    "active": [\r\n'
        '        {"name": "gateway", "status": "Phase 3", "files": ["gateway/status.md"], '
        '"summary": "S"},\r\n'
        '        {\r\n'
        '            "name": "Billing Export",\r\n'
        '            "status" : "Sent",\r\n'
        '            "summary": "Caf\u00e9 notes, by hand",\r\n'
        '            "topics": [\r\n'
        '              "billing",\r\n'
        '              "csv"\r\n'
        '            ]\r\n'
        '        }\r\n'
        '    ],\r\n'
        '    "recently_completed": [ {"name": "done-one", "status": "completed"} ],\r\n'
        '    "mine": {"kept":   true}\r\n'
        '}\r\n'
    )  # fmt: skip


def test_set_project_fields_adds_last_updated_at_the_end_when_missing(tmp_path: Path) -> None:
    data = index_data()
    del data["last_updated"]
    store = store_with(tmp_path, samantha_llm_index(data), {})
    set_project_fields(store, "done-one", {"status": "shipped"})
    expected = json.loads(json.dumps(data))
    expected["recently_completed"][0]["status"] = "shipped"
    expected["last_updated"] = TODAY.isoformat()
    assert (store.root / INDEX).read_text() == json.dumps(expected, indent=2)


@pytest.mark.parametrize(
    ("written", "read", "said"),
    [("low", "low", "low"), ("High", "high", "high"), (0.82, 0.82, "82%"), (None, None, None)],
)
def test_confidence_words_and_numbers_are_read(
    tmp_path: Path, written: Any, read: Any, said: str | None
) -> None:
    store = store_with(
        tmp_path,
        samantha_llm_index(index_data()),
        {"20260614_165930_gateway.json": update("gateway", {"status": "x"}, written)},
    )
    [pending] = store.tree.pending_updates
    assert pending.confidence == read and pending.confidence_text == said
    assert pending.session_id == "20260614_165930"
    reason = lifecycle.pending_updates(store.tree).candidates[0].reason
    assert reason.startswith(
        f"proposed for gateway ({said} confidence): " if said else "proposed for gateway: "
    )


def test_review_output_shows_the_confidence_word(tmp_path: Path, capsys) -> None:
    store = store_with(
        tmp_path,
        samantha_llm_index(index_data()),
        {"20260614_165930_gateway.json": update("gateway", {"status": "x", "summary": None})},
    )
    assert main(["review", str(store.root)]) == 0
    out = capsys.readouterr().out
    assert "proposed for gateway (medium confidence): status: x, summary left as it is (null)" in (
        out
    )


def test_index_changes_list_only_the_keys_set(tmp_path: Path) -> None:
    store = store_with(
        tmp_path,
        samantha_llm_index(index_data()),
        {"20260614_165930_gateway.json": update("gateway", {"summary": "New", "status": None})},
    )
    operation = lifecycle.pending_updates(store.tree).candidates[0].operations[0]
    changes = impact.index_changes(store, operation)
    assert [(c.key, c.current, c.proposed) for c in changes] == [
        ("summary", "Route table v2 for the café ✓ team", "New")
    ]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
OBJECTS = st.dictionaries(st.text(max_size=5), JSON_VALUES, max_size=5)


@settings(max_examples=examples(150), deadline=None)
@given(OBJECTS, st.text(max_size=5), JSON_VALUES, st.booleans())
def test_a_patched_member_gives_what_json_dump_indent_2_gives(
    data: dict[str, Any], key: str, value: Any, remove: bool
) -> None:
    text = json.dumps(data, indent=2)
    root = json_spans.object_at(text, 0)
    expected = dict(data)
    if remove:
        expected.pop(key, None)
        patched = json_spans.remove_member(text, root, key)
    else:
        expected[key] = value
        patched = json_spans.set_member(text, root, key, value)
    assert patched == json.dumps(expected, indent=2)

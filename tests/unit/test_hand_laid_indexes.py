"""An index.json a person laid out by hand (four spaces, CRLF, raw UTF-8, a final newline) keeps
its layout through the app's changes: only the bytes of the changed memory's entries change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.json_spans import elements_at, object_at
from samantha_tui.core.writing import edits
from samantha_tui.core.writing.curator import Curator
from samantha_tui.core.writing.index_writes import regenerate
from samantha_tui.core.writing.store import Store

from ..conftest import ST, TASKS, TODAY, make_tree

PROJECTS = ("billing", "gateway", "search")
MEMORIES = {"alpha": "high", "beta": "medium", "gamma": "medium"}
BETA = f"{ST}/2026-06-13_beta.md"


def _status(name: str) -> str:
    return (
        f"---\ndate: 2026-03-30\ntopics: [api]\nstatus: active\n---\n\n# {name.title()}\n\n"
        f"Work on {name}, café included.\n"
    )


def _memory(name: str, importance: str) -> str:
    return (
        f"---\ndate: 2026-06-13\ntopics: [{name}]\nimportance: {importance}\n---\n\n"
        f"# {name.title()} naïve\n\nAbout {name}.\n"
    )


def _by_hand(data: Any) -> bytes:
    return (json.dumps(data, indent=4, ensure_ascii=False).replace("\n", "\r\n") + "\r\n").encode()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    files = {f"{TASKS}/{name}/status.md": _status(name) for name in PROJECTS}
    files |= {f"{ST}/2026-06-13_{name}.md": _memory(name, imp) for name, imp in MEMORIES.items()}
    root = make_tree(tmp_path / "cerebrum", files)
    store = Store(root, lambda: TODAY)
    store.scan()
    regenerate(store)
    for folder in (ST, TASKS):
        index = root / folder / "index.json"
        index.write_bytes(_by_hand(json.loads(index.read_bytes())))
    return root


def _entries(raw: bytes) -> list[tuple[str, str, str]]:
    """(where, name, text) of every entry object in the index's lists, as written."""
    text = raw.decode("utf-8")
    found: list[tuple[str, str, str]] = []

    def walk(at: int, where: str) -> None:
        for member in object_at(text, at).members:
            first = text[member.value_start]
            if first == "{":
                walk(member.value_start, f"{where}/{member.key}")
            elif first == "[":
                for start, end in elements_at(text, member.value_start):
                    entry = json.loads(text[start:end])
                    name = entry.get("file") or entry.get("name")
                    found.append((f"{where}/{member.key}", name, text[start:end]))

    walk(0, "")
    return found


def _laid_out_by_hand(raw: bytes) -> None:
    assert raw.count(b"\n") == raw.count(b"\r\n"), "every line still ends in CRLF"
    assert raw.endswith(b"}\r\n")
    assert b'\r\n    "last_updated": ' in raw


def _curator(root: Path) -> Curator:
    curator = Curator(Store(root, lambda: TODAY))
    curator.load()
    return curator


def test_a_memory_toggled_critical_changes_only_its_own_entries(root: Path) -> None:
    index = root / ST / "index.json"
    before = index.read_bytes()
    curator = _curator(root)

    outcome = curator.apply(edits.toggle_critical(curator.get(BETA)))

    assert f"{ST}/index.json" in outcome.indexes
    after = index.read_bytes()
    _laid_out_by_hand(after)
    data = json.loads(after)
    assert [entry["file"] for entry in data["critical"]] == ["2026-06-13_beta.md"]
    assert "Beta naïve".encode() in after, "non-ASCII stays as the person wrote it"
    others_before = [e for e in _entries(before) if e[1] != "2026-06-13_beta.md"]
    others_after = [e for e in _entries(after) if e[1] != "2026-06-13_beta.md"]
    assert others_before and others_after == others_before
    # Outside the entries, only the date of the change differs.
    top_before, top_after = _members(before), _members(after)
    assert top_after.pop("last_updated") == '"2026-06-15"'
    top_before.pop("last_updated")
    assert {k: v for k, v in top_after.items() if k not in ("critical", "recent")} == {
        k: v for k, v in top_before.items() if k not in ("critical", "recent")
    }


def _members(raw: bytes) -> dict[str, str]:
    text = raw.decode("utf-8")
    return {m.key: text[m.value_start : m.value_end] for m in object_at(text, 0).members}


def test_the_current_tasks_index_keeps_its_layout_and_every_other_projects_bytes(
    root: Path,
) -> None:
    index = root / TASKS / "index.json"
    before = index.read_bytes()
    curator = _curator(root)

    # Critical is not in a project's entry: the index does not change at all.
    curator.apply(edits.toggle_critical(curator.get(f"{TASKS}/gateway/status.md")))
    assert index.read_bytes() == before

    gateway = curator.get(f"{TASKS}/gateway/status.md")
    outcome = curator.apply(
        edits.edit_fields(gateway.path, {"topics": ["api", "envoy"]}, (), gateway.digest)
    )
    assert f"{TASKS}/index.json" in outcome.indexes
    after = index.read_bytes()
    _laid_out_by_hand(after)
    (entry,) = [e for e in json.loads(after)["active"] if e["name"] == "gateway"]
    assert entry["topics"] == ["api", "envoy"]
    assert b'\r\n                "envoy"\r\n' in after, "the new item is indented as its neighbour"
    others_before = [e for e in _entries(before) if e[1] != "gateway"]
    assert others_before and [e for e in _entries(after) if e[1] != "gateway"] == others_before

    curator.undo()
    assert json.loads(index.read_bytes()) == json.loads(before)
    _laid_out_by_hand(index.read_bytes())


def test_index_finds_nothing_to_do_in_a_hand_laid_index_that_is_up_to_date(root: Path) -> None:
    before = {p: p.read_bytes() for p in root.rglob("index.json")}
    assert main(["index", "--check", str(root)]) == 0
    assert main(["index", str(root)]) == 0
    assert {p: p.read_bytes() for p in root.rglob("index.json")} == before

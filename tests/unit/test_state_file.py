"""The state file: where it lives, what it keeps, and how it survives damage and odd files."""

from __future__ import annotations

import json
import os
from pathlib import Path

from samantha_tui.core.basics.sorting import SortField, SortOrder
from samantha_tui.ui.state_file import (
    MAX_TREES,
    WRITTEN_MAX,
    AppState,
    load_state,
    save_state,
    state_path,
)


def test_the_path_follows_xdg_state_home_and_the_override(tmp_path: Path) -> None:
    assert state_path({"HOME": "/home/ann"}) == Path(
        "/home/ann/.local/state/samantha-tui/state.json"
    )
    assert state_path({"HOME": "/home/ann", "XDG_STATE_HOME": "/var/st"}) == Path(
        "/var/st/samantha-tui/state.json"
    )
    # A relative XDG value is ignored, as the spec says (the settings file's own rule).
    assert state_path({"HOME": "/home/ann", "XDG_STATE_HOME": "st"}) == Path(
        "/home/ann/.local/state/samantha-tui/state.json"
    )
    assert state_path({"SAMANTHA_TUI_STATE": str(tmp_path / "s.json")}) == tmp_path / "s.json"


def test_what_is_saved_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "state.json"
    state = AppState(
        last_tab="long-term",
        theme="nord",
        theme_setting=None,
        sorts={"long-term": SortOrder(SortField.TITLE, False)},
    )
    assert save_state(path, state) is None
    loaded = load_state(path)
    assert loaded.message is None and loaded.writable
    assert loaded.state == state
    assert not [p for p in path.parent.iterdir() if p.name != "state.json"]  # no temporary left


def test_a_missing_file_is_the_defaults_silently(tmp_path: Path) -> None:
    loaded = load_state(tmp_path / "none.json")
    assert loaded.state == AppState() and loaded.message is None and loaded.writable


def test_odd_values_are_dropped_with_one_message(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    data = {
        "last_tab": 3,
        "theme": "nord",
        "sort": {
            "short-term": {"field": "references", "descending": True},
            "long-term": {"field": "colour", "descending": True},
            "tasks": {"field": "date", "descending": "yes"},
        },
    }
    path.write_text(json.dumps(data), "utf-8")
    loaded = load_state(path)
    assert loaded.state.theme == "nord" and loaded.state.last_tab is None
    assert dict(loaded.state.sorts) == {"short-term": SortOrder(SortField.REFERENCES, True)}
    assert loaded.message is not None and loaded.message.count("\n") == 0
    assert "`last_tab`" in loaded.message and "`long-term`" in loaded.message
    assert "`tasks`" in loaded.message


def test_a_sort_field_that_is_not_text_is_dropped_not_raised(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    data = {"sort": {"all": {"field": ["title"], "descending": True}, "runbooks": {"field": {}}}}
    path.write_text(json.dumps(data), "utf-8")
    loaded = load_state(path)
    assert dict(loaded.state.sorts) == {}
    assert loaded.message is not None
    assert "`all`" in loaded.message and "`runbooks`" in loaded.message


def test_damaged_files_give_the_defaults_and_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    for raw, reason in (
        (b"{", "not valid JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[" * 5000, "not valid JSON"),
    ):
        path.write_bytes(raw)
        loaded = load_state(path)
        assert loaded.state == AppState() and reason in (loaded.message or ""), raw[:10]
        assert loaded.writable  # a damaged file of ours is replaced on the next change


def test_a_pipe_in_its_place_is_neither_read_nor_written(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    os.mkfifo(path)
    loaded = load_state(path)  # must not wait for a writer
    assert loaded.state == AppState() and not loaded.writable
    assert "named pipe" in (loaded.message or "")
    problem = save_state(path, AppState(last_tab="tasks"))
    assert problem is not None and "named pipe" in problem
    assert Path(path).is_fifo()


def test_a_link_in_its_place_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps({"last_tab": "tasks"}), "utf-8")
    path = tmp_path / "state.json"
    path.symlink_to(target)
    loaded = load_state(path)
    assert loaded.state == AppState() and not loaded.writable
    assert "symbolic link" in (loaded.message or "")
    assert save_state(path, AppState(last_tab="critical")) is not None
    assert path.is_symlink() and json.loads(target.read_text("utf-8")) == {"last_tab": "tasks"}


def test_a_folder_that_cannot_be_made_is_a_reason_not_an_exception(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", "utf-8")
    problem = save_state(blocker / "sub" / "state.json", AppState(last_tab="tasks"))
    assert problem is not None and "not saved" in problem


def test_each_tree_keeps_its_tab_and_the_newest_trees_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    state = AppState(last_tab="tasks")
    assert state.tab_of("/any") == "tasks", "an old file's one tab, while no tree has its own"
    state = state.with_tab("/a", "long-term").with_tab("/b", "critical")
    assert state.tab_of("/a") == "long-term" and state.tab_of("/c") is None
    assert state.last_tab is None
    assert save_state(path, state) is None
    loaded = load_state(path)
    assert loaded.state == state and loaded.message is None
    for number in range(MAX_TREES + 5):
        state = state.with_tab(f"/tree{number}", "tasks")
    assert len(state.last_tabs) == MAX_TREES and state.tab_of("/a") is None
    assert state.tab_of(f"/tree{MAX_TREES + 4}") == "tasks"


def test_long_tree_paths_never_make_the_file_too_big_to_read(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    state = AppState()
    for number in range(MAX_TREES):
        state = state.with_tab(f"/{number}/" + "é" * 4000, "tasks")
    assert save_state(path, state) is None
    assert path.stat().st_size <= WRITTEN_MAX
    loaded = load_state(path)
    assert loaded.message is None and loaded.state.tab_of(f"/{MAX_TREES - 1}/" + "é" * 4000)


def test_odd_tree_tabs_are_dropped_with_one_message(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    tabs = [{"tree": "/a", "tab": "tasks"}, {"tree": 3, "tab": "x"}, "odd", {"tree": "/b"}]
    path.write_text(json.dumps({"last_tabs": tabs}), "utf-8")
    loaded = load_state(path)
    assert dict(loaded.state.last_tabs) == {"/a": "tasks"}
    assert loaded.message is not None and loaded.message.count("`last_tabs`") == 1
    path.write_text(json.dumps({"last_tabs": {"/a": "tasks"}}), "utf-8")
    assert "`last_tabs`" in (load_state(path).message or "")

"""Finding the tree: a path, $SAMANTHA_CEREBRUM, the current folder, samantha-llm's config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samantha_tui.core.reading.locate import TreeNotFound, find_root, root_for_file

from ..conftest import ST, make_tree


@pytest.fixture
def cerebrum(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "cerebrum", {f"{ST}/n.md": "---\ndate: 2026-01-01\n---\n"})


def test_path_may_be_the_root_its_ai_folder_or_a_workspace(cerebrum: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / ".ai-cerebrum").symlink_to(cerebrum)
    for given in (cerebrum, cerebrum / ".ai", workspace):
        assert find_root(given, env={}) == cerebrum


def test_order_env_then_cwd_then_config(cerebrum: Path, tmp_path: Path) -> None:
    other = make_tree(tmp_path / "other", {})
    home = tmp_path / "home"
    config = home / ".config" / "samantha-llm" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"repo_path": str(other)}))
    env = {"HOME": str(home), "SAMANTHA_CEREBRUM": str(cerebrum)}
    assert find_root(env=env, cwd=tmp_path) == cerebrum
    assert find_root(env={"HOME": str(home)}, cwd=cerebrum) == cerebrum
    assert find_root(env={"HOME": str(home)}, cwd=tmp_path) == other


def test_nothing_found_names_every_place(tmp_path: Path) -> None:
    with pytest.raises(TreeNotFound) as caught:
        find_root(
            env={"HOME": str(tmp_path), "SAMANTHA_CEREBRUM": str(tmp_path / "nope")}, cwd=tmp_path
        )
    message = str(caught.value)
    assert "$SAMANTHA_CEREBRUM" in message and str(tmp_path / "nope") in message
    assert f"the current folder {tmp_path}" in message
    assert "config.json (no such file)" in message
    assert "samantha-tui demo" in message


def test_a_file_finds_its_own_tree(cerebrum: Path) -> None:
    assert root_for_file(cerebrum / ST / "n.md") == cerebrum
    with pytest.raises(TreeNotFound):
        root_for_file(cerebrum.parent / "loose.md")


def test_a_path_given_says_truly_why_it_is_not_a_tree(tmp_path: Path) -> None:
    (tmp_path / "file.md").write_text("x\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / ".ai-cerebrum").symlink_to(tmp_path / "gone")
    cases = {
        tmp_path / "nope": f"{tmp_path / 'nope'} does not exist",
        tmp_path / "file.md": f"{tmp_path / 'file.md'} is not a folder",
        tmp_path / "empty": f"{tmp_path / 'empty'} has no .ai/ folder and no .ai-cerebrum link",
        tmp_path / "workspace": f"has a .ai-cerebrum link to {tmp_path / 'gone'}, which does not",
    }
    for given, said in cases.items():
        with pytest.raises(TreeNotFound) as caught:
            find_root(given, env={})
        first = str(caught.value).splitlines()[0]
        assert said in first
        assert "no .ai/ folder" not in first or given.name == "empty"


def test_the_places_looked_in_say_what_is_wrong_with_each(tmp_path: Path) -> None:
    home = tmp_path / "home"
    config = home / ".config" / "samantha-llm" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"repo_path": str(tmp_path / "moved")}))
    env = {"HOME": str(home), "SAMANTHA_CEREBRUM": str(tmp_path / "typo")}
    with pytest.raises(TreeNotFound) as caught:
        find_root(env=env, cwd=tmp_path)
    message = str(caught.value)
    assert f"$SAMANTHA_CEREBRUM: {tmp_path / 'typo'} does not exist" in message
    assert f"config.json: {tmp_path / 'moved'} does not exist" in message


def test_every_command_says_a_missing_path_does_not_exist(
    cerebrum: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from samantha_tui.cli import main

    missing = tmp_path / "nope"
    for argv in (
        ["check", str(missing)],
        ["index", "--check", "--tree", str(missing)],
        [str(missing)],
    ):
        assert main(argv) == 2
        assert capsys.readouterr().err.startswith(f"samantha-tui: {missing} does not exist\n")
    assert main(["set", str(cerebrum / ST / "gone.md"), "critical=true"]) == 1
    assert f"{cerebrum / ST / 'gone.md'} does not exist" in capsys.readouterr().err


def test_samantha_llms_config_is_read_where_samantha_llm_reads_it() -> None:
    """samantha-llm reads `~/.config/samantha-llm/config.json` under the home folder and never
    looks at $XDG_CONFIG_HOME: a tree it names there is the tree it uses."""
    from samantha_tui.core.reading.locate import config_path

    expected = Path("/home/ann/.config/samantha-llm/config.json")
    assert config_path({"HOME": "/home/ann"}) == expected
    assert config_path({"HOME": "/home/ann", "XDG_CONFIG_HOME": "/etc/xdg"}) == expected
    assert config_path({"HOME": "/home/ann", "XDG_CONFIG_HOME": "cfg"}) == expected

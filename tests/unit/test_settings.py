"""The settings file: where it lives, what it sets, and a clear message for every fault."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from samantha_tui.settings import (
    CONFIG_ENV,
    Settings,
    known_settings,
    load_settings,
    settings_path,
)

EXAMPLE = """\
theme = "textual-dark"
[index]
auto_regenerate = false
[watch]
enabled = false
[keys]
"memory.toggle_critical" = "x"
"""


def load(tmp_path: Path, text: str | bytes) -> tuple[Settings, list[str]]:
    path = tmp_path / "config.toml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return load_settings({"SAMANTHA_TUI_CONFIG": str(path)})


def test_the_path_follows_xdg_and_the_override(tmp_path: Path) -> None:
    assert settings_path({"HOME": "/home/ann"}) == Path(
        "/home/ann/.config/samantha-tui/config.toml"
    )
    assert settings_path({"HOME": "/home/ann", "XDG_CONFIG_HOME": "/etc/xdg"}) == Path(
        "/etc/xdg/samantha-tui/config.toml"
    )
    # The XDG spec says a relative XDG_CONFIG_HOME is to be ignored.
    assert settings_path({"HOME": "/home/ann", "XDG_CONFIG_HOME": "cfg"}) == Path(
        "/home/ann/.config/samantha-tui/config.toml"
    )
    environ = {"XDG_CONFIG_HOME": "/etc/xdg", "SAMANTHA_TUI_CONFIG": str(tmp_path / "c.toml")}
    assert settings_path(environ) == tmp_path / "c.toml"


def test_a_missing_file_is_the_defaults_silently(tmp_path: Path) -> None:
    settings, messages = load_settings({"XDG_CONFIG_HOME": str(tmp_path)})
    assert messages == []
    assert settings == Settings(path=tmp_path / "samantha-tui" / "config.toml")
    assert (settings.theme, settings.auto_index, settings.watch, dict(settings.keys)) == (
        None,
        True,
        True,
        {},
    )


def test_every_setting_is_read(tmp_path: Path) -> None:
    settings, messages = load(tmp_path, EXAMPLE)
    assert messages == []
    assert settings.theme == "textual-dark"
    assert settings.auto_index is False and settings.watch is False
    assert dict(settings.keys) == {"memory.toggle_critical": "x"}
    assert settings.path == tmp_path / "config.toml"


def test_unquoted_dotted_binding_ids_are_the_same_ids(tmp_path: Path) -> None:
    text = '[keys]\nmemory.toggle_critical = "x"\nmemory.edit = "E"\n"index.regenerate" = "R"\n'
    settings, messages = load(tmp_path, text)
    assert messages == []
    assert dict(settings.keys) == {
        "index.regenerate": "R",
        "memory.edit": "E",
        "memory.toggle_critical": "x",
    }


def test_invalid_toml_names_the_line_and_gives_the_defaults(tmp_path: Path) -> None:
    settings, messages = load(tmp_path, 'theme = "nord"\n[index\n')
    assert settings == Settings(path=tmp_path / "config.toml")
    [message] = messages
    assert message.startswith(f"{tmp_path / 'config.toml'}: not valid TOML: ")
    assert "line 2" in message and message.endswith("; using the default settings")


def test_a_wrong_type_falls_back_for_that_setting_only(tmp_path: Path) -> None:
    text = 'theme = 3\n[index]\nauto_regenerate = "yes"\n[watch]\nenabled = false\n'
    settings, messages = load(tmp_path, text)
    path = tmp_path / "config.toml"
    assert messages == [
        f"{path}: `theme` should be a non-empty string, not the number 3; using the app's default",
        f'{path}: `index.auto_regenerate` should be true or false, not "yes"; '
        "using the default (true)",
    ]
    assert (settings.theme, settings.auto_index, settings.watch) == (None, True, False)


def test_tables_of_the_wrong_shape(tmp_path: Path) -> None:
    text = 'index = true\nwatch = [1]\ntheme = ""\n[keys]\n"memory.edit" = ""\n"a.b" = 1\n'
    settings, messages = load(tmp_path, text)
    path = tmp_path / "config.toml"
    assert messages == [
        f"{path}: `index` should be a table, not true; using its defaults",
        f"{path}: `watch` should be a table, not a list; using its defaults",
        f"{path}: `theme` should be a non-empty string, not an empty string; "
        "using the app's default",
        f"{path}: `keys.memory.edit` should be a non-empty string, not an empty string; "
        "using its usual key",
        f"{path}: `keys.a.b` should be a non-empty string, not the number 1; using its usual key",
    ]
    assert settings == Settings(path=path)


def test_unknown_keys_are_named_and_the_rest_still_applies(tmp_path: Path) -> None:
    text = 'colour = "red"\n[index]\nauto_regenerate = false\nevery = 5\n[mouse]\non = 1\n'
    settings, messages = load(tmp_path, text)
    assert [m.split(": ", 1)[1].split(" (")[0] for m in messages] == [
        "unknown setting `colour` is ignored",
        "unknown setting `index.every` is ignored",
        "unknown setting `mouse` is ignored",
    ]
    known = (
        "theme, index.auto_regenerate, watch.enabled, bootstrap.budget, meaning.enabled, "
        "keys.<binding id>"
    )
    assert f"(known: {known})" in messages[0]
    assert settings.auto_index is False


def test_unreadable_files_are_a_message(tmp_path: Path) -> None:
    settings, messages = load(tmp_path, b'theme = "\xff"\n')
    assert messages == [
        f"{tmp_path / 'config.toml'}: not UTF-8 text (save it as UTF-8); using the default settings"
    ]
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    settings, messages = load_settings({"SAMANTHA_TUI_CONFIG": str(folder)})
    assert messages == [f"{folder}: cannot read it (Is a directory); using the default settings"]
    assert settings == Settings(path=folder)


@given(st.text(alphabet=st.sampled_from("[]=\"'.\n tx1=ek.{}#"), max_size=40))
def test_nothing_in_the_file_ever_raises(text: str) -> None:
    # A fresh folder per example without a fixture: hypothesis reuses function-scoped ones.
    with tempfile.TemporaryDirectory() as folder:
        settings, messages = load(Path(folder), f"[keys]\n{text}")
    assert isinstance(settings, Settings) and all(isinstance(m, str) for m in messages)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("1979-05-27", "the date 1979-05-27"),
        ("07:32:00", "the date 07:32:00"),
        ("1.5", "the number 1.5"),
        ("{ a = 1 }", "a table"),
    ],
)
def test_values_are_described_as_written(tmp_path: Path, value: str, shown: str) -> None:
    _, [message] = load(tmp_path, f"theme = {value}\n")
    assert f"`theme` should be a non-empty string, not {shown}; " in message


def test_the_bootstrap_budget_is_a_whole_number_above_zero(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[bootstrap]\nbudget = 12000\n")
    settings, messages = load_settings({"SAMANTHA_TUI_CONFIG": str(path)})
    assert settings.bootstrap_budget == 12000 and messages == []
    for bad in ("0", "-5", "true", '"lots"', "1.5"):
        path.write_text(f"[bootstrap]\nbudget = {bad}\n")
        settings, messages = load_settings({"SAMANTHA_TUI_CONFIG": str(path)})
        assert settings.bootstrap_budget == 8000
        assert len(messages) == 1 and "bootstrap.budget" in messages[0], bad


def test_the_unknown_setting_message_names_every_setting_the_file_may_hold(tmp_path) -> None:
    _, [message] = load(tmp_path, 'colour = "red"\n')
    named = message.split("(known: ", 1)[1].removesuffix(")").split(", ")
    assert named == known_settings()
    assert named[-1] == "keys.<binding id>"
    for dotted in named[:-1]:
        table, _, key = dotted.rpartition(".")
        text = f"[{table}]\n{key} = 1\n" if table else f"{key} = 1\n"
        _, messages = load(tmp_path, text)
        assert not any("unknown setting" in m for m in messages), dotted
    read_from_the_file = {f.name for f in dataclasses.fields(Settings)} - {"keys", "path"}
    assert len(named[:-1]) == len(read_from_the_file)


def test_comparing_by_meaning_is_on_unless_the_file_turns_it_off(tmp_path) -> None:
    path = tmp_path / "config.toml"
    assert load_settings({CONFIG_ENV: str(path)})[0].meaning is True
    path.write_text("[meaning]\nenabled = false\n")
    assert load_settings({CONFIG_ENV: str(path)}) == (Settings(meaning=False, path=path), [])
    path.write_text('[meaning]\nenabled = "no"\n')
    settings, messages = load_settings({CONFIG_ENV: str(path)})
    assert settings.meaning is True
    assert messages == [
        f'{path}: `meaning.enabled` should be true or false, not "no"; using the default (true)'
    ]

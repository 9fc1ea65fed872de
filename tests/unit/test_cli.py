"""Headless commands: check, set/unset, trash, demo, and how the tree is found."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from samantha_tui.cli import main
from samantha_tui.core.basics.plans import Operation, Plan
from samantha_tui.core.writing import door
from samantha_tui.core.writing.store import Store
from samantha_tui.demo import write_demo

from ..conftest import ST, TODAY

TEXT = "---\ndate: 2026-01-28\ntopics: [a]\n---\n\n# Note\n"


def run(*args: str) -> int:
    return main(list(args))


def test_check_on_the_demo_lists_three_problems(demo_root: Path, capsys) -> None:
    assert run("check", str(demo_root)) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4  # and one warning: topics samantha-llm reads, YAML does not
    assert sum(": warning: " in line for line in out) == 1
    assert all(line.startswith(".ai/short-term-memory/.ai/") for line in out)
    assert all(line.split(":")[1].isdigit() for line in out)


def test_check_json_and_tree_option_before_or_after(demo_root: Path, capsys) -> None:
    assert run("--tree", str(demo_root), "check", "--json") == 1
    first = json.loads(capsys.readouterr().out)
    assert run("check", "--json", "--tree", str(demo_root)) == 1
    assert json.loads(capsys.readouterr().out) == first
    assert first["errors"] == 3 and first["memories"] >= 40
    assert {"path", "line", "message", "severity"} <= set(first["problems"][0])


def test_check_clean_tree_exits_zero(tree, capsys) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    assert run("check", str(store.root)) == 0
    assert capsys.readouterr().out == ""


def test_tree_not_found_exits_2_and_suggests_the_demo(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert run("check") == 2
    err = capsys.readouterr().err
    assert "Looked in" in err and "samantha-tui demo" in err


def test_set_and_unset_round_trip_byte_for_byte(tree, capsys) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    assert run("set", str(path), "reviewed=yes", "--keep-updated") == 0
    assert path.read_text() == TEXT.replace("---\n\n#", "reviewed: true\n---\n\n#")
    assert run("unset", str(path), "reviewed", "--keep-updated") == 0
    assert path.read_text() == TEXT


def test_set_parses_values_like_yaml(tree) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    args = ["topics=[x, y]", "critical=true", "reference_count=5", "date=2026-02-01", "project=gw"]
    assert run("set", str(path), *args) == 0
    assert path.read_text() == (
        "---\ndate: 2026-02-01\ntopics: [x, y]\ncritical: true\nreference_count: 5\n"
        f"project: gw\nupdated: {TODAY}\n---\n\n# Note\n"
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["importance=urgent"], "expected low, medium or high"),
        (["reference_count=-1"], "expected a whole number"),
        (["date=2026-02-30"], "expected a date"),
        (["oops"], "is not key=value"),
    ],
)
def test_bad_values_are_refused_and_the_file_untouched(tree, capsys, args, words) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    path = store.root / ST / "n.md"
    assert run("set", str(path), *args) == 1
    assert words in capsys.readouterr().err
    assert path.read_text() == TEXT


def test_unparseable_frontmatter_is_refused(tree, capsys) -> None:
    store = tree({f"{ST}/n.md": "---\n[a\n---\n"})
    path = store.root / ST / "n.md"
    assert run("set", str(path), "critical=true") == 1
    assert "invalid YAML" in capsys.readouterr().err
    assert path.read_text() == "---\n[a\n---\n"


def test_a_line_yaml_refuses_is_never_rewritten_and_the_rest_edits_exactly(tree, capsys) -> None:
    store = tree({f"{ST}/n.md": "---\ntopics: [a\n---\n"})
    path = store.root / ST / "n.md"
    assert run("set", str(path), "topics=[a, b]") == 1
    assert "line 2 is not YAML samantha-tui can rewrite safely" in capsys.readouterr().err
    assert path.read_text() == "---\ntopics: [a\n---\n"
    assert run("set", "--keep-updated", str(path), "critical=true") == 0
    assert path.read_text() == "---\ntopics: [a\ncritical: true\n---\n"


def test_trash_commands(tree, capsys) -> None:
    store = tree({f"{ST}/n.md": TEXT})
    entry = store.trash(f"{ST}/n.md")
    assert run("trash", "list", "--tree", str(store.root)) == 0
    assert f"{entry.id}" in capsys.readouterr().out
    assert run("--tree", str(store.root), "trash", "restore", entry.id) == 0
    assert (store.root / ST / "n.md").read_text() == TEXT
    assert run("trash", "restore", "nope", "--tree", str(store.root)) == 1
    assert "nothing in the trash" in capsys.readouterr().err


def test_trash_restore_puts_the_index_entry_back_too(tmp_path: Path, capsys) -> None:
    """Restored from the command line as from the trash screen: through the door, so the entry
    samantha-llm reads at start-up comes back with the file."""
    root = write_demo(tmp_path / "demo", TODAY)
    assert run("index", "--tree", str(root)) == 0  # the demo's indexes drift on purpose
    name = "2026-04-08_httpx_timeout_defaults.md"
    store = Store(root, lambda: TODAY)
    store.scan()
    door.apply(store, Plan("trash it", (Operation("trash", f"{ST}/{name}"),)))
    assert name not in (root / ST / "index.json").read_text()
    assert run("trash", "list", "--tree", str(root)) == 0
    entry_id = next(
        line.split()[0] for line in capsys.readouterr().out.splitlines() if name in line
    )
    assert run("--tree", str(root), "trash", "restore", entry_id) == 0
    assert (root / ST / name).is_file()
    assert name in (root / ST / "index.json").read_text()
    assert run("index", "--check", "--tree", str(root)) == 0, capsys.readouterr().out


def test_demo_command_writes_a_tree(tmp_path: Path, capsys) -> None:
    assert run("demo", str(tmp_path / "d")) == 0
    assert (tmp_path / "d" / ".ai" / "short-term-memory" / ".ai").is_dir()
    assert run("demo", str(tmp_path / "d")) == 1
    assert "not empty" in capsys.readouterr().err


def test_console_entry_points_run(tmp_path: Path) -> None:
    bin_dir = Path(sys.executable).parent
    script = bin_dir / "samantha-tui"
    for command in ([str(script)], [sys.executable, "-m", "samantha_tui"]):
        result = subprocess.run([*command, "--version"], capture_output=True, text=True, check=True)
        assert result.stdout.startswith("samantha-tui ")

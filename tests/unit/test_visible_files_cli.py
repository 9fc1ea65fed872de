"""Every file samantha-llm's search reads is visible to the core and the commands: a project's files
at any depth, hidden files and `.archive/`, named before anything moves or trashes them."""

from __future__ import annotations

import json
from pathlib import Path

from samantha_tui.cli import main
from samantha_tui.core.basics.model import Kind, Severity
from samantha_tui.core.reading.scan import scan, unlisted_markdown
from samantha_tui.core.views import lifecycle
from samantha_tui.core.writing import edits, impact
from samantha_tui.core.writing.door import apply
from samantha_tui.core.writing.store import Store
from samantha_tui.core.writing.trash import peek

from ..conftest import LT, ST, TASKS, TODAY, make_tree
from ..gateway_project import ALSO_GOES, GATEWAY, NOTE, STATUS

WORK = ".ai/work-experience/.ai"
GATEWAY_FILES = (
    f"{TASKS}/gateway/docs/api/v2.md",
    f"{TASKS}/gateway/docs/design.md",
    f"{TASKS}/gateway/notes.md",
)


def on_disk(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in (root / ".ai").rglob("*")
        if p.is_file() and ".trash" not in p.parts and ".journal" not in p.parts
    }


def test_a_projects_files_at_any_depth_are_its_companions(tree) -> None:
    store = tree(GATEWAY)
    memory = store.get(f"{TASKS}/gateway/status.md")
    assert memory.companions == GATEWAY_FILES
    # Top-level ones stay told apart by having no `/` after the project folder (index `files`).
    top = [c for c in memory.companions if "/" not in c.removeprefix(f"{TASKS}/gateway/")]
    assert top == [f"{TASKS}/gateway/notes.md"]
    # They are the project's, never memories of their own.
    assert [m.path for m in store.tree.memories] == [f"{TASKS}/gateway/status.md"]


def test_confirmations_name_every_file_that_goes(tree) -> None:
    store = tree(GATEWAY)
    memory = store.get(f"{TASKS}/gateway/status.md")
    assert impact.also_goes_lines(edits.delete([memory]), store.tree) == [ALSO_GOES]
    completing = lifecycle.complete(store.tree, TODAY).plan()
    assert ALSO_GOES in impact.describe(completing, store.tree)
    # A plain memory's trash takes nothing along, so it gets no such line.
    other = tree({**GATEWAY, f"{ST}/n.md": NOTE})
    assert impact.also_goes_lines(edits.delete([other.get(f"{ST}/n.md")]), other.tree) == []


def test_complete_moves_them_and_trash_and_restore_keep_them(tree) -> None:
    store = tree(GATEWAY)
    before = on_disk(store.root)
    apply(store, lifecycle.complete(store.tree, TODAY).plan())
    done = store.get(f"{WORK}/gateway/status.md")
    assert done.companions == tuple(p.replace(TASKS, WORK) for p in GATEWAY_FILES)
    assert [w.path for w in store.tree.unlisted] == [f"{WORK}/gateway/.scratch.md"]
    moved = on_disk(store.root)
    for rel, data in before.items():
        if not rel.endswith("status.md"):
            assert moved[rel.replace(TASKS, WORK)] == data

    entry = store.trash(done.path)
    assert not (store.root / WORK / "gateway").exists()
    assert store.get(done.path) is None and store.tree.unlisted == ()
    store.restore(entry.id)
    assert on_disk(store.root) == moved
    assert store.get(done.path).companions == done.companions
    assert [w.path for w in store.tree.unlisted] == [f"{WORK}/gateway/.scratch.md"]


def test_the_trash_preview_of_a_project_lists_its_nested_files(tree) -> None:
    store = tree(GATEWAY)
    entry = store.trash(f"{TASKS}/gateway/status.md")
    shown = peek(store.root, entry, TODAY).memory
    assert shown is not None and shown.companions == GATEWAY_FILES


def test_hidden_and_archived_markdown_are_warnings_with_their_path(tree) -> None:
    store = tree(
        {
            f"{ST}/n.md": NOTE,
            f"{ST}/.draft.md": NOTE,
            f"{ST}/.archive/2025-01-01_old.md": NOTE,
            f"{LT}/topic/.hidden/deep.md": NOTE,
            f"{ST}/.archive/index.md": "# skipped by the search too\n",
            f"{ST}/.notes.txt": "not Markdown: the search does not read it\n",
            f"{TASKS}/pending-updates/readme.md": "# stray\n",
            # samantha-tui's own folders and the staging area: the search never looks there.
            ".ai/.trash/x/.ai/short-term-memory/.ai/gone.md": NOTE,
            ".ai/.journal/step.md": NOTE,
            ".ai/subconscious/.ai/sessions/20260101_000000/memories/m.md": NOTE,
        }
    )
    tree_ = store.tree
    found = {w.path: w.message for w in tree_.unlisted}
    assert found == {
        f"{LT}/topic/.hidden/deep.md": (
            "in a hidden folder (topic/.hidden/): samantha-llm's search reads it, "
            "samantha-tui lists no hidden files"
        ),
        f"{ST}/.archive/2025-01-01_old.md": (
            "in a hidden folder (.archive/): samantha-llm's search reads it, "
            "samantha-tui lists no hidden files"
        ),
        f"{ST}/.draft.md": (
            "hidden file: samantha-llm's search reads it, samantha-tui lists no hidden files"
        ),
        f"{TASKS}/pending-updates/readme.md": (
            "Markdown in pending-updates/: samantha-llm's search reads it, "
            "samantha-tui reads only the .json updates there"
        ),
    }
    assert all(w.severity is Severity.WARNING for w in tree_.unlisted)
    assert set(found) <= {p.path for p in tree_.all_problems}
    # Never memories: no rule, index or count sees them.
    assert [m.path for m in tree_.memories] == [f"{ST}/n.md"]


def test_the_warnings_match_what_samantha_llms_search_reads(tmp_path: Path) -> None:
    """Every `.md` its search globs (rglob, index.md skipped) is a memory, a project file or a
    warning: none is invisible."""
    root = make_tree(tmp_path / "t", {**GATEWAY, f"{ST}/.a.md": NOTE, f"{LT}/.x/y/z.md": NOTE})
    result = scan(root, TODAY)
    shown = {m.path for m in result.memories} | {w.path for w in result.unlisted}
    shown |= {c for m in result.memories for c in m.companions}
    read_by_search = {
        p.relative_to(root).as_posix()
        for folder in (root / ".ai").glob("*/.ai")
        for p in folder.rglob("*.md")
        if p.name != "index.md" and "subconscious" not in p.parts
    }
    assert read_by_search and read_by_search <= shown


def test_a_link_to_a_folder_is_not_followed_for_warnings(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / ".h").mkdir(parents=True)
    (elsewhere / ".h" / "x.md").write_text(NOTE)
    root = make_tree(tmp_path / "t", {})
    (root / ST / "linked").symlink_to(elsewhere, target_is_directory=True)
    assert unlisted_markdown(root, Kind.SHORT_TERM) == []


def test_trashing_a_folder_with_hidden_files_names_them(tree) -> None:
    store = tree(
        {
            f"{TASKS}/old/status.md": STATUS,
            f"{TASKS}/old/.archive/2025_notes.md": "old\n",
        }
    )
    memory = store.get(f"{TASKS}/old/status.md")
    assert memory.companions == ()
    assert impact.goes_with([memory.path], store.tree) == ["old/.archive/2025_notes.md (hidden)"]


def test_check_prints_them_as_warnings_and_still_exits_0(tmp_path: Path, capsys) -> None:
    root = make_tree(tmp_path / "t", {f"{ST}/n.md": NOTE, f"{ST}/.archive/2025-01-01_old.md": NOTE})
    assert main(["check", str(root)]) == 0
    captured = capsys.readouterr()
    assert (
        f"{ST}/.archive/2025-01-01_old.md: warning: in a hidden folder (.archive/): "
        "samantha-llm's search reads it, samantha-tui lists no hidden files"
    ) in captured.out.splitlines()
    assert "1 memories, 0 problems, 1 warnings" in captured.err
    assert main(["check", str(root), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert {
        "path": f"{ST}/.archive/2025-01-01_old.md",
        "line": None,
        "message": (
            "in a hidden folder (.archive/): samantha-llm's search reads it, "
            "samantha-tui lists no hidden files"
        ),
        "severity": "warning",
    } in payload["problems"]


def test_the_complete_command_names_what_goes_before_yes(tmp_path: Path, capsys) -> None:
    root = make_tree(tmp_path / "t", GATEWAY)
    assert main(["complete", str(root)]) == 0
    assert f"    {ALSO_GOES}" in capsys.readouterr().out.splitlines()


def test_a_new_hidden_file_shows_once_its_project_is_read_again(tree) -> None:
    store = tree({f"{TASKS}/p/status.md": STATUS})
    assert store.tree.unlisted == ()
    (store.root / TASKS / "p" / ".later.md").write_text("x\n")
    (store.root / TASKS / "p" / "sub").mkdir()
    (store.root / TASKS / "p" / "sub" / "later.md").write_text("x\n")
    absorbed = store.absorb([f"{TASKS}/p/sub/later.md"])
    assert absorbed.changed == (f"{TASKS}/p/status.md",)
    assert store.get(f"{TASKS}/p/status.md").companions == (f"{TASKS}/p/sub/later.md",)
    assert [w.path for w in store.tree.unlisted] == [f"{TASKS}/p/.later.md"]


def test_a_store_with_no_hidden_files_has_no_unlisted(tmp_path: Path) -> None:
    store = Store(make_tree(tmp_path / "t", {f"{ST}/n.md": NOTE}), lambda: TODAY)
    store.scan()
    store.trash(f"{ST}/n.md")
    assert store.tree.unlisted == () and store.tree.all_problems == []

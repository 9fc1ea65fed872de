"""`samantha-tui search` finds text in every Markdown file samantha-llm's own search reads
(`local_search_memories`: each `*.md` under the five kind folders but `index.md`), also those
samantha-tui lists as no memory: a project's other files, hidden files, hidden folders and
Markdown in pending-updates/. Such hits come after the memories', each saying what it is."""

from __future__ import annotations

import json
import os
from pathlib import Path

from samantha_tui.cli import main
from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.other_files import other_paths, search_other_files, what_it_is

from ..conftest import LT, ST, TASKS, TODAY, make_tree

WE = ".ai/work-experience/.ai"
STATUS = "---\ndate: 2026-06-01\ntopics: [gw]\nstatus: active\n---\n\n# Gateway\n\nRoutes.\n"
NOTE = "---\ndate: 2026-06-01\ntopics: [a]\n---\n\n# A note\n\nNothing of interest.\n"

FILES = {
    f"{TASKS}/gateway/status.md": STATUS,
    f"{TASKS}/gateway/notes.md": "# Notes\n\nThe zanzibar cutover waits for the DNS change.\n",
    f"{TASKS}/gateway/docs/design.md": "# Design\n\nA quokka proxy sits in front.\n",
    f"{TASKS}/gateway/docs/index.md": "# Index\n\nquokka listed again, but never searched.\n",
    f"{TASKS}/gateway/diagram.png": "quokka in a picture, not Markdown",
    f"{WE}/old/status.md": STATUS.replace("active", "completed"),
    f"{WE}/old/decisions.md": "# Decisions\n\nThe wombat queue was dropped.\n",
    f"{ST}/n.md": NOTE,
    f"{ST}/.draft.md": "# Draft\n\nA capybara idea not yet written up.\n",
    f"{LT}/.archive/2025-01-01_old.md": "---\ndate: 2025-01-01\ntopics: [x]\n---\n\n# Old\n\n"
    "The axolotl rule, retired.\n",
    f"{TASKS}/pending-updates/README.md": "How narwhal updates are reviewed.\n",
}


def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "cerebrum", FILES)


def test_the_files_read_are_those_samantha_llms_search_reads(tmp_path: Path) -> None:
    root = tree(tmp_path)
    assert sorted(rel for _kind, rel in other_paths(root)) == sorted(
        [
            f"{TASKS}/gateway/notes.md",
            f"{TASKS}/gateway/docs/design.md",
            f"{WE}/old/decisions.md",
            f"{ST}/.draft.md",
            f"{LT}/.archive/2025-01-01_old.md",
            f"{TASKS}/pending-updates/README.md",
        ]
    )


def test_each_kind_of_file_is_found_by_its_text_and_says_what_it_is(tmp_path: Path, capsys) -> None:
    root = tree(tmp_path)
    expected = {
        "zanzibar": (f"{TASKS}/gateway/notes.md", "a file of project gateway"),
        "quokka": (f"{TASKS}/gateway/docs/design.md", "a file of project gateway"),
        "wombat": (f"{WE}/old/decisions.md", "a file of project old"),
        "capybara": (f"{ST}/.draft.md", "a hidden file"),
        "axolotl": (f"{LT}/.archive/2025-01-01_old.md", "in the hidden folder .archive/"),
        "narwhal": (f"{TASKS}/pending-updates/README.md", "Markdown in pending-updates/"),
    }
    for word, (path, what) in expected.items():
        assert main(["search", "--tree", str(root), word]) == 0
        out = capsys.readouterr().out.splitlines()
        assert "0 of 0" in out, "no memory holds the word"
        lines = [line for line in out if path in line]
        assert len(lines) == 1, out
        assert f"not a memory: {what}" in lines[0]
        assert out[-1] == "1 of 1 in files that are not memories"


def test_memories_come_first_and_the_other_files_only_after(tmp_path: Path, capsys) -> None:
    files = dict(FILES)
    files[f"{ST}/n.md"] = NOTE.replace("Nothing of interest", "The quokka proxy")
    root = make_tree(tmp_path / "cerebrum", files)
    assert main(["search", "--tree", str(root), "quokka"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"({ST}/n.md)" in out[0]
    assert out[1] == "1 of 1"
    assert "samantha-llm's search reads" in out[2]
    assert f"{TASKS}/gateway/docs/design.md" in out[3]
    assert "docs/index.md" not in "\n".join(out), "samantha-llm skips index.md at any depth"


def test_json_lists_them_apart_from_the_hits(tmp_path: Path, capsys) -> None:
    root = tree(tmp_path)
    assert main(["search", "--tree", str(root), "--json", "zanzibar"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["hits"] == [] and payload["total"] == 0
    assert payload["other_files_total"] == 1
    [hit] = payload["other_files"]
    assert hit["path"] == f"{TASKS}/gateway/notes.md"
    assert hit["kind"] == Kind.CURRENT_TASKS.slug
    assert hit["what"] == "not a memory: a file of project gateway"
    assert hit["title"] == "Notes"


def test_a_link_out_of_the_tree_is_not_read(tmp_path: Path, capsys) -> None:
    root = tree(tmp_path)
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nThe pangolin password.\n")
    os.symlink(secret, root / TASKS / "gateway" / "linked.md")
    assert main(["search", "--tree", str(root), "pangolin"]) == 0
    out = capsys.readouterr().out
    assert "pangolin" not in out.casefold() and "linked.md" not in out


def test_words_filters_and_negation_work_as_for_memories(tmp_path: Path) -> None:
    root = tree(tmp_path)
    found = search_other_files(root, TODAY, "kind:long axolotl")
    assert [hit.path for hit in found.result.hits] == [f"{LT}/.archive/2025-01-01_old.md"]
    assert search_other_files(root, TODAY, "kind:short axolotl").result.hits == ()
    assert search_other_files(root, TODAY, "quokka -proxy").result.total == 0


def test_what_it_is_names_the_nearest_reason() -> None:
    assert what_it_is(Kind.CURRENT_TASKS, f"{TASKS}/.old/notes.md").endswith(".old/")
    assert what_it_is(Kind.SHORT_TERM, f"{ST}/x.md") == "not a memory"


def test_the_walk_agrees_with_what_the_scan_lists_and_reports(tmp_path: Path, demo_root) -> None:
    """Every file found is a project's companion or one `check` reports as unlisted; each of
    those is found (index.md aside, which samantha-llm's search skips by name)."""
    from samantha_tui.core.reading.scan import memory_paths, unlisted_markdown

    extra = {
        f"{TASKS}/pending-updates/status.md": "# Not a project\n",
        f"{TASKS}/.hidden-project/status.md": "# Hidden project\n",
        f"{TASKS}/gateway/.scratch.md": "# Scratch\n",
        f"{ST}/topic/.hidden/deep/x.md": "# Deep\n",
        f"{ST}/topic/y.md": NOTE,
    }
    for root in (make_tree(tmp_path / "extra", {**FILES, **extra}), demo_root):
        expected: set[str] = set()
        for kind in Kind:
            if kind.is_project_kind:
                for _status, companions in memory_paths(root, kind):
                    expected.update(c for c in companions if c.endswith(".md"))
            expected.update(p.path for p in unlisted_markdown(root, kind))
        expected = {p for p in expected if not p.endswith("/index.md")}
        assert {rel for _kind, rel in other_paths(root)} == expected

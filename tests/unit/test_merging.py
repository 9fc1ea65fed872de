"""The merge plan and the plan that lets one of a conflicting pair stand: applied through the
curator (the app's door and undo) on a real tree, checked byte by byte."""

from __future__ import annotations

import dataclasses
import difflib
import json
from pathlib import Path

import pytest

from samantha_tui.core.basics.model import Kind, Memory
from samantha_tui.core.views import merging
from samantha_tui.core.writing import trash
from samantha_tui.core.writing.curator import Curator
from tests.conftest import ST, TODAY
from tests.curating import index_clean, ready

KEEP = f"{ST}/2026-06-01_retry_policy.md"
DROP = f"{ST}/2026-06-03_retry_policy_again.md"

KEEP_TEXT = (
    "---\n"
    "date: 2026-06-01\n"
    "# how we retry, kept by hand\n"
    "topics: [ci, retries]\n"
    "importance: medium\n"
    "reference_count: 4\n"
    "owner: 'platform team'\n"
    "---\n\n# Retry policy\n\nRetry three times with backoff.\n"
)
DROP_TEXT = (
    "---\n"
    "date: 2026-06-03\n"
    "topics: [retries, backoff, ci]\n"
    "importance: high\n"
    "reference_count: 2\n"
    "critical: true\n"
    "project: gateway\n"
    "---\n\n# Retry policy again\n\nRetry thrice, backing off.\n"
)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the tree but the trash's and the journal's."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
        and not path.relative_to(root).as_posix().startswith((".ai/.trash",))
        and ".journal" not in path.as_posix()
    }


def changed_lines(before: bytes, after: bytes) -> tuple[list[str], list[str]]:
    """(lines removed, lines added) between two texts."""
    diff = list(difflib.ndiff(before.decode().splitlines(), after.decode().splitlines()))
    return [d[2:] for d in diff if d.startswith("- ")], [d[2:] for d in diff if d.startswith("+ ")]


@pytest.fixture
def curator(tree) -> Curator:
    return ready(tree({KEEP: KEEP_TEXT, DROP: DROP_TEXT}))


def memory(curator: Curator, path: str) -> Memory:
    found = curator.get(path)
    assert found is not None
    return found


def short_index(curator: Curator) -> dict:
    return json.loads((curator.store.root / ST / "index.json").read_text())


def entries(index: dict) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for section in ("critical", "high_priority"):
        found.update({e["file"]: e for e in index[section]})
    for section in index["recent"].values():
        found.update({e["file"]: e for e in section})
    return found


def test_which_to_keep_prefers_critical_then_references_then_the_original() -> None:
    def made(path: str, **fields: object) -> Memory:
        record = Memory(kind=Kind.SHORT_TERM, path=f"{ST}/{path}", title=path)
        return dataclasses.replace(record, **fields)  # type: ignore[arg-type]

    critical, referenced = made("a.md", critical=True), made("b.md", reference_count=9)
    assert merging.which_to_keep(referenced, critical) == (critical, referenced)
    assert merging.which_to_keep(made("c.md"), referenced) == (referenced, made("c.md"))
    copy, original = made("x_20260601_120000.md"), made("x.md")
    assert merging.which_to_keep(copy, original) == (original, copy)
    tie_a, tie_b = made("p.md"), made("q.md")
    assert merging.which_to_keep(tie_a, tie_b) == (tie_a, tie_b)


def test_the_plan_sets_only_what_the_merge_changes_and_checks_both_files(
    curator: Curator,
) -> None:
    keep, drop = memory(curator, KEEP), memory(curator, DROP)
    plan = merging.merge_plan(keep, drop)
    assert plan.rule == merging.MERGE
    edit, trashed = plan.operations
    assert (edit.action, edit.path) == ("edit", KEEP)
    assert dict(edit.values) == {
        "topics": ["ci", "retries", "backoff"],
        "reference_count": 6,
        "importance": "high",
        "critical": True,
        "project": "gateway",
    }
    assert edit.seen == edit.expected == keep.digest
    assert (trashed.action, trashed.path, trashed.seen) == ("trash", DROP, drop.digest)
    # Merged the other way, nothing of keep's is lower: no importance, critical or project.
    back = dict(merging.merge_plan(drop, keep).operations[0].values)
    assert back == {"reference_count": 6}


def test_a_merge_edits_only_the_changed_lines_trashes_the_other_and_undo_restores_every_byte(
    curator: Curator,
) -> None:
    root = curator.store.root
    before = snapshot(root)
    keep, drop = memory(curator, KEEP), memory(curator, DROP)
    outcome = curator.apply(merging.merge_plan(keep, drop))

    removed, added = changed_lines(before[KEEP], (root / KEEP).read_bytes())
    assert removed == ["topics: [ci, retries]", "importance: medium", "reference_count: 4"]
    assert sorted(added) == sorted(
        [
            "topics: [ci, retries, backoff]",
            "importance: high",
            "reference_count: 6",
            "critical: true",
            "project: gateway",
            f"updated: {TODAY.isoformat()}",
        ]
    )
    # The comment, the quoted user key and the body keep every byte.
    kept = (root / KEEP).read_text()
    assert "# how we retry, kept by hand\n" in kept and "owner: 'platform team'\n" in kept
    assert kept.endswith("---\n\n# Retry policy\n\nRetry three times with backoff.\n")

    assert not (root / DROP).exists()
    (entry,) = trash.entries(root)
    assert entry.path == DROP
    assert entry.item(root).read_bytes() == before[DROP]

    assert f"{ST}/index.json" in outcome.indexes
    listed = entries(short_index(curator))
    assert "2026-06-03_retry_policy_again.md" not in listed
    merged = listed["2026-06-01_retry_policy.md"]
    assert merged["topics"] == ["ci", "retries", "backoff"] and merged["references"] == 6
    assert merged in short_index(curator)["critical"]
    assert index_clean(curator)

    curator.undo()
    assert snapshot(root) == before
    assert index_clean(curator)


def test_a_kept_file_changed_since_the_plan_leaves_both_alone(curator: Curator) -> None:
    root = curator.store.root
    plan = merging.merge_plan(memory(curator, KEEP), memory(curator, DROP))
    (root / KEEP).write_text(KEEP_TEXT.replace("three times", "five times"))
    before = snapshot(root)
    outcome = curator.apply(plan)
    assert {s.path for s in outcome.skipped} == {KEEP, DROP}
    assert snapshot(root) == before
    assert trash.entries(root) == []


def test_a_dropped_file_changed_since_the_plan_stays_where_it_is(curator: Curator) -> None:
    root = curator.store.root
    plan = merging.merge_plan(memory(curator, KEEP), memory(curator, DROP))
    changed = DROP_TEXT.replace("thrice", "four times")
    (root / DROP).write_text(changed)
    outcome = curator.apply(plan)
    assert [s.path for s in outcome.skipped] == [DROP]
    assert (root / DROP).read_text() == changed
    assert trash.entries(root) == []


def test_a_memory_is_never_merged_into_itself(curator: Curator) -> None:
    keep = memory(curator, KEEP)
    with pytest.raises(ValueError, match="into itself"):
        merging.merge_plan(keep, keep)
    with pytest.raises(ValueError, match="conflict with itself"):
        merging.stands_plan(keep, keep)


def test_the_one_that_stands_stays_and_the_other_goes_to_the_trash_until_undone(
    curator: Curator,
) -> None:
    root = curator.store.root
    before = snapshot(root)
    plan = merging.stands_plan(memory(curator, DROP), memory(curator, KEEP))
    assert plan.rule == merging.RESOLVE_CONFLICT
    (op,) = plan.operations
    assert (op.action, op.path, op.seen) == ("trash", KEEP, memory(curator, KEEP).digest)
    curator.apply(plan)
    assert not (root / KEEP).exists() and (root / DROP).read_bytes() == before[DROP]
    assert [entry.path for entry in trash.entries(root)] == [KEEP]
    assert "2026-06-01_retry_policy.md" not in entries(short_index(curator))
    assert index_clean(curator)
    curator.undo()
    assert snapshot(root) == before


def test_the_other_changed_since_the_pick_is_never_trashed(curator: Curator) -> None:
    root = curator.store.root
    plan = merging.stands_plan(memory(curator, DROP), memory(curator, KEEP))
    (root / KEEP).write_text(KEEP_TEXT + "\nA new line.\n")
    outcome = curator.apply(plan)
    assert [s.path for s in outcome.skipped] == [KEEP]
    assert (root / KEEP).exists() and trash.entries(root) == []

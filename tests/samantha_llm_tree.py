"""A tree as samantha-llm's own code leaves it (verified against it): a current-tasks project with
no folder, one whose `name` differs from its folder, trigger signals its merge put into the
procedural index only, a section the assistant appended to index.md, and frontmatter strict YAML
refuses; and the check that what samantha-llm keeps only in its indexes is all still there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from samantha_tui.cli import main

from .conftest import ST, TASKS, make_tree

PROC = ".ai/procedural-memory/.ai"
GATEWAY = f"{TASKS}/gateway/status.md"
RUNBOOK = f"{PROC}/db-infra.md"
MEMO = f"{ST}/2026-06-10_cache_rule.md"
WIP = f"{ST}/2026-06-12_wip_csv_encoding.md"
APPENDED = "\n## Notes from the assistant\n\n- Ask Dana before touching billing.\n"

# The current-tasks index as samantha-llm keeps it: an entry named unlike its folder, and a
# project that lives in the index alone (its readers go by `name`).
TASKS_INDEX = {
    "last_updated": "2026-06-14",
    "active_count": 2,
    "active": [
        {
            "name": "Gateway Refactor",
            "status": "Phase 2 - routing done",
            "started": "2026-03-30",
            "summary": "Envoy in front of every service.",
            "files": ["gateway/status.md"],
            "topics": ["api"],
            "recent_progress": "Route table v2 live for quotes-svc.",
        },
        {
            "name": "infra-notes",
            "status": "Ongoing",
            "summary": "Notes kept by the assistant.",
            "files": [],
            "topics": ["infra"],
        },
    ],
    "blocked": [],
    "recently_completed": [],
}
# A runbook entry holding a path signal and a negative signal that only the index has: the merge
# of samantha-llm adds them there, and the assistant loads the runbook from them.
PROC_INDEX = {
    "last_updated": "2026-06-14",
    "total_runbooks": 1,
    "runbooks": [
        {
            "file": "db-infra.md",
            "domain": "db-infra",
            "summary": "How to change the database layer.",
            "triggers": {
                "positive": {
                    "repo_signals": ["db-infra"],
                    "path_signals": ["migrations/", "src/db/"],
                },
                "negative": [{"signal": "docs/", "reason": "docs only", "added": "2026-06-01"}],
            },
            "confidence": "medium",
            "corrections_count": 0,
        }
    ],
    "loading_strategy": {"minimum_positive_categories": 2, "negative_signals_are_veto": True},
}


def _status(status: str = "active") -> str:
    return (
        f"---\ndate: 2026-03-30\ntopics: [api]\nstatus: {status}\n---\n\n# Gateway\n\n"
        "Envoy in front of every service.\n"
    )


RUNBOOK_TEXT = (
    "---\ndate: 2026-05-01\ntopics: [db]\ntype: runbook\ndomain: db-infra\nconfidence: medium\n"
    "triggers:\n  positive:\n    repo_signals: [db-infra]\n    path_signals: [migrations/]\n"
    "  negative: []\n---\n\n# DB infra\n\nHow to change the database layer.\n"
)


def _dump(data: Any) -> str:
    # As samantha-llm writes its indexes: json.dump(indent=2), no final newline.
    return json.dumps(data, indent=2)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    files = {
        GATEWAY: _status(),
        RUNBOOK: RUNBOOK_TEXT,
        MEMO: "---\ndate: 2026-06-10\ntopics: [cache]\nimportance: medium\n---\n\n"
        "# Cache rule\n\nCache keys hash the lock file.\n",
        # samantha-llm's generator wrote this: strict YAML refuses the topics line.
        WIP: "---\ndate: 2026-06-12\ntopics: [[wip]_csv_encoding, billing]\nimportance: high\n"
        "type: decision\n---\n\n# [WIP] CSV encoding\n\nExports write UTF-8 with a BOM.\n",
        f"{TASKS}/index.json": _dump(TASKS_INDEX),
        f"{PROC}/index.json": _dump(PROC_INDEX),
    }
    root = make_tree(tmp_path / "cerebrum", files)
    # A first `index` writes what the files give; then the assistant appends to index.md.
    assert main(["index", str(root)]) == 0
    for folder in (ST, TASKS, PROC):
        md = root / folder / "index.md"
        md.write_bytes(md.read_bytes() + APPENDED.encode())
    return root


def _json(root: Path, folder: str) -> dict[str, Any]:
    return json.loads((root / folder / "index.json").read_bytes())


def _project(root: Path, name: str) -> dict[str, Any] | None:
    data = _json(root, TASKS)
    for section in ("active", "blocked", "recently_completed"):
        for entry in data.get(section, []):
            if entry.get("name") == name:
                return entry
    return None


def _held_by_samantha_llm(root: Path) -> None:
    """What samantha-llm keeps only in its indexes is all still there."""
    assert _project(root, "infra-notes") == TASKS_INDEX["active"][1]
    gateway = _project(root, "Gateway Refactor")
    assert gateway is not None and gateway["recent_progress"].startswith("Route table v2")
    (runbook,) = _json(root, PROC)["runbooks"]
    assert "src/db/" in runbook["triggers"]["positive"]["path_signals"]
    assert runbook["triggers"]["negative"][0]["signal"] == "docs/"
    for folder in (ST, TASKS, PROC):
        assert APPENDED in (root / folder / "index.md").read_text()

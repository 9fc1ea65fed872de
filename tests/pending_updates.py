"""A current-tasks index.json as samantha-llm writes it, pending project updates proposing changes
to it, and a store over a tree holding both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from samantha_tui.core.writing.store import Store

from .conftest import TASKS, TODAY, make_tree

INDEX = f"{TASKS}/index.json"
PENDING = f"{TASKS}/pending-updates"
STATUS_MD = "---\ndate: 2026-05-01\ntopics: [api]\nstatus: active\n---\n\n# Gateway\n\nWork.\n"


def index_data() -> dict[str, Any]:
    return {
        "last_updated": "2026-06-01",
        "active_count": 2,
        "active": [
            {
                "name": "gateway",
                "status": "Phase 2 - routing done",
                "started": "2026-05-01",
                "summary": "Route table v2 for the café ✓ team",
                "files": ["gateway/status.md"],
                "topics": ["api", "routing"],
                "recent_progress": "Routes for tracking-svc",
            },
            {
                "name": "Billing Export",
                "status": "Waiting for finance",
                "summary": "Only in the index: no folder",
                "note": None,
            },
        ],
        "blocked": [{"name": "blocked-one", "status": "blocked"}],
        "recently_completed": [{"name": "done-one", "status": "completed ✅"}],
    }


def samantha_llm_index(data: dict[str, Any]) -> str:
    """The file as samantha-llm writes it: json.dump(indent=2), non-ASCII escaped, no newline."""
    return json.dumps(data, indent=2)


def update(project: str, changes: dict[str, Any], confidence: Any = "medium") -> str:
    return json.dumps(
        {
            "session_id": "20260614_165930",
            "session_date": "2026-06-14",
            "project_name": project,
            "confidence": confidence,
            "proposed_changes": changes,
            "reasoning": "Detected 3 pieces of evidence.",
            "evidence": ["Tests passed in terminal"],
        },
        indent=2,
    )


def store_with(tmp_path: Path, index_text: str, updates: dict[str, str]) -> Store:
    files = {INDEX: index_text, f"{TASKS}/gateway/status.md": STATUS_MD}
    files |= {f"{PENDING}/{name}": text for name, text in updates.items()}
    store = Store(make_tree(tmp_path / "cerebrum", files), lambda: TODAY)
    store.scan()
    return store

"""index.json files as the assistant reads them, laid out for a tree: any kind's, and current
tasks' with its active and blocked projects."""

from __future__ import annotations

import json

from .conftest import TASKS


def index(kind_folder: str, data: object) -> dict[str, str]:
    return {f"{kind_folder}/index.json": json.dumps(data)}


def tasks_index(*active: dict[str, object], blocked=()) -> dict[str, str]:
    return index(TASKS, {"active": list(active), "blocked": list(blocked)})

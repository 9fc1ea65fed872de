"""A finished project, gateway, holding files at every depth and a hidden one beside its status, a
note, and the line a confirmation names those files with before they go."""

from __future__ import annotations

from .conftest import TASKS

STATUS = "---\ndate: 2026-05-01\ntopics: [gateway]\nstatus: completed\n---\n\n# Gateway\n"
NOTE = "---\ndate: 2026-05-01\ntopics: [a]\nimportance: low\n---\n\n# Note\n\nBody.\n"
GATEWAY = {
    f"{TASKS}/gateway/status.md": STATUS,
    f"{TASKS}/gateway/notes.md": "notes\n",
    f"{TASKS}/gateway/docs/design.md": "# Design\n",
    f"{TASKS}/gateway/docs/api/v2.md": "# v2\n",
    f"{TASKS}/gateway/.scratch.md": "scratch\n",
}
ALSO_GOES = (
    "Also goes: gateway/.scratch.md (hidden), gateway/docs/api/v2.md, gateway/docs/design.md, "
    "gateway/notes.md."
)

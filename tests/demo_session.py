"""The bundled demo's session that is complete and not merged yet: its id names its folder, the
pending update it left, and the copies its merge makes."""

from __future__ import annotations

SID = "20260614_165930"

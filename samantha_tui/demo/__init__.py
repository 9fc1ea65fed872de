"""The bundled demo tree, copied with its dates moved so that "today" keeps its meaning."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from importlib import resources
from pathlib import Path

ANCHOR = dt.date(2026, 6, 15)
"""The day the demo's notes were written as if it were today."""

_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_STAMP = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})(_\d{6})(?!\d)")
_TEXT_SUFFIXES = (".md", ".json")


def _shifted(year: str, month: str, day: str, delta: dt.timedelta) -> dt.date | None:
    try:
        return dt.date(int(year), int(month), int(day)) + delta
    except ValueError:
        return None  # not a real date (a version number, say): leave it


def shift_dates(text: str, delta: dt.timedelta) -> str:
    """Move every YYYY-MM-DD and YYYYMMDD_HHMMSS in text by delta."""

    def iso(match: re.Match[str]) -> str:
        moved = _shifted(match[1], match[2], match[3], delta)
        return moved.isoformat() if moved else match.group(0)

    def stamp(match: re.Match[str]) -> str:
        moved = _shifted(match[1], match[2], match[3], delta)
        return f"{moved:%Y%m%d}{match.group(4)}" if moved else match.group(0)

    return _STAMP.sub(stamp, _ISO_DATE.sub(iso, text))


def source() -> Path:
    """Where the bundled tree is installed."""
    return Path(str(resources.files(__package__) / "tree"))


def write_demo(target: Path, today: dt.date) -> Path:
    """Copy the demo tree into target (which must be missing or empty), dated relative to today."""
    target = Path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise FileExistsError(f"{target} exists and is not empty; choose a new folder for the demo")
    delta = today - ANCHOR
    origin = source()
    for path in sorted(origin.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(origin).as_posix()
        destination = target / shift_dates(rel, delta)
        destination.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix in _TEXT_SUFFIXES:
            text = path.read_bytes().decode("utf-8")
            destination.write_bytes(shift_dates(text, delta).encode("utf-8"))
        else:
            shutil.copyfile(path, destination)
    return target

"""Whether each kind's index.json can be patched at all, and why not, in words.

An index.json that is not UTF-8, not JSON, not an object, nested too deep or not a regular file
may be another program's half-written file or hold a person's edits to repair: a change's scoped
patch leaves it byte for byte and says so; only `samantha-tui index` (or `r` in the app), asked
for explicitly and shown first, rebuilds it from the files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from ...basics.json_read import NotRegular, TooDeep, read_regular
from ...basics.json_read import loads as json_loads
from ...basics.model import Kind, Problem
from .plan import kinds_affected

FIX = "`samantha-tui index` regenerates it from the memory files"


def json_problem(root: Path, kind: Kind) -> Problem | None:
    """Why this kind's index.json cannot be read as samantha-llm needs it; None when it can be
    (or is simply missing). Reads only."""
    rel = f"{kind.folder}/index.json"
    try:
        raw = read_regular(Path(root) / rel)
    except NotRegular as error:
        return Problem(rel, f"index.json is {error.strerror or error}; {FIX}")
    except OSError:  # missing is normal; an unreadable folder is the scan's to report
        return None
    try:
        data = json_loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return Problem(rel, f"index.json is not UTF-8 text; {FIX}")
    except TooDeep as error:
        return Problem(rel, f"index.json is {error}; {FIX}", 1)
    except json.JSONDecodeError as error:
        return Problem(rel, f"index.json is not valid JSON ({error.msg}); {FIX}", error.lineno)
    if not isinstance(data, dict):
        return Problem(rel, f"index.json is not a JSON object; {FIX}", 1)
    return None


def json_problems(root: Path, kinds: Iterable[Kind] | None = None) -> list[Problem]:
    """json_problem for each kind (default all), in the kinds' order."""
    wanted = set(Kind) if kinds is None else set(kinds)
    found = (json_problem(root, kind) for kind in Kind if kind in wanted)
    return [problem for problem in found if problem is not None]


def unpatched(root: Path, kinds: Iterable[Kind]) -> list[str]:
    """One line for each index of these kinds that a change's patch left untouched because it
    cannot be read: what the person is told after the change."""
    lines = []
    for problem in json_problems(root, kinds):
        reason = problem.message.removeprefix("index.json is ").split("; ", 1)[0]
        lines.append(
            f"{problem.path} was not patched (it is {reason}); it is left as it is, and {FIX}"
        )
    return lines


def unpatched_after(root: Path, paths: Iterable[str]) -> list[str]:
    """unpatched for the kinds whose indexes these changed paths feed."""
    return unpatched(root, kinds_affected(paths))

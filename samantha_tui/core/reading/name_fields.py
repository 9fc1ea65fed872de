"""Name fields (`project`, `type`, `domain`, `confidence`, `status`): text, never a YAML 1.1 word.

samantha-llm never parses YAML: its worker reads a line's value as the text after `: `, its merge
finds a runbook by the `domain` text of its index entry and opens `<domain>.md`, `projects status`
shows the index's `status` text. YAML 1.1 reads some of that text as something else: `domain: yes`
(also `on`, `true`, `no`, `off`, `null`, `~`) is a bool or nothing, `project: 1.50` the number
1.5, `project: 2026-01-01` a date. Carried into an index, `"True"` is a domain the merge never
finds, and a workspace folder named `yes` gives memories a project `check` calls broken. So a
plain value of these keys on one line is its text as written (a ` # comment` after it is YAML's
comment, not part of it), and digits alone are a number, as to samantha-llm.

Quotes are YAML's: `project: "q"` is the project q. samantha-llm's worker would keep the quotes,
but it reads only the files its own generator wrote, where a value is the workspace folder's name
written bare; every quoted name in a real tree is a person's quoting (the bundled demo has
`project: "api-gateway-refactor"`), read as YAML by the assistant that reads the index, and a
quoted `domain` must still name its file `<domain>.md` for the merge. The one name the worker
itself would index with quotes, a folder whose name starts and ends with a quote, is kept as the
index has it (indexes/merge.py, `spelled`), so an entry the worker wrote keeps its text.

A value over several lines, a list or a mapping keeps YAML's reading.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from .naive_frontmatter import read_line
from .yaml_loader import TEXT_SCALARS

_LINES = {key: re.compile(rf"^{key}:[ \t\r]*(.*)$", re.MULTILINE) for key in TEXT_SCALARS}
_COMMENT = re.compile(r"[ \t]+#")
_CODED = (bool, float, dt.date, type(None))
"""What YAML 1.1 makes of plain text samantha-llm reads as text (a datetime is a date)."""


def as_samantha_llm_reads(mapping: dict[str, Any], yaml_text: str) -> dict[str, Any]:
    """mapping with each TEXT_SCALARS key's one-line plain value that YAML 1.1 read as a bool,
    nothing, a float or a date made its text again, in place (the key's last line counts, as
    YAML's last one does)."""
    for key in TEXT_SCALARS.intersection(mapping):
        if not isinstance(mapping[key], _CODED):
            continue
        matches = list(_LINES[key].finditer(yaml_text))
        if not matches:
            continue
        last = matches[-1]
        text = last.group(1).strip()
        if not text or text[0] in "#!&*":
            continue  # `key:` alone or a comment (nothing, to both), or a tag, anchor or alias
        start = last.end() + 1
        end = yaml_text.find("\n", start)
        following = yaml_text[start : end if end >= 0 else len(yaml_text)]
        if following[:1] in (" ", "\t") and following.strip():
            continue  # the value goes on over indented lines
        read = read_line(f"{key}: {_COMMENT.split(text, 1)[0]}")
        if read is not None and not isinstance(read[1], list):
            mapping[key] = read[1]
    return mapping

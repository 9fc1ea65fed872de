"""The reference for a headless edit: the least a safe one-key edit of a memory must do.

`python bench/safe_edit.py FILE KEY VALUE`: rewrite the frontmatter line `KEY: ...` of FILE, and
the same key of its entry in its folder's index.json, each through a temporary file, fsync and
rename. No YAML, no checks, no journal, no index.md: what samantha-tui's `set` is measured against
(bench/edit_probe.py). Standard library only, started as a plain script.
"""

import json
import os
import sys


def replace(path: str, text: str) -> None:
    temporary = f"{path}.tmp"
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


path, key, value = sys.argv[1:4]
with open(path, encoding="utf-8") as source:
    lines = source.read().split("\n")
lines = [f"{key}: {value}" if line.startswith(f"{key}:") else line for line in lines]
replace(path, "\n".join(lines))
index_path = os.path.join(os.path.dirname(path), "index.json")
with open(index_path, encoding="utf-8") as source:
    index = json.load(source)
name = os.path.basename(path)
for section in (index.get("recent") or {}).values():
    for entry in section:
        if entry.get("file") == name:
            entry[key] = value
replace(index_path, json.dumps(index, indent=2))

"""Does samantha-llm see the same tree after samantha-tui acted on it? (not part of `make bench`)

    git -C <samantha-llm clone> archive HEAD | tar x -C /tmp/sllm
    python -m bench.sllm_coexist /tmp/sllm [SIZE]

Writes a samantha-llm-like tree (bench/samantha_llm_like.py) and a copy of it on which the
samantha-tui CLI acts as a person would (`index`; `set` on a session memory, a runbook and a
project; `critical=true` on a memory), each command in its own process. Then, on each of the two
trees, in a scratch folder, runs samantha-llm's own code: `projects status`, `projects review`
(every update applied), its merge of the staged sessions, and its worker's finalize of one new
session. Prints what samantha-llm saw differently on the acted-on tree, beyond what the acts
themselves changed; exit 1 when anything was. Its code is run, never copied; nothing here runs
inside the tree.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import samantha_llm_like as like
from . import sllm_session as S
from . import sllm_words as W

TODAY = dt.date(2026, 12, 7)


def _snapshot(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _tui(scratch: Path, *args: str) -> str:
    env = {
        **os.environ,
        "SAMANTHA_TUI_CONFIG": str(scratch / "tui.toml"),
        "SAMANTHA_TUI_CACHE": str(scratch / "tui-cache"),
        "SAMANTHA_TUI_STATE": str(scratch / "tui-state.json"),
        "SAMANTHA_TUI_TODAY": TODAY.isoformat(),
    }
    done = subprocess.run(
        [sys.executable, "-m", "samantha_tui", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return f"$ samantha-tui {' '.join(args)} -> {done.returncode}\n{done.stdout}{done.stderr}"


def act(root: Path, scratch: Path) -> list[str]:
    """What a person does with samantha-tui: index, then edit a few memories' fields."""
    said = [_tui(scratch, "index", str(root))]
    short = sorted((root / like.SHORT).glob("*.md"))
    runbook = sorted((root / like.PROCEDURAL).glob("*.md"))[0]
    status = sorted((root / like.TASKS).glob("*/status.md"))[0]
    said.append(_tui(scratch, "set", str(short[0]), "topics=[sync, retries]"))
    said.append(_tui(scratch, "set", str(runbook), "confidence=high"))
    said.append(_tui(scratch, "set", str(status), "importance=high"))
    said.append(_tui(scratch, "set", str(short[1]), "critical=true"))
    return said


def _projects(sllm: Path, root: Path, home: Path, command: str, answers: str = "") -> str:
    """samantha-llm's `projects <command>` on `root` (its config in a scratch HOME), `answers`
    typed at its prompts."""
    config = home / ".config" / "samantha-llm"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.json").write_text(json.dumps({"repo_path": str(root)}))
    done = subprocess.run(
        [sys.executable, str(sllm / "samantha-llm"), "projects", command],
        env={**os.environ, "HOME": str(home)},
        input=answers,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout + done.stderr


def _merge(root: Path) -> str:
    import merge_sessions  # type: ignore[import-not-found]

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            merge_sessions.merge_completed_sessions(root)
        except Exception as error:  # its failure is a finding, not a crash of this probe
            print(f"MERGE FAILED: {error!r}")
    return out.getvalue()


def _finalize(root: Path, work: Path) -> dict[str, Any]:
    """One new session through samantha-llm's generator and finalize: its index entry."""
    import subconscious_worker  # type: ignore[import-not-found]
    from conversation_analyzer import AnalysisResult  # type: ignore[import-not-found]
    from memory_generator import generate_memory_file  # type: ignore[import-not-found]
    from session_workspace import SessionWorkspace  # type: ignore[import-not-found]

    (s,) = like.draw_sessions(
        random.Random(99), 1, list(W.ALL_PROJECTS), "Lena", "/home/lena/src",
        TODAY, TODAY, set(),
    )  # fmt: skip
    space = SessionWorkspace(s.session_id, work)
    space.create()
    a = s.analysis
    generate_memory_file(
        AnalysisResult(a.patterns, a.decisions, a.todos, a.preferences, a.learnings, a.summary),
        s.session_id, Path(s.workspace), s.seconds, work, session_workspace=space,
    )  # fmt: skip
    subconscious_worker.finalize_session_memories(space, root, lambda _: None)
    index = json.loads((root / like.SHORT / "index.json").read_text())
    return {"entry": index["recent"], "stats": index["stats"], "name": S.file_name(s)}


def _seen(sllm: Path, root: Path, scratch: Path, name: str) -> dict[str, Any]:
    """What samantha-llm sees of `root`: run on a copy, each step on what the last left."""
    tree = scratch / f"seen-{name}"
    shutil.copytree(root, tree)
    home = scratch / f"home-{name}"
    seen: dict[str, Any] = {"status": _projects(sllm, tree, home, "status")}
    # Every pending update applied, as a person answering yes to each would.
    seen["review"] = _projects(sllm, tree, home, "review", "y\n" * 50)
    seen["reviewed"] = _projects(sllm, tree, home, "status")
    before = _snapshot(tree)
    seen["merge"] = _merge(tree)
    after = _snapshot(tree)
    seen["merged"] = sorted(p for p in after if before.get(p) != after[p])
    seen["runbooks"] = {
        r.get("domain"): r
        for r in json.loads((tree / like.PROCEDURAL / "index.json").read_text())["runbooks"]
    }
    seen["finalize"] = _finalize(tree, scratch / f"work-{name}")
    return seen


def main(sllm: Path, size: int) -> int:
    sys.path.insert(0, str(sllm))
    scratch = Path(tempfile.mkdtemp(prefix="sllm-coexist-"))
    try:
        made = scratch / "made"
        like.write_tree(made, size, seed=3, today=TODAY)
        acted = scratch / "acted"
        shutil.copytree(made, acted)
        for said in act(acted, scratch):
            print(said.rstrip())
        before = _snapshot(made)
        changed_by_acts = {p for p, digest in _snapshot(acted).items() if before.get(p) != digest}
        print(f"files the acts changed: {len(changed_by_acts)}")
        one, other = _seen(sllm, made, scratch, "made"), _seen(sllm, acted, scratch, "acted")
        differences = []
        if one["status"] != other["status"]:
            differences.append(f"projects status:\n{one['status']}\n---\n{other['status']}")
        for step in ("review", "reviewed"):
            if one[step] != other[step]:
                differences.append(f"projects {step}:\n{one[step]}\n---\n{other[step]}")
        if one["merge"] != other["merge"]:
            differences.append(f"merge said:\n{one['merge']}\n---\n{other['merge']}")
        if one["merged"] != other["merged"]:
            only = sorted(set(one["merged"]) ^ set(other["merged"]))
            differences.append(f"files the merge changed differ: {only}")
        if set(one["runbooks"]) != set(other["runbooks"]):
            differences.append("runbook domains differ after the merge")
        keys = ("triggers", "corrections_count", "file")
        for domain, entry in one["runbooks"].items():
            theirs = other["runbooks"].get(domain, {})
            for key in keys:
                if entry.get(key) != theirs.get(key):
                    differences.append(
                        f"runbook {domain}: {key} {entry.get(key)!r} vs {theirs.get(key)!r}"
                    )
        if one["finalize"]["stats"].keys() != other["finalize"]["stats"].keys():
            differences.append("the finalized index's stats differ in shape")
        for line in differences:
            print(f"DIFFERENT: {line}")
        print(f"{len(differences)} differences seen by samantha-llm")
        return 1 if differences else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 400))

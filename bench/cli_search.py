"""Headless search as whole processes: samantha-tui's `search`, against `grep | fzf` and against
samantha-llm's own `memories search`, on the same tree with the same words.

Each command is spawned, its output read to the end, and timed from spawn to exit; one untimed run
first, so samantha-tui's cache is warm and every file is in the page cache for all three.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

QUERY = "auth token"
GREP_WORD = "auth"
"""grep finds the files holding the query's first word; fzf then filters their paths by it all."""
SAMANTHA_LLM_ENV = "BENCH_SAMANTHA_LLM"
"""The path of a samantha-llm checkout (or of its `samantha-llm` script) to compare with."""
FZF_OPTIONS = ("FZF_DEFAULT_OPTS", "FZF_DEFAULT_COMMAND")
"""A person's fzf settings, left out so every machine runs the same filter."""


def timed(commands: Sequence[Sequence[str]], env: Mapping[str, str]) -> float:
    """Seconds from spawning a pipeline (each command's output into the next) to its last exit."""
    start = time.perf_counter()
    processes: list[subprocess.Popen[bytes]] = []
    for n, command in enumerate(commands):
        processes.append(
            subprocess.Popen(
                list(command),
                stdin=processes[-1].stdout if processes else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if n == len(commands) - 1 else subprocess.DEVNULL,
                env=dict(env),
            )
        )
        if len(processes) > 1:
            assert processes[-2].stdout is not None
            processes[-2].stdout.close()  # the next process owns the pipe now
    _, errors = processes[-1].communicate()
    for process in processes[:-1]:
        process.wait()
    took = time.perf_counter() - start
    for command, process in zip(commands, processes, strict=True):
        # grep and fzf answer 1 for "nothing matched", which is an answer, not a failure.
        if process.returncode not in (0, 1):
            raise RuntimeError(f"{command[0]} failed ({process.returncode}): {errors!r}")
    return took


def samantha_tui(script: Path, root: Path) -> list[list[str]]:
    return [[str(script), "search", "--tree", str(root), QUERY]]


def grep_fzf(root: Path) -> list[list[str]]:
    return [["grep", "-rli", GREP_WORD, str(root)], ["fzf", "--filter", QUERY]]


def samantha_llm_script(checkout: str) -> Path:
    """The `samantha-llm` script of a checkout (the path may also name the script itself)."""
    path = Path(checkout).expanduser()
    script = path if path.is_file() else path / "samantha-llm"
    if not script.is_file():
        raise FileNotFoundError(f"${SAMANTHA_LLM_ENV}: no samantha-llm script at {script}")
    return script


def samantha_llm_setup(
    script: Path, root: Path, scratch: Path
) -> tuple[list[list[str]], dict[str, str]]:
    """The command and environment that make samantha-llm's search read the tree at root.

    Its search reads the `.ai` folder beside the script itself (the user's clone is the tree),
    so a copy of the script goes in a scratch folder whose `.ai` links to the tree's; HOME is a
    scratch folder too, holding the config.json that names that folder as the repository, so
    nothing of the person's own samantha-llm (config, qmd) is read."""
    repo, home = scratch / "repo", scratch / "home"
    repo.mkdir(parents=True, exist_ok=True)
    shutil.copy2(script, repo / "samantha-llm")
    link = repo / ".ai"
    if not link.is_symlink():
        link.symlink_to(root.resolve() / ".ai", target_is_directory=True)
    config = home / ".config" / "samantha-llm"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.json").write_text(json.dumps({"repo_path": str(repo)}), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "XDG_CONFIG_HOME"}
    env["HOME"] = str(home)
    # The interpreter the rest of the benchmark runs, so the two Pythons start alike.
    return [[sys.executable, str(repo / "samantha-llm"), "memories", "search", QUERY]], env


def measure(
    script: Path, root: Path, env: Mapping[str, str], scratch: Path, runs: int
) -> dict[str, list[float]]:
    """Seconds of each run of each command: samantha-tui, grep | fzf and, when
    $BENCH_SAMANTHA_LLM names a checkout, samantha-llm; run in turns so load hits all alike."""
    fzf_env = {key: value for key, value in env.items() if key not in FZF_OPTIONS}
    commands = {
        "search_cli_s": (samantha_tui(script, root), env),
        "grep_fzf_s": (grep_fzf(root), fzf_env),
    }
    checkout = os.environ.get(SAMANTHA_LLM_ENV)
    if checkout:
        commands["samantha_llm_search_s"] = samantha_llm_setup(
            samantha_llm_script(checkout), root, scratch
        )
    taken: dict[str, list[float]] = {key: [] for key in commands}
    for command, command_env in commands.values():
        timed(command, command_env)  # warms samantha-tui's cache and the page cache
    for _ in range(runs):
        for key, (command, command_env) in commands.items():
            taken[key].append(timed(command, command_env))
    return taken

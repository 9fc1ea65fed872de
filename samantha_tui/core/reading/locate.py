"""Find the cerebrum root: a path, $SAMANTHA_CEREBRUM, the current folder, or the config."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from ..basics.model import Kind

ENV_VAR = "SAMANTHA_CEREBRUM"
WORKSPACE_LINK = ".ai-cerebrum"


class TreeNotFound(LookupError):
    """No memory tree where we looked; the message names every place, or says what is wrong
    with the one path given (`given`)."""

    def __init__(self, looked: list[str], given: bool = False) -> None:
        self.looked = looked
        places = "\n".join(f"  - {place}" for place in looked)
        head = (
            f"{looked[0]}\n"
            if given
            else f"no samantha-llm memory tree found. Looked in:\n{places}\n"
        )
        super().__init__(
            f"{head}"
            "Pass a path (the folder holding .ai/), set $SAMANTHA_CEREBRUM, or try the demo:\n"
            "  samantha-tui demo ./demo-tree && samantha-tui ./demo-tree"
        )


def config_path(env: Mapping[str, str]) -> Path:
    """samantha-llm's own config file, which names the tree in `repo_path`: where samantha-llm
    itself reads it, `~/.config/samantha-llm/config.json` under the home folder, whatever
    `$XDG_CONFIG_HOME` says (samantha-llm does not read that variable)."""
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".config" / "samantha-llm" / "config.json"


def root_of(path: Path) -> Path | None:
    """The cerebrum root for a root, its `.ai/` folder, or a workspace with `.ai-cerebrum`."""
    path = path.expanduser()
    if (path / ".ai").is_dir():
        return path.absolute()
    if path.name == ".ai" and path.is_dir():
        return path.absolute().parent
    link = path / WORKSPACE_LINK
    if link.is_dir() and (link / ".ai").is_dir():
        return link.resolve()
    return None


def why_not_a_tree(path: Path) -> str:
    """Why `path` names no tree, in words: it does not exist, is not a folder, or has no `.ai/`."""
    path = path.expanduser()
    if not path.exists():
        if path.is_symlink():
            return f"{path} is a link to {os.readlink(path)}, which does not exist"
        return f"{path} does not exist"
    if not path.is_dir():
        return f"{path} is not a folder"
    link = path / WORKSPACE_LINK
    if link.is_symlink() and not link.exists():
        return f"{path} has a {WORKSPACE_LINK} link to {os.readlink(link)}, which does not exist"
    if link.exists():
        return f"{path} has a {WORKSPACE_LINK} link, but {link.resolve()} has no .ai/ folder"
    return f"{path} has no .ai/ folder and no {WORKSPACE_LINK} link"


def _from_config(env: Mapping[str, str]) -> tuple[Path | None, str]:
    path = config_path(env)
    label = f"repo_path in {path}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"{label} (no such file)"
    except (OSError, ValueError) as error:
        return None, f"{label} (unreadable: {error})"
    repo = data.get("repo_path") if isinstance(data, dict) else None
    if not isinstance(repo, str) or not repo:
        return None, f"{label} (no repo_path set)"
    found = root_of(Path(repo))
    return found, f"{label} ({repo})" if found else f"{label}: {why_not_a_tree(Path(repo))}"


def find_root(
    path: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Path:
    """Resolve the tree to open, in the documented order; raise TreeNotFound naming every place."""
    env = os.environ if env is None else env
    if path is not None:
        found = root_of(Path(path))
        if found is None:
            raise TreeNotFound([why_not_a_tree(Path(path))], given=True)
        return found
    looked: list[str] = []
    if env.get(ENV_VAR):
        found = root_of(Path(env[ENV_VAR]))
        if found:
            return found
        looked.append(f"${ENV_VAR}: {why_not_a_tree(Path(env[ENV_VAR]))}")
    else:
        looked.append(f"${ENV_VAR} (not set)")
    here = cwd or Path.cwd()
    found = root_of(here)
    if found:
        return found
    looked.append(f"the current folder {here} (no .ai/ or .ai-cerebrum)")
    found, label = _from_config(env)
    if found:
        return found
    looked.append(label)
    raise TreeNotFound(looked)


def is_cerebrum(path: Path) -> bool:
    """A folder whose `.ai/` holds at least one kind folder."""
    return any((path / kind.folder).is_dir() for kind in Kind)


def root_for_file(file: Path) -> Path:
    """The tree a memory file belongs to: the nearest folder above it that is a cerebrum."""
    file = file.absolute()
    for parent in file.parents:
        if file.is_relative_to(parent / ".ai") and is_cerebrum(parent):
            return parent
    raise TreeNotFound([f"the folders above {file} (none holds a memory tree's .ai/)"])

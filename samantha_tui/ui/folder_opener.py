"""Opening a memory's folder in the person's file manager (`O`).

The program is `$SAMANTHA_TUI_OPEN` (split as a shell would, so `nautilus --new-window` works),
else the platform's own opener when it is installed: `open` on macOS, `xdg-open` elsewhere. It
runs detached, without a shell, and is given the folder as an absolute path: a path that starts
with `/` can never be read as one of its options, whatever the tree's folders are named.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

ENV_NAME = "SAMANTHA_TUI_OPEN"


class NoOpener(Exception):
    """Nothing here can open a folder; the message says what to set."""


def opener_command(
    environ: Mapping[str, str],
    platform: str = sys.platform,
    which: Callable[[str], str | None] = shutil.which,
) -> list[str]:
    """The words of the command that opens a folder; NoOpener when there is none."""
    words = shlex.split(environ.get(ENV_NAME, ""))
    if words:
        return words
    name = "open" if platform == "darwin" else "xdg-open"
    if which(name) is not None:
        return [name]
    raise NoOpener(
        f"no program to open folders: {name} is not installed; set ${ENV_NAME} to one "
        "(e.g. export SAMANTHA_TUI_OPEN=thunar)"
    )


def open_folder(command: list[str], folder: Path) -> None:
    """Start `command folder` detached from the app's terminal; OSError if it cannot start."""
    if not folder.is_absolute():
        raise ValueError(f"{folder} is not an absolute path")
    opener = subprocess.Popen(
        [*command, os.fspath(folder)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own session: the app's Ctrl+C or exit does not reach it
        close_fds=True,
    )
    # Reaped when it ends, off the event loop: left unwaited it stays a zombie until the app
    # exits. A daemon thread, so an opener that runs on (a file manager) never holds the exit.
    threading.Thread(target=opener.wait, name="folder-opener-reaper", daemon=True).start()

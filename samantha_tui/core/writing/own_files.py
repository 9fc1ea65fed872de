"""The app's own small files beside the tree, never in it (its state, the dismissed pairs):
replaced atomically, never through a link, pipe or folder standing where the file should be."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ..basics.json_read import kind_of


def replace_own_file(path: Path, data: bytes, *, sync: bool) -> str | None:
    """Put `data` at `path` in one step; why not, in words, when it could not (None when it
    did). `sync`: flush it to disk first (what a person chose; the state file, a convenience,
    goes without)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        pass
    except OSError as error:
        return error.strerror or str(error)
    else:
        if not stat.S_ISREG(info.st_mode):
            return f"it is {kind_of(info.st_mode)}, not a plain file"
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
                if sync:
                    out.flush()
                    os.fsync(out.fileno())
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except OSError as error:
        return error.strerror or str(error)
    return None

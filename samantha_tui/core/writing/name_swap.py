"""Two names swapped in one step (Linux's renameat2 with RENAME_EXCHANGE), where the system has it.

A replace checked and then renamed leaves a moment between the check and the rename in which
another program's write can land, and the rename would then put ours over theirs unseen. Swapped
instead, their bytes are never gone: after the swap the old file sits at the temporary name, where
it can be compared with what was read, and swapped back if it is not that.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from collections.abc import Callable

_AT_FDCWD = -100
_RENAME_EXCHANGE = 1 << 1
_UNSUPPORTED = frozenset({errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP})
"""The call is missing, or the file system cannot swap (some network and FUSE file systems)."""


def _renameat2() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a C library older than glibc 2.28, or not glibc
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function


_CALL = _renameat2()


def exchange(first: os.PathLike[str] | str, second: os.PathLike[str] | str) -> bool:
    """Swap what the two names point at, atomically: True once done; False where this system or
    file system cannot (nothing was changed then). Any other failure is raised as OSError."""
    if _CALL is None:
        return False
    result = _CALL(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), os.fspath(second))

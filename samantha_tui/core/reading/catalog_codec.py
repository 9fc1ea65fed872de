"""How the catalog turns values into SQLite's and back: paths and text as bytes, records as a
restricted pickle. The cache folder may be written by someone else, so nothing read back is
trusted: a pickle may name only the classes a record holds."""

from __future__ import annotations

import datetime as dt
import io
import pickle
from typing import Any

from ..basics.model import Problem, Severity

_ALLOWED_CLASSES = {
    ("datetime", name): getattr(dt, name)
    for name in ("date", "datetime", "time", "timedelta", "timezone")
} | {
    ("samantha_tui.core.basics.model", "Problem"): Problem,
    ("samantha_tui.core.basics.model", "Severity"): Severity,
}
"""The only classes a record holds besides builtins: its problems, and the dates a safe YAML
load can make. Anything else named in a row means the row is not ours, and it is never imported."""


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        try:
            return _ALLOWED_CLASSES[module, name]
        except KeyError:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a catalog") from None


def restricted_loads(raw: bytes) -> Any:
    """The value pickled in raw, refusing every class a record does not hold."""
    return _Unpickler(io.BytesIO(raw)).load()


def encode(text: str) -> bytes:
    """Text as bytes; a file name that is not UTF-8 (surrogate escapes) has no SQLite text form."""
    return text.encode("utf-8", "surrogateescape")


def decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")

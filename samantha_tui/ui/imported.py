"""Classes of modules loaded on first use, looked up without loading them."""

from __future__ import annotations

import sys
from typing import Any


# type[Any]: the caller names the class, and uses what it knows of it; importing it to type the
# answer would load what this avoids loading.
def class_if_imported(module: str, name: str) -> type[Any] | None:
    """The class `name` of `module` if that module has been imported, else None.

    A screen whose module was never imported has never been opened, so it cannot be on the
    screen stack: asking whether one is there need not pay for importing it.
    """
    loaded = sys.modules.get(module)
    found = getattr(loaded, name, None) if loaded is not None else None
    return found if isinstance(found, type) else None

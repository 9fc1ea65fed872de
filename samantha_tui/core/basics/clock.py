"""Today's date, fixable for tests, demos and reproducible runs."""

from __future__ import annotations

import datetime as dt
import os

TODAY_ENV = "SAMANTHA_TUI_TODAY"


def today() -> dt.date:
    """The local date, or `$SAMANTHA_TUI_TODAY` (YYYY-MM-DD) when set."""
    fixed = os.environ.get(TODAY_ENV)
    if fixed:
        try:
            return dt.date.fromisoformat(fixed)
        except ValueError:
            raise ValueError(f"${TODAY_ENV} is {fixed!r}; expected YYYY-MM-DD") from None
    return dt.date.today()

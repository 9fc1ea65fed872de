"""The error every refused or failed change raises: apart, so what only reports it (the CLI's
exit path) does not import the writer."""

from __future__ import annotations


class StoreError(Exception):
    """A change the store refused or could not make; the message says what to do."""

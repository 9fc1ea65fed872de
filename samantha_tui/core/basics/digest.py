"""The digest a record keeps of its file's bytes, and a write compares against: apart from the
writer, so reading a tree (the headless search) does not import it."""

from __future__ import annotations

import hashlib


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()

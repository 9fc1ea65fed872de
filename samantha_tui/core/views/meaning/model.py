"""The embedding model, loaded offline and once per process.

wordllama's weights and tokenizer ship inside its own package folder; its default `load()` still
tries to fetch the tokenizer from the network, so it is loaded from that folder with downloads
off. wordllama and numpy are imported here, inside the loader, never at module level: importing
the app or the CLI must not pay for them (or fail without them).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from . import Unavailable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CONFIG = "l2_supercat"
DIMENSION = 256
MAX_CHARS_PER_TEXT = 4000
"""wordllama turns truncation off and pads a batch to its longest text: an unbounded text would
cost its whole length in every row of its batch. What is embedded is bounded before (text.py);
this is the last guard."""


class Embedder(Protocol):
    """What the rest of the package needs of an engine (a test may hand in its own)."""

    @property
    def name(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


class Engine:
    """wordllama's inference, giving L2-normalised float32 vectors of DIMENSION values."""

    def __init__(self, inference: Any, name: str) -> None:
        self._inference = inference
        self._lock = threading.Lock()
        self.name = name
        """The model and its version: a vector kept under one name is never read under another."""

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """An (n, DIMENSION) float32 array, each row of length 1 (a zero row for a text with no
        token at all). Safe from any thread: calls take turns."""
        import numpy as np

        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        bounded = [text[:MAX_CHARS_PER_TEXT] for text in texts]
        with self._lock:
            raw = self._inference.embed(bounded, norm=False)
        matrix = np.asarray(raw, dtype=np.float32).reshape(len(bounded), DIMENSION)
        lengths = np.linalg.norm(matrix, axis=1, keepdims=True)
        np.divide(matrix, lengths, out=matrix, where=lengths > 0)
        matrix[(lengths == 0).ravel()] = 0.0
        return matrix


_loaded: Engine | Unavailable | None = None
_loading = threading.Lock()


def load_engine() -> Engine | Unavailable:
    """The process's engine, loaded at the first call (about half a second); later calls return
    the same one, or the same reason it could not be loaded. Safe from any thread."""
    global _loaded
    with _loading:
        if _loaded is None:
            _loaded = _load()
        return _loaded


def _load() -> Engine | Unavailable:
    try:
        import numpy  # noqa: F401  (its absence is said as such, not as wordllama's error)
    except ImportError:
        return Unavailable("numpy is not installed, so memories cannot be compared by meaning")
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError:
        return Unavailable(
            "the embedding model (wordllama) is not installed, so memories cannot be compared "
            "by meaning; install samantha-tui with its dependencies to turn this on"
        )
    except Exception as error:  # a broken install can fail in any way
        return Unavailable(f"the embedding model (wordllama) could not be imported: {error}")
    from pathlib import Path

    folder = Path(wordllama.__file__).parent
    try:
        inference = WordLlama.load(
            config=CONFIG, cache_dir=folder, dim=DIMENSION, disable_download=True
        )
    except FileNotFoundError:
        return Unavailable(
            f"the embedding model's files are missing from {folder} (weights or tokenizer); "
            "reinstall wordllama"
        )
    except Exception as error:  # anything the loader raises means no model, not a crash
        return Unavailable(f"the embedding model could not be loaded: {error}")
    version = getattr(wordllama, "__version__", "unknown")
    return Engine(inference, f"wordllama-{version}-{CONFIG}-{DIMENSION}")

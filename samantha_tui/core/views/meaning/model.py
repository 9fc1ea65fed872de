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
"""What is embedded is bounded before (text.py); this is the last guard."""


class Embedder(Protocol):
    """What the rest of the package needs of an engine (a test may hand in its own)."""

    @property
    def name(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


WORDS_KEPT = 65536
"""Words whose vectors an engine keeps (a kilobyte each); past it the table starts again."""


class Engine:
    """wordllama's model, giving L2-normalised float32 vectors of DIMENSION values.

    wordllama's vector of a text is the mean of its tokens' vectors. The tokenizer (Llama's, with
    a word-start marker) never makes a token across a space, so the sum of a text's token vectors
    is the sum, over its words, of each word's token vectors: each distinct word is tokenized
    once and its vector kept, and a text costs a lookup per word. Tokenizing every text whole
    costs several times as much (most of wordllama's own `embed`). For text whose words are
    single-spaced (what text.py gives) the vectors are wordllama's to the last bits of float32
    (a test holds them to it); elsewhere a run of spaces or a line break, a token of its own in
    wordllama that says nothing, is read as one space.
    """

    def __init__(self, inference: Any, name: str) -> None:
        self._inference = inference
        self._lock = threading.Lock()
        self._words: dict[str, int] = {}
        self._table: Any = None  # (capacity, DIMENSION) float32; rows [0, len(_words)) in use
        self.name = name
        """The model and its version: a vector kept under one name is never read under another."""

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """An (n, DIMENSION) float32 array, each row of length 1 (a zero row for a text with no
        word at all). Safe from any thread: calls take turns."""
        import numpy as np

        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        split = [text[:MAX_CHARS_PER_TEXT].split() for text in texts]
        with self._lock:
            unknown = {word for words in split for word in words if word not in self._words}
            if len(self._words) + len(unknown) > WORDS_KEPT:
                self._words, self._table = {}, None
                unknown = {word for words in split for word in words}
            self._learn(sorted(unknown))
            table, words = self._table, self._words
            for row, text_words in enumerate(split):
                if text_words:
                    ids = np.fromiter(
                        (words[w] for w in text_words), dtype=np.intp, count=len(text_words)
                    )
                    out[row] = table[ids].sum(axis=0)
        lengths = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, lengths, out=out, where=lengths > 0)
        return out

    def _learn(self, words: list[str]) -> None:
        """Tokenize words not seen yet, in one batch, and keep each one's summed vector."""
        import numpy as np

        if not words:
            return
        embedding = self._inference.embedding
        vectors = np.zeros((len(words), DIMENSION), dtype=np.float32)
        encoded = self._inference.tokenize(words)
        last = embedding.shape[0] - 1
        for row, tokens in enumerate(encoded):
            ids = [i for i, kept in zip(tokens.ids, tokens.attention_mask, strict=True) if kept]
            if ids:
                vectors[row] = embedding[np.clip(ids, 0, last)].sum(axis=0)
        start = len(self._words)
        needed = start + len(words)
        if self._table is None or self._table.shape[0] < needed:
            grown = np.zeros((max(needed, 2 * start, 1024), DIMENSION), dtype=np.float32)
            if self._table is not None:
                grown[:start] = self._table[:start]
            self._table = grown
        self._table[start:needed] = vectors
        for offset, word in enumerate(words):
            self._words[word] = start + offset


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

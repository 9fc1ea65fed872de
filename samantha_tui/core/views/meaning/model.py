"""The embedding model, loaded offline and once per process.

The model is wordllama's: its token table and tokenizer ship inside its package folder, and are
read from there (weights.py) without importing wordllama, which would try the network for its
tokenizer and hold three times the memory. numpy and the tokenizer are imported inside the
loader, never at module level: importing the app or the CLI must not pay for them (or fail
without them).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from itertools import chain
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


class Engine:
    """wordllama's model, giving L2-normalised float32 vectors of DIMENSION values.

    wordllama's vector of a text is the mean of its tokens' vectors. The tokenizer (Llama's, with
    a word-start marker) never makes a token across a space, so the sum of a text's token vectors
    is the sum, over its words, of each word's token vectors: each distinct word of a call is
    tokenized once, and a text costs a lookup per word. Tokenizing every text whole costs
    several times as much (most of wordllama's own `embed`). For text whose words are
    single-spaced (what text.py gives) the vectors are wordllama's to the last bits of float32
    (a test holds them to it); elsewhere a run of spaces or a line break, a token of its own in
    wordllama that says nothing, is read as one space. The words' table lives for one call
    only: vectors are kept by file digest (vectors.py), so a later call embeds only what changed,
    and the app does not carry a table of every word it has seen.
    """

    def __init__(self, table: npt.NDArray[np.float16], tokenizer: Any, name: str) -> None:
        self._table = table
        """The token table, float16 as shipped; a looked-up row is widened to float32 (exact)."""
        self._tokenizer = tokenizer
        """Pads and cuts nothing (weights.read_tokenizer): one word a row, no padding to drop."""
        self._lock = threading.Lock()
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
        distinct = list(dict.fromkeys(chain.from_iterable(split)))  # each word once
        words = dict(zip(distinct, range(len(distinct)), strict=True))
        with self._lock:
            table = self._word_vectors(distinct)
        counts = np.fromiter(map(len, split), dtype=np.intp, count=len(split))
        ids = np.fromiter(
            map(words.__getitem__, chain.from_iterable(split)), dtype=np.intp, count=counts.sum()
        )
        # One lookup of every word of every text (map, not a Python loop per word), then each
        # text's rows summed on their own: per text, numpy's sum beats a reduceat of them all.
        ends = np.cumsum(counts).tolist()
        for row, (end, count) in enumerate(zip(ends, counts.tolist(), strict=True)):
            if count:
                out[row] = table[ids[end - count : end]].sum(axis=0)
        lengths = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, lengths, out=out, where=lengths > 0)
        return out

    def _word_vectors(self, words: list[str]) -> npt.NDArray[np.float32]:
        """Each word's summed token vectors, one row per word in the order given."""
        import numpy as np

        embedding = self._table
        table = np.zeros((len(words), DIMENSION), dtype=np.float32)
        if not words:
            return table
        encoded = self._tokenizer.encode_batch(words, add_special_tokens=False)
        tokens = [word.ids for word in encoded]
        counts = np.fromiter(map(len, tokens), dtype=np.intp, count=len(tokens))
        ids = np.fromiter(chain.from_iterable(tokens), dtype=np.intp, count=counts.sum())
        np.clip(ids, 0, embedding.shape[0] - 1, out=ids)
        spoken = counts > 0
        if spoken.any():
            starts = (np.cumsum(counts) - counts)[spoken]
            table[spoken] = np.add.reduceat(embedding[ids].astype(np.float32), starts, axis=0)
        return table


_loaded: Engine | Unavailable | None = None
_loading = threading.Lock()


def engine_name() -> str | None:
    """The name vectors of this install's engine are kept under, from wordllama's installed
    metadata (a file read, not an import); None when its metadata cannot be found."""
    from importlib import metadata

    try:
        version = metadata.version("wordllama")
    except Exception:  # not installed, or installed without metadata: load_engine says which
        return None
    return f"wordllama-{version}-{CONFIG}-{DIMENSION}"


class NotLoaded(Exception):
    """The deferred engine was asked to embed and the model could not be loaded."""

    def __init__(self, why: Unavailable) -> None:
        super().__init__(why.reason)
        self.why = why


class Deferred:
    """The engine, loaded only when a text must be embedded. A tree whose vectors the catalog
    keeps already needs no model at all: reading it costs a tenth of a second and 40 MB."""

    def __init__(self, name: str) -> None:
        self.name = name

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        engine = load_engine()
        if isinstance(engine, Unavailable):
            raise NotLoaded(engine)
        return engine.embed(texts)


def deferred_engine() -> Engine | Deferred | Unavailable:
    """The engine if loaded, else one that loads it at its first text to embed; the reason
    there is none when wordllama's metadata is missing (load_engine finds out why)."""
    if _loaded is not None:
        return _loaded
    name = engine_name()
    return load_engine() if name is None else Deferred(name)


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
    from . import weights

    folder = weights.package_folder()
    if folder is None:
        return Unavailable(
            "the embedding model (wordllama) is not installed, so memories cannot be compared "
            "by meaning; install samantha-tui with its dependencies to turn this on"
        )
    files = weights.files_of(folder, CONFIG, DIMENSION)
    try:
        table = weights.read_table(files.weights, DIMENSION)
        tokenizer = weights.read_tokenizer(files.tokenizer)
    except ImportError:
        return Unavailable(
            "the tokenizer library (tokenizers) is not installed, so memories cannot be "
            "compared by meaning; reinstall samantha-tui with its dependencies"
        )
    except weights.WeightsError as error:
        return Unavailable(f"the embedding model could not be loaded: {error}; reinstall wordllama")
    # Named as Deferred names it, so vectors kept by either are read by the other.
    return Engine(table, tokenizer, engine_name() or f"wordllama-unknown-{CONFIG}-{DIMENSION}")

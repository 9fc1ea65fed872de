"""wordllama's files, read without importing wordllama.

Its package holds the two files the engine needs: the token table (a safetensors file of one
float16 matrix) and the tokenizer (a `tokenizers` JSON file). Importing wordllama and loading
through it costs about 120 MB and a fifth of a second: it imports `requests`, and it keeps the
table as float32 beside a second tokenizer. Read here, the table stays float16 (16 MB; a row is
widened to float32 when a word is looked up, which is exact, so the vectors are wordllama's), and
nothing of wordllama is imported. The folder is found the way `import` would find it.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

TENSOR = "embedding.weight"
HEADER_LIMIT = 1 << 20
"""A safetensors header longer than this is not the one-matrix file wordllama ships."""


class WeightsError(Exception):
    """The files are missing or not what wordllama ships; the message says which and why."""


@dataclass(frozen=True)
class Files:
    weights: Path
    tokenizer: Path


def package_folder() -> Path | None:
    """The folder `import wordllama` would load, without importing it; None if not installed."""
    from importlib.util import find_spec

    try:
        spec = find_spec("wordllama")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def files_of(folder: Path, config: str, dimension: int) -> Files:
    """Where wordllama keeps the weights and the tokenizer of `config` in its package folder."""
    return Files(
        folder / "weights" / f"{config}_{dimension}.safetensors",
        folder / "tokenizers" / f"{config}_tokenizer_config.json",
    )


def read_table(path: Path, dimension: int) -> npt.NDArray[np.float16]:
    """The token table of a one-matrix safetensors file: (tokens, dimension) float16."""
    import numpy as np

    try:
        with path.open("rb") as file:
            head = file.read(8)
            if len(head) < 8:
                raise WeightsError(f"{path} is too short to be a weights file")
            (length,) = struct.unpack("<Q", head)
            if length > HEADER_LIMIT:
                raise WeightsError(f"{path} has a header of {length} bytes, not wordllama's")
            header = json.loads(file.read(length))
            entry = header.get(TENSOR) if isinstance(header, dict) else None
            shape, start, end = _checked(entry, dimension, path)
            file.seek(8 + length + start)
            table = np.fromfile(file, dtype="<f2", count=(end - start) // 2)
    except FileNotFoundError as error:
        raise WeightsError(f"the weights file {path} is missing") from error
    except (OSError, ValueError) as error:
        raise WeightsError(f"the weights file {path} could not be read: {error}") from error
    if table.size != shape[0] * shape[1]:
        raise WeightsError(f"{path} ends before its table does")
    return table.reshape(shape)


def _checked(entry: Any, dimension: int, path: Path) -> tuple[tuple[int, int], int, int]:
    """The table's shape and byte range, once its header entry is wordllama's kind."""
    if not isinstance(entry, dict) or entry.get("dtype") != "F16":
        raise WeightsError(f"{path} holds no float16 {TENSOR}")
    shape, offsets = _ints(entry.get("shape")), _ints(entry.get("data_offsets"))
    if shape is None or offsets is None or 0 in shape or shape[1] != dimension:
        raise WeightsError(
            f"{path} holds a table of shape {entry.get('shape')}, not (n, {dimension})"
        )
    (tokens, width), (start, end) = shape, offsets
    if end - start != tokens * width * 2:
        raise WeightsError(f"{path}'s table takes {end - start} bytes, not its shape's")
    return (tokens, width), start, end


def _ints(value: Any) -> tuple[int, int] | None:
    """Two whole numbers, none negative, as a header lists a shape or a byte range; else None."""
    if isinstance(value, list) and len(value) == 2 and all(type(n) is int for n in value):
        first, second = value
        if first >= 0 and second >= 0:
            return first, second
    return None


def read_tokenizer(path: Path) -> Any:
    """The tokenizer, set to pad and cut nothing: words are tokenized one to a row."""
    from tokenizers import Tokenizer

    if not path.is_file():
        raise WeightsError(f"the tokenizer file {path} is missing")
    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as error:  # the library's own errors say what is wrong with the file
        raise WeightsError(f"the tokenizer file {path} could not be read: {error}") from error
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer

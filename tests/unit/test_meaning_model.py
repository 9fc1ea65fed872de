"""The embedding model: offline, loaded lazily, and said unavailable in words when it cannot be."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from samantha_tui.core.views.meaning import Unavailable, model
from samantha_tui.core.views.meaning import weights as weights_module
from samantha_tui.core.views.meaning.model import DIMENSION, Engine, load_engine

from ..fresh_python import imported_after, run_fresh

NO_NETWORK = """
import json, socket
tried = []
def refuse(name):
    def refused(*args, **kwargs):
        tried.append(name)
        raise OSError(f"network refused in this test: {name}")
    return refused
socket.socket.connect = refuse("connect")
socket.socket.connect_ex = refuse("connect_ex")
socket.getaddrinfo = refuse("getaddrinfo")
socket.create_connection = refuse("create_connection")
from samantha_tui.core.views.meaning.model import load_engine
engine = load_engine()
vectors = engine.embed(["Always use pnpm", "Never use npm"])
print(json.dumps({"tried": tried, "engine": type(engine).__name__, "shape": vectors.shape}))
"""


def test_the_model_loads_and_embeds_without_opening_a_connection() -> None:
    out = json.loads(run_fresh(NO_NETWORK).splitlines()[-1])
    assert out == {"tried": [], "engine": "Engine", "shape": [2, DIMENSION]}


WITHOUT_WORDLLAMA = """
import sys
sys.modules["wordllama"] = None  # `import wordllama` now raises ImportError
from samantha_tui.core.views.meaning import Unavailable
from samantha_tui.core.views.meaning.analysis import analyse, related_to
from samantha_tui.core.views.meaning.model import load_engine
engine = load_engine()
assert isinstance(engine, Unavailable), engine
assert analyse([]) == engine and related_to("x.md", []) == engine
print(engine.reason)
"""


def test_without_wordllama_the_checks_are_unavailable_and_say_why() -> None:
    reason = run_fresh(WITHOUT_WORDLLAMA).strip()
    assert "wordllama" in reason and "not installed" in reason


def _package_like(folder: Path, weights: bytes | None, tokenizer: bool = True) -> Path:
    """A stand-in for wordllama's package folder holding the given weights file."""
    source = weights_module.package_folder()
    assert source is not None
    files = weights_module.files_of(folder, model.CONFIG, DIMENSION)
    files.weights.parent.mkdir(parents=True)
    files.tokenizer.parent.mkdir(parents=True)
    if weights is not None:
        files.weights.write_bytes(weights)
    if tokenizer:
        shipped = weights_module.files_of(source, model.CONFIG, DIMENSION).tokenizer
        files.tokenizer.write_bytes(shipped.read_bytes())
    return folder


def _safetensors(header: object, data: bytes) -> bytes:
    encoded = json.dumps(header).encode()
    return struct.pack("<Q", len(encoded)) + encoded + data


TABLE = {"dtype": "F16", "shape": [4, DIMENSION], "data_offsets": [0, 4 * DIMENSION * 2]}


@pytest.mark.parametrize(
    ("weights", "tokenizer", "said"),
    [
        (None, True, "missing"),
        (b"\x01", True, "too short"),
        (struct.pack("<Q", 1 << 40), True, "header of"),
        (_safetensors({"other": TABLE}, b""), True, "no float16"),
        (_safetensors({"embedding.weight": {**TABLE, "dtype": "F32"}}, b""), True, "no float16"),
        (_safetensors({"embedding.weight": {**TABLE, "shape": [4, 3]}}, b""), True, "shape"),
        (_safetensors({"embedding.weight": TABLE}, b"\0" * 10), True, "ends before"),
        (_safetensors({"embedding.weight": TABLE}, b"\0" * 4 * DIMENSION * 2), False, "tokenizer"),
        (b"\x08\0\0\0\0\0\0\0not json", True, "could not be read"),
    ],
)
def test_missing_or_broken_model_files_are_said_not_raised(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    weights: bytes | None,
    tokenizer: bool,
    said: str,
) -> None:
    folder = _package_like(tmp_path / "wordllama", weights, tokenizer)
    monkeypatch.setattr(weights_module, "package_folder", lambda: folder)
    failed = model._load()
    assert isinstance(failed, Unavailable)
    assert said in failed.reason and "reinstall wordllama" in failed.reason


def test_a_well_formed_copy_of_the_files_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = np.arange(4 * DIMENSION, dtype="<f2").tobytes()
    folder = _package_like(tmp_path / "wordllama", _safetensors({"embedding.weight": TABLE}, rows))
    monkeypatch.setattr(weights_module, "package_folder", lambda: folder)
    loaded = model._load()
    assert isinstance(loaded, Engine)
    assert loaded.embed(["a"]).shape == (1, DIMENSION)


def test_loading_the_model_imports_no_wordllama_and_no_network_library() -> None:
    loaded = imported_after(
        "from samantha_tui.core.views.meaning.model import load_engine; load_engine()"
    )
    assert "tokenizers" in loaded
    assert not {"wordllama", "requests", "huggingface_hub"} & loaded


@pytest.mark.parametrize("module", ["samantha_tui.ui.app", "samantha_tui.cli"])
def test_importing_the_app_or_the_cli_imports_neither_wordllama_nor_numpy(module: str) -> None:
    loaded = imported_after(f"import {module}")
    assert module in loaded
    assert not {"wordllama", "numpy"} & loaded


def test_importing_the_meaning_package_leaves_the_model_unloaded() -> None:
    loaded = imported_after("import samantha_tui.core.views.meaning.analysis")
    assert "samantha_tui.core.views.meaning.analysis" in loaded
    assert not {"wordllama", "numpy"} & loaded


def test_the_engine_is_loaded_once_and_gives_unit_float32_rows() -> None:
    engine = load_engine()
    assert isinstance(engine, Engine)
    assert load_engine() is engine
    vectors = engine.embed(["Run the tests before pushing", "", "x" * 100_000])
    assert vectors.shape == (3, DIMENSION) and vectors.dtype == np.float32
    lengths = np.linalg.norm(vectors, axis=1)
    assert lengths[0] == pytest.approx(1.0, abs=1e-5)
    assert lengths[2] == pytest.approx(1.0, abs=1e-5)
    assert lengths[1] in (0.0, pytest.approx(1.0, abs=1e-5))
    assert engine.embed([]).shape == (0, DIMENSION)
    assert "wordllama" in engine.name and str(DIMENSION) in engine.name


def test_the_engine_gives_wordllamas_own_vectors_for_single_spaced_text() -> None:
    from samantha_tui.core.views.meaning.text import embedding_text

    from .meaning_labelled import CONTRADICTIONS, PARAPHRASES, memory_of

    engine = load_engine()
    assert isinstance(engine, Engine)
    texts = [
        embedding_text(memory_of(text, "x.md"))
        for pair in (*PARAPHRASES, *CONTRADICTIONS)
        for text in pair
    ]
    texts.append("Node 18 — `timeout: 30` «ü» 日本語 naïve café, pnpm-lock.yaml!")
    ours = engine.embed(texts)
    from wordllama import WordLlama

    folder = weights_module.package_folder()
    theirs = WordLlama.load(
        config=model.CONFIG, cache_dir=folder, dim=DIMENSION, disable_download=True
    ).embed(texts, norm=True)
    assert np.abs(ours - theirs).max() < 1e-5
    # A text's vector does not depend on the texts embedded with it.
    assert np.abs(engine.embed(texts[:3]) - ours[:3]).max() < 1e-6


def test_a_tree_whose_vectors_are_kept_is_compared_without_loading_the_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from samantha_tui.core.basics.model import Kind, Memory
    from samantha_tui.core.views.meaning.analysis import analyse, related_to
    from samantha_tui.core.views.meaning.vectors import MemoryVectors

    memories = [
        Memory(Kind.SHORT_TERM, f"{n}.md", title, body=f"# {title}\n\n{title}.\n")
        for n, title in enumerate(("Always use pnpm", "Never use pnpm", "Rotate keys yearly"))
    ]
    kept = MemoryVectors()
    warm = analyse(memories, kept)  # embeds all three, keeping their vectors
    assert not isinstance(warm, Unavailable)
    monkeypatch.setattr(model, "_loaded", None)
    monkeypatch.setattr(model, "_load", lambda: pytest.fail("the model was loaded"))
    assert analyse(memories, kept) == warm
    assert not isinstance(related_to("0.md", memories, kept), Unavailable)
    # A memory not kept yet needs the model: loaded then, and its failure said in words.
    monkeypatch.setattr(model, "_load", lambda: Unavailable("no model here"))
    fresh = Memory(Kind.SHORT_TERM, "3.md", "New", body="# New\n\nA new note.\n")
    assert analyse([*memories, fresh], kept) == Unavailable("no model here")

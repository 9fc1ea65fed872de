"""The embedding model: offline, loaded lazily, and said unavailable in words when it cannot be."""

from __future__ import annotations

import json

import numpy as np
import pytest

from samantha_tui.core.views.meaning import Unavailable, model
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


def test_missing_weights_and_a_failing_loader_are_said_not_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import wordllama

    def missing(**_kwargs: object) -> None:
        raise FileNotFoundError("l2_supercat_256.safetensors")

    monkeypatch.setattr(wordllama.WordLlama, "load", missing)
    gone = model._load()
    assert isinstance(gone, Unavailable) and "missing" in gone.reason

    def broken(**_kwargs: object) -> None:
        raise RuntimeError("header too large")

    monkeypatch.setattr(wordllama.WordLlama, "load", broken)
    failed = model._load()
    assert isinstance(failed, Unavailable) and "header too large" in failed.reason


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
    theirs = engine._inference.embed(texts, norm=True)
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

"""Shared fixtures: trees are built in tmp_path; the demo is copied, never edited in place."""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import pytest
import textual.constants
from hypothesis import settings
from textual.widgets import Input

from samantha_tui.core.writing.store import Store
from samantha_tui.demo import ANCHOR, write_demo

from . import css_once, tiers, waiting

css_once.install()

# CI explores the same examples every run, so a red build always means a change broke something;
# local runs keep drawing new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
# `make soak` draws more examples for the property tests that keep Hypothesis's default count;
# the others set theirs through tiers.examples.
settings.register_profile(
    "soak",
    parent=settings.get_profile("ci" if os.environ.get("CI") else "default"),
    max_examples=100 * tiers.SOAK_FACTOR,
)
if tiers.SOAK:
    settings.load_profile("soak")

TODAY = ANCHOR
"""Tests run on the demo's own day, so ages and snapshots do not drift with the calendar."""


LONGEST_FIRST = (
    "test_key_mashing.py",
    "test_bootstrap_mashing.py",
    "test_mashing_screens.py",
    "test_mashing_timing.py",
    "test_mashing_journal.py",
    "test_crash_safety.py",
    "test_stale_plans_core.py",
)
"""Files whose tests take longest (the key mashing runs take up to a minute and a half each)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first: run in parallel, the workers then end together instead of one of
    them starting a long run as the others finish. And every Hypothesis test marked `property`,
    which `make soak` runs again with more examples."""
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """A failed seeded mashing run ends with the one command that replays it."""
    report = yield
    if report.failed and item.get_closest_marker("mashing") is not None:
        seed = getattr(getattr(item, "module", None), "SEED", "its module's SEED")
        command = f".venv/bin/python -m pytest -p no:xdist '{item.nodeid}'"
        report.sections.append(("replay", f"seed {seed}; replay it with:\n  {command}"))
    return report


@pytest.fixture(autouse=True)
def _waits_on_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pilot waits on the app, never on the CPU going quiet (see tests/waiting.py)."""
    waiting.install(monkeypatch)


@pytest.fixture(autouse=True)
def _no_pairs_kept_from_another_test() -> None:
    """The pairs kept for the last memories asked about (kept_pairs.py) are the process's: a
    test of the same demo memories with other thresholds must work its own out."""
    kept = sys.modules.get("samantha_tui.core.views.meaning.kept_pairs")
    if kept is not None:
        kept.KEPT_PAIRS.forget()


@pytest.fixture(autouse=True)
def _fixed_today(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("SAMANTHA_TUI_TODAY", TODAY.isoformat())
    for name in ("SAMANTHA_CEREBRUM", "NO_COLOR", "TEXTUAL_THEME", "VISUAL", "EDITOR"):
        monkeypatch.delenv(name, raising=False)
    # Never the developer's own settings; no watcher and no embedding model unless a test turns
    # them on itself (the model takes half a second of CPU to load in every app that boots).
    config = tmp_path_factory.mktemp("config") / "config.toml"
    config.write_text(TEST_SETTINGS, encoding="utf-8")
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    monkeypatch.setenv("SAMANTHA_TUI_CACHE", str(tmp_path_factory.mktemp("cache")))
    # The app remembers tabs, theme and sorts in a state file: a fresh one for every test.
    monkeypatch.setenv("SAMANTHA_TUI_STATE", str(tmp_path_factory.mktemp("state") / "state.json"))


TEST_SETTINGS = "[watch]\nenabled = false\n\n[meaning]\nenabled = false\n"
MEANING_ON = TEST_SETTINGS.replace("[meaning]\nenabled = false", "[meaning]\nenabled = true")
"""The tests' settings with the embedding model on: the tests of comparing by meaning."""


def use_settings(monkeypatch: pytest.MonkeyPatch, folder: Path, text: str) -> Path:
    """The app and the CLI read `text` as their settings file for this test; the file."""
    config = folder / "settings.toml"
    config.write_text(text, encoding="utf-8")
    monkeypatch.setenv("SAMANTHA_TUI_CONFIG", str(config))
    return config


HEALTH_AFTER = 0.02
"""The health report's wait for quiet in tests, for the app's half second: each test that
changes something and settles would otherwise wait it out, about a tenth of the suite's time.
The tests whose keys race the app's own delays (REAL_DELAYS) keep it."""
REAL_DELAYS = ("mashing", "key_burst", "held_keys", "held_frames")
"""Parts of the names of test files that keep every delay of the app as it is."""


@pytest.fixture(autouse=True)
def _quick_delays(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The health report's short wait, and no animations: the tabs' underline (the app's only
    animation) slides for 0.3 s whenever a tab or a count changes, the screen drawn again each
    frame, about a tenth of the time of the tests that switch tabs. Not in the REAL_DELAYS files,
    which run the app as a person has it."""
    if any(part in request.path.name for part in REAL_DELAYS):
        return
    monkeypatch.setattr("samantha_tui.ui.health.HEALTH_AFTER", HEALTH_AFTER)
    # Read by App.__init__, so every app the test makes starts with animations off.
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")


@pytest.fixture(autouse=True)
def _snapshot_determinism(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a snapshot must not depend on, set once for every test that takes one (its tree is
    built under tmp_path; the clock is fixed for every test above):
    - HOME is the test's own folder, so the status line reads ~/demo on every machine;
    - no animations: a tab underline caught mid-slide would differ run to run;
    - no blinking text cursor, which would be caught on or off at random.
    """
    if "snap_compare" not in request.fixturenames:
        return
    monkeypatch.setenv("HOME", str(tmp_path))
    # Read by App.__init__, so every app the test makes starts with animations off.
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")
    # The default of the reactive: an Input made during the test starts steady (shown).
    monkeypatch.setattr(Input.cursor_blink, "_default", False)


@pytest.fixture
def demo_root(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo", TODAY)


def make_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write files (paths relative to root) and make sure every kind folder exists."""
    for folder in (
        "short-term-memory",
        "long-term-memory",
        "current-tasks",
        "work-experience",
        "procedural-memory",
    ):
        (root / ".ai" / folder / ".ai").mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))
    return root


@pytest.fixture
def tree(tmp_path: Path):
    """A factory: tree({path: text}) -> a Store over a fresh tree, already scanned."""

    def build(files: dict[str, str | bytes]) -> Store:
        store = Store(make_tree(tmp_path / "cerebrum", files), lambda: TODAY)
        store.scan()
        return store

    return build


ST = ".ai/short-term-memory/.ai"
LT = ".ai/long-term-memory/.ai"
TASKS = ".ai/current-tasks/.ai"


def memory_text(**fields: str) -> str:
    lines = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{lines}---\n\n# A memory\n\nBody text.\n"


__all__ = ["LT", "ST", "TASKS", "TODAY", "dt", "make_tree", "memory_text"]
